import { FormUnavailable } from '../page/form-unavailable.tsx';
import type { FillLoad } from '../page/load-fill-form.ts';
import { FileUploadForm } from './file-upload-form.tsx';

/** /fileUpload, the customer's files (docs/product.md, Customer pages). */
export function FileUploadPage({ data }: { data: FillLoad }) {
  if (data.state !== 'ready')
    return <FormUnavailable reason={data.state} message={data.message} look={data.look} />;
  return <FileUploadForm key={data.form._id} form={data.form} ownerId={data.ownerId} saved={data.draft} />;
}

// A form with page breaks is drawn by the paged screen, which shares most of this step's code (the file slots, the
// submit). It is loaded from here, in this step's chunk: as a second lazily loaded chunk sharing the first screen's
// code, the bundler moved that code out of the take-over's chunk into chunks of their own, 2 KiB (gzip) more for
// every customer to download, paged form or not.
export { PagedPage } from '../paged/paged-page.tsx';
