import { FormUnavailable } from '../page/form-unavailable.tsx';
import type { FillLoad } from '../page/load-fill-form.ts';
import { PreviewForm } from './preview-form.tsx';

/** /preview, the customer's answers (docs/product.md, Customer pages). */
export function PreviewPage({ data }: { data: FillLoad }) {
  if (data.state !== 'ready')
    return <FormUnavailable reason={data.state} message={data.message} look={data.look} />;
  return <PreviewForm key={data.form._id} form={data.form} ownerId={data.ownerId} saved={data.draft} />;
}
