// Pure, so the web app can name a file it saves itself the way the server's Content-Disposition does.

/** A form title fit for any file system: ASCII letters and digits, `_`, space and `-` only. */
const titleForFileName = (title: string, fallback: string) =>
  title.replace(/[^\w -]+/g, '').trim() || fallback;

/** The file a form's exported definition is saved as. */
export const formExportFileName = (formTitle: string) =>
  `${titleForFileName(formTitle, 'form')}.easyform.json`;

/** The file a form's responses are saved as, in CSV. */
export const responsesCsvFileName = (formTitle: string) =>
  `${titleForFileName(formTitle, 'responses')} responses.csv`;
