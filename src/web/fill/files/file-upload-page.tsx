import { FormUnavailable } from '../page/form-unavailable.tsx';
import type { FillLoad } from '../page/load-fill-form.ts';
import { FileUploadForm } from './file-upload-form.tsx';

/** /fileUpload, the customer's files (docs/product.md, Customer pages). */
export function FileUploadPage({ data }: { data: FillLoad }) {
  if (data.state !== 'ready')
    return <FormUnavailable reason={data.state} message={data.message} look={data.look} />;
  return <FileUploadForm key={data.form._id} form={data.form} ownerId={data.ownerId} saved={data.draft} />;
}
