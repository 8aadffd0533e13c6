// What the no-JavaScript form suites share: one app per test file (each file imports its own copy of this module)
// serving a built customer page, an owner with a hotel-booking form, and the customer's GET of the drawn page.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { fieldsOf, type Form } from '#common/forms.ts';
import type { Submission } from '#common/submissions.ts';
import { ownerRequests } from '../../../testing/owner-requests.ts';
import { createTestApp, signUpOwner, type TestApp } from '../../../testing/test-app.ts';
import { PDF } from '../../../testing/test-files.ts';

const CUSTOMER_HTML =
  '<!doctype html><html lang="en"><head><title>Easy Form</title><script type="module" crossorigin src="/assets/customer-1.js"></script>' +
  '<link rel="modulepreload" crossorigin href="/assets/react-1.js"></head><body><div id="root"></div></body></html>';

export let t: TestApp;
let webDir: string;
export let owner: { token: string; id: string };
export let form: Form;

/** The owner's requests (`as(owner)`), or another's. */
export const as = ownerRequests(() => t);
export const idOf = (f: Form, name: string) => fieldsOf(f).find((x) => x.name === name)?._id ?? '';

export async function makeForm(title = 'Hotel booking', questions?: object[]): Promise<Form> {
  let f = (
    await as(owner).post('/api/v1/length', { formTitle: title, description: 'Tell us about your stay' })
  ).json<Form>();
  for (const field of questions ?? [
    { id: 1, name: 'Name', type: 'text', required: true },
    { id: 1, name: 'Email', type: 'email', required: true },
    { id: 1, name: 'Phone', type: 'tel' },
    { id: 1, name: 'Arrival', type: 'date' },
    { id: 1, name: 'Secret word', type: 'password' },
    { id: 2, name: 'Room', options: [{ value: 'Single' }, { value: 'Double' }], required: true },
    { id: 3, name: 'Meal', options: [{ value: 'Veg' }, { value: 'Non-veg' }], required: true },
    { id: 4, name: 'Extras', options: [{ value: 'Wifi' }, { value: 'Parking' }] },
    { id: 5, name: 'ID proof', required: true },
  ]) {
    f = (await as(owner).post(`/api/text/${f._id}`, field)).json<Form>();
  }
  return f;
}

export const page = (f: Form = form) =>
  t.app.inject({ method: 'GET', url: `/customer/${f._id}/${owner.id}` });
export const tokenIn = (html: string) => /name="token" value="([^"]+)"/.exec(html)?.[1] ?? '';
const ENTITIES: Record<string, string> = {
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&amp;': '&',
};
/** A value as the page wrote it into an attribute, read back as the browser reads it. */
export const unescapeHtml = (value: string) =>
  value.replace(/&(lt|gt|quot|#39|amp);/g, (entity) => ENTITIES[entity] ?? entity);
export const randomUUIDLike = () => '7d9c2f4e-0b1a-4c3d-8e5f-6a7b8c9d0e1f';

/**
 * Starts the app with the owner and the form before the file's tests, and closes it after them; gives the calls the
 * tests make (the app, the owner and the form are the live bindings above).
 */
export function setUpHtmlForm(options: Parameters<typeof createTestApp>[0] = {}) {
  beforeAll(async () => {
    webDir = await mkdtemp(join(tmpdir(), 'easyform-web-'));
    await mkdir(join(webDir, 'assets'));
    await writeFile(
      join(webDir, 'index.html'),
      '<!doctype html><title>Easy Form</title><div id="root"></div>',
    );
    await writeFile(join(webDir, 'customer.html'), CUSTOMER_HTML);
    t = await createTestApp({ ...options, webDir });
    owner = await signUpOwner(t);
    form = await makeForm();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await rm(webDir, { recursive: true, force: true });
  });
  return { as, countOf, follow, makeForm, page, post, postOnly, unclaimedOf };
}

export type Part =
  [name: string, value: string] | [name: string, file: { filename: string; content: Buffer }];

/** A multipart/form-data body as a browser sends a form: fields and files in page order. */
export function multipartOf(parts: Part[]) {
  const boundary = `----easyform${randomBytes(8).toString('hex')}`;
  const chunks = parts.map(([name, value]) =>
    typeof value === 'string'
      ? Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      : Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\n` +
              'Content-Type: application/octet-stream\r\n\r\n',
          ),
          value.content,
          Buffer.from('\r\n'),
        ]),
  );
  return {
    payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A post as the browser sends it (`query`: a step's move), its own answer: a 303 to a page, or a page that refuses. */
export const postOnly = (parts: Part[], f: Form = form, query = '') =>
  t.app.inject({ method: 'POST', url: `/customer/${f._id}/${owner.id}${query}`, ...multipartOf(parts) });
/** The page a browser shows for an answer: the page its 303 leads to (post/redirect/get), or the answer itself. */
export async function follow(res: Awaited<ReturnType<typeof postOnly>>) {
  const location = res.headers.location;
  return res.statusCode === 303 && location ? t.app.inject({ method: 'GET', url: location }) : res;
}
/** A post and the page the browser then shows. */
export const post = async (parts: Part[], f: Form = form) => follow(await postOnly(parts, f));

/** Uploads for the form that no submission claimed: a refused or repeated post leaves none behind. */
export const unclaimedOf = async (f: Form) =>
  (
    await t.app.db.query<{ n: number }>(
      'select count(*)::int as n from uploads where form_id = $1 and claimed_at is null',
      [f._id],
    )
  )[0]?.n;
export const countOf = async (f: Form) =>
  (await as(owner).get('/api/formSummary'))
    .json<{ _id: string; count: number }[]>()
    .find((x) => x._id === f._id)?.count ?? 0;

/** The owner's view of the form's newest response. */
export async function newestView(f: Form): Promise<Submission> {
  const list = (await as(owner).get(`/api/formSubmissions/${f._id}`)).json<{ items: { _id: string }[] }>();
  return (await as(owner).get(`/api/forms/${list.items[0]?._id}`)).json<Submission>();
}

/** The hidden inputs of a drawn page, as its post sends them again (the token, a draft's key, hidden fields). */
export const hiddenOf = (html: string): Part[] =>
  [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
    (m) => [m[1] ?? '', unescapeHtml(m[2] ?? '')] as Part,
  );
export const queryOf = (address: string | undefined) => unescapeHtml(address ?? '').replace(/^[^?]*/, '');
/** The query of the address a drawn page posts to (its step or page). */
export const actionOf = (html: string) =>
  queryOf(/<form class="fill-form"[^>]* action="([^"]+)"/.exec(html)?.[1]);

/** A map over a post's parts that sends `value` for the part named `name` instead. */
export const replacing =
  (name: string, value: Part[1]) =>
  ([n, v]: Part): Part =>
    (n === name ? [n, value] : [n, v]) as Part;

/** Every answer of the hotel form, valid, with a file, under `token`. */
export function fullAnswers(f: Form, token: string): Part[] {
  return [
    ['token', token],
    [idOf(f, 'Name'), 'Priya Sharma'],
    [idOf(f, 'Email'), 'priya@example.com'],
    [idOf(f, 'Phone'), ''],
    [idOf(f, 'Arrival'), ''],
    [idOf(f, 'Secret word'), ''],
    [idOf(f, 'Room'), 'Double'],
    [idOf(f, 'Meal'), 'Veg'],
    [idOf(f, 'Extras'), 'Wifi'],
    [idOf(f, 'Extras'), 'Parking'],
    [idOf(f, 'ID proof'), { filename: 'passport.pdf', content: PDF }],
    ['website', ''],
  ];
}
