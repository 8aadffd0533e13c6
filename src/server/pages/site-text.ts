// The public site's Terms and Privacy pages hold the operator's words: whoever runs an instance answers for it, not
// the project. TERMS_FILE and PRIVACY_FILE name plain-text files, read at each visit so an edit needs no restart.
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';

const DEFAULTS = {
  terms:
    'This Easy Form instance is run by its operator, the person or organisation that installed it on this server. ' +
    'They decide who may use it and on what terms; ask them.\n\n' +
    'Easy Form is open-source software provided as is. The people who make it do not run this instance and do not see ' +
    'the forms or answers kept here.',
  privacy:
    'This Easy Form instance is run by its operator, the person or organisation that installed it on this server. ' +
    'The answers and files sent through its forms are kept on the operator’s server and database, and read by the ' +
    'owner of each form.\n\n' +
    'The software itself sends nothing to its makers or to anyone else. For what the operator does with your data, ' +
    'and to ask for it to be removed, contact the operator or the owner of the form you filled in.',
};

type Page = keyof typeof DEFAULTS;

/** GET /api/v1/site/terms and /api/v1/site/privacy: `{ text, fromOperator }`, the operator's file or the default. */
export function registerSiteText(app: FastifyInstance, files: Partial<Record<Page, string>>): void {
  for (const page of Object.keys(DEFAULTS) as Page[]) {
    app.get(`/api/v1/site/${page}`, async (request, reply) => {
      const file = files[page];
      let text: string | undefined;
      if (file) {
        try {
          text = (await readFile(file, 'utf8')).trim();
        } catch (err) {
          request.log.warn({ err, file }, `the ${page} file cannot be read: the default text is shown`);
        }
      }
      reply.header('cache-control', 'no-cache');
      return { text: text || DEFAULTS[page], fromOperator: Boolean(text) };
    });
  }
}
