import { FormUnavailable } from '../page/form-unavailable.tsx';
import type { FillLoad } from '../page/load-fill-form.ts';
import { PagedForm } from './paged-form.tsx';

/**
 * /preview of a form with page breaks: one page at a time (docs/product.md, Customer pages). Loaded only for such a
 * form, so a form without pages never downloads it.
 */
export function PagedPage({ data }: { data: FillLoad }) {
  if (data.state !== 'ready')
    return <FormUnavailable reason={data.state} message={data.message} look={data.look} />;
  return <PagedForm key={data.form._id} form={data.form} ownerId={data.ownerId} saved={data.draft} />;
}
