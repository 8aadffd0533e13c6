import { FormUnavailable } from '../page/form-unavailable.tsx';
import type { FillLoad } from '../page/load-fill-form.ts';
import { PagedForm } from './paged-form.tsx';

/**
 * /preview of a form with page breaks: one page at a time (docs/product.md, Customer pages). Loaded when such a form
 * opens, in the files step's chunk (file-upload-page.tsx says why), never with the first screen of other forms.
 */
export function PagedPage({ data }: { data: FillLoad }) {
  if (data.state !== 'ready')
    return <FormUnavailable reason={data.state} message={data.message} look={data.look} />;
  return <PagedForm key={data.form._id} form={data.form} ownerId={data.ownerId} saved={data.draft} />;
}
