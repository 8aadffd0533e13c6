// A file question that takes several files (its rules' `maxFiles`, 1 to 10): set by its rename call, answered with a
// list of uploads (or one, as the product always sent), held to its count, its types and its uploads on the server
// whatever the page allowed, and shown to the owner, in the list, the CSV and a webhook with every file in order.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import type { Submission, UploadResponse } from '#common/submissions.ts';
import { notificationSourcesOf } from '../../../app-sources.ts';
import { eventually } from '../../../testing/eventually.ts';
import { ownerRequests } from '../../../testing/owner-requests.ts';
import { setUpTestApp, signUpOwner } from '../../../testing/test-app.ts';
import { multipart, PDF, PNG } from '../../../testing/test-files.ts';
import { NO_RATE_LIMITS } from '../../../testing/test-population.ts';
import { startReceiver, verify } from '../../../testing/webhook-receiver.ts';

// The app may post to a receiver on 127.0.0.1, and has no rate limits: the generated case uploads many files.
const t = setUpTestApp({
  webhookAllowPrivate: true,
  webhookPollMs: 50,
  webhookBackoffMs: 50,
  rateLimits: NO_RATE_LIMITS,
});
const as = ownerRequests(t);
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

/** A form whose only question is the file question Receipts, with `rules` (null: none) set by its rename call. */
async function setUp(rules: object | null, required = true, token?: string) {
  const owner = token ? { token } : await signUpOwner(t);
  const blank = (await as(owner).post('/api/v1/length', { formTitle: 'Expenses' })).json<Form>();
  const added = (
    await as(owner).post(`/api/text/${blank._id}`, { id: 5, name: 'Receipts', required })
  ).json<Form>();
  const fieldId = added.fileField[0]?._id ?? '';
  const res = await as(owner).put(`/api/updateFile/${blank._id}/${fieldId}`, {
    name: 'Receipts',
    fileRules: rules,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { owner, form: res.json<Form>(), fieldId };
}

async function upload(form: Form, name = 'receipt.pdf', content = PDF): Promise<UploadResponse> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/profile?formId=${form._id}`,
    ...multipart(name, content),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<UploadResponse>();
}
/** An upload as the page sends it in `fileObject`. */
const sent = (u: UploadResponse) => ({ deleteId: u._id, value: u.file, originalName: u.name });

const submit = (form: Form, fieldId: string, answer: unknown) =>
  t.app.inject({
    method: 'POST',
    url: `/api/forms/${form.ownerIdAsStructureId}`,
    payload: { formStructureId: form._id, fileObject: { [fieldId]: answer } },
  });
const storedCount = async (form: Form) =>
  (
    await t.app.db.query<{ n: number }>('select count(*)::int as n from submissions where form_id = $1', [
      form._id,
    ])
  )[0]?.n;
const view = async (token: string, id: string) =>
  (await as({ token }).get(`/api/forms/${id}`)).json<Submission>();
/** The path and query of a file's address (the owner's view, a signed CSV or webhook link), as the app serves it. */
function pathOf(url: string) {
  const address = new URL(url, 'http://easyform.test');
  return address.pathname + address.search;
}

describe('a file question that takes several files', () => {
  it('is given its count by the rename call, refused outside 1 to 10 with a clear message', async () => {
    const { owner, form, fieldId } = await setUp({ maxFiles: 3, types: ['pdf'] });
    expect(form.fileField[0]?.rules).toEqual({ maxFiles: 3, types: ['pdf'] });
    const refusals: [unknown, string][] = [
      [0, 'A question takes at least 1 file'],
      [11, 'A question takes at most 10 files'],
      [2.5, 'How many files is a whole number'],
      ['3', 'How many files is a number'],
    ];
    for (const [maxFiles, message] of refusals) {
      const res = await as(owner).put(`/api/updateFile/${form._id}/${fieldId}`, {
        name: 'Receipts',
        fileRules: { maxFiles },
      });
      expect(res.statusCode, String(maxFiles)).toBe(400);
      expect(res.json().error.message).toContain(message);
    }
    // The refused calls changed nothing; export and import keep the count.
    const exported = (await as(owner).get(`/api/exportForm/${form._id}`)).json<object>();
    const copy = (await as(owner).post('/api/importForm', exported)).json<Form>();
    expect(copy.fileField[0]?.rules).toEqual({ maxFiles: 3, types: ['pdf'] });
  });

  it('stores three files in the order given, shown to the owner, in the list and the CSV, each downloading', async () => {
    const { owner, form, fieldId } = await setUp({ maxFiles: 3 });
    const names = ['receipt-1.pdf', 'photo.png', 'receipt-3.pdf'];
    const uploads = [
      await upload(form, names[0]),
      await upload(form, names[1], PNG),
      await upload(form, names[2]),
    ];
    const res = await submit(form, fieldId, uploads.map(sent));
    expect(res.statusCode, res.body).toBe(200);
    const s = await view(owner.token, res.json<{ _id: string }>()._id);
    const [answer] = s.answers;
    expect(answer?.files?.map((f) => f.originalName)).toEqual(names);
    expect(answer?.file).toEqual(answer?.files?.[0]);
    expect(answer?.value).toBeNull();
    // The product's map keeps one file a question: the first.
    expect(s.fileObject.Receipts).toMatchObject({ originalName: names[0], value: answer?.files?.[0]?.url });
    for (const file of answer?.files ?? []) {
      const got = await t.app.inject({ method: 'GET', url: pathOf(file.url) });
      expect(got.statusCode, file.originalName).toBe(200);
    }

    const list = (await as(owner).get(`/api/formSubmissions/${form._id}`)).json<{
      items: { answers: Record<string, string> }[];
    }>();
    expect(list.items[0]?.answers[fieldId]).toBe(names.join('; '));
    const csv = (await as(owner).get(`/api/formSubmissions/${form._id}/csv`)).body;
    const cell = new RegExp(names.map((n) => `${n.replace('.', '\\.')} <(https?://[^>]+)>`).join('; '));
    const links = cell.exec(csv);
    expect(links, csv).not.toBeNull();
    const first = await t.app.inject({ method: 'GET', url: pathOf(links?.[1] ?? '') });
    expect(first.rawPayload.equals(PDF)).toBe(true);
    // A mail about the response names them all.
    const [mailed] = await notificationSourcesOf('UTC').findSubmissions(t.app.db, [s._id]);
    expect(mailed?.answers).toEqual([{ fieldId, question: 'Receipts', text: names.join('; ') }]);
  });

  it('still takes one file as the product sent it, or a list of one on a question of one file', async () => {
    const several = await setUp({ maxFiles: 3 });
    const one = await upload(several.form, 'only.pdf');
    const res = await submit(several.form, several.fieldId, sent(one));
    expect(res.statusCode, res.body).toBe(200);
    const s = await view(several.owner.token, res.json<{ _id: string }>()._id);
    expect(s.answers[0]?.files?.map((f) => f.originalName)).toEqual(['only.pdf']);
    expect(s.answers[0]?.file?.originalName).toBe('only.pdf');

    const single = await setUp(null, true, several.owner.token);
    for (const answer of [
      sent(await upload(single.form, 'a.pdf')),
      [sent(await upload(single.form, 'b.pdf'))],
    ]) {
      const ok = await submit(single.form, single.fieldId, answer);
      expect(ok.statusCode, ok.body).toBe(200);
      const back = await view(several.owner.token, ok.json<{ _id: string }>()._id);
      expect(back.answers[0]?.files).toHaveLength(1);
      expect(back.answers[0]?.file).toEqual(back.answers[0]?.files?.[0]);
    }
    // One file is stored as the product always stored it.
    const rows = await t.app.db.query<{ answers: { value: object }[] }>(
      'select answers from submissions where form_id = $1',
      [single.form._id],
    );
    for (const row of rows) expect(Object.keys(row.answers[0]?.value ?? {})).toEqual(['uploadId']);
  });

  it('refuses more files than the question takes, a file twice or none when required, naming the question', async () => {
    const { owner, form, fieldId } = await setUp({ maxFiles: 3 });
    const uploads = [];
    for (let i = 1; i <= 4; i++) uploads.push(await upload(form, `r${i}.pdf`));
    const four = await submit(form, fieldId, uploads.map(sent));
    expect(four.statusCode).toBe(400);
    expect(four.json().error.message).toBe('Receipts: Upload at most 3 files');
    const twice = await submit(form, fieldId, [sent(uploads[0]!), sent(uploads[0]!)]);
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error.message).toBe('Receipts: Each file can be given once');
    const none = await submit(form, fieldId, []);
    expect(none.statusCode).toBe(400);
    expect(none.json().error.message).toBe('Receipts: Upload a file');
    expect(await storedCount(form)).toBe(0);
    // The refused uploads were not claimed: the corrected submit takes them.
    const fixed = await submit(form, fieldId, uploads.slice(1).map(sent));
    expect(fixed.statusCode, fixed.body).toBe(200);
    const s = await view(owner.token, fixed.json<{ _id: string }>()._id);
    expect(s.answers[0]?.files?.map((f) => f.originalName)).toEqual(['r2.pdf', 'r3.pdf', 'r4.pdf']);

    const single = await setUp(null, true, owner.token);
    const two = [await upload(single.form, 'a.pdf'), await upload(single.form, 'b.pdf')];
    const refused = await submit(single.form, single.fieldId, two.map(sent));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe('Receipts: Upload one file');
    expect(await storedCount(single.form)).toBe(0);
  });

  it('refuses the whole answer when one of its files breaks the question’s types, storing nothing', async () => {
    const { form, fieldId } = await setUp({ maxFiles: 3, types: ['pdf'] });
    const files = [
      await upload(form, 'a.pdf'),
      await upload(form, 'b.png', PNG),
      await upload(form, 'c.pdf'),
    ];
    const res = await submit(form, fieldId, files.map(sent));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Receipts: Choose a PDF');
    expect(await storedCount(form)).toBe(0);
    const claimed = await t.app.db.query(
      'select id from uploads where form_id = $1 and claimed_at is not null',
      [form._id],
    );
    expect(claimed).toEqual([]);
  });

  it('sends every file to a webhook in order, and an empty list in Send test’s example', async () => {
    const { owner, form, fieldId } = await setUp({ maxFiles: 2 }, false);
    const added = await as(owner).post(`/api/formWebhooks/${form._id}`, { url: receiver.url });
    expect(added.statusCode, added.body).toBe(201);
    const { id, secret } = added.json<{ id: string; secret: string }>();
    const files = [await upload(form, 'one.pdf'), await upload(form, 'two.pdf')];
    const since = receiver.received.length;
    const res = await submit(form, fieldId, files.map(sent));
    expect(res.statusCode, res.body).toBe(200);
    await eventually(() => receiver.received.length > since);
    const delivery = receiver.received[since];
    const header = String(delivery?.headers['easyform-signature']);
    expect(verify(secret, header, delivery?.body ?? '')).toBe(true);
    const payload = JSON.parse(delivery?.body ?? '{}');
    const answer = payload.answers.find((a: { kind: string }) => a.kind === 'file');
    expect(answer.files.map((f: { name: string }) => f.name)).toEqual(['one.pdf', 'two.pdf']);
    expect(answer.file).toEqual(answer.files[0]);
    expect(answer.value).toBeNull();
    for (const f of answer.files as { url: string }[]) {
      expect((await t.app.inject({ method: 'GET', url: pathOf(f.url) })).statusCode).toBe(200);
    }

    const test = await as(owner).post(`/api/formWebhooks/${form._id}/${id}/test`);
    expect(test.statusCode, test.body).toBe(200);
    const example = JSON.parse(receiver.received.at(-1)?.body ?? '{}');
    expect(example.answers).toContainEqual({
      fieldId,
      question: 'Receipts',
      kind: 'file',
      value: null,
      file: null,
      files: [],
    });
  });

  it('accepts exactly as many files as the question allows and requires (generated)', async () => {
    const { owner, form, fieldId } = await setUp(null);
    // Uploads not yet claimed; an accepted case claims those it sent, which are then replaced.
    const pool: UploadResponse[] = [];
    for (let i = 0; i < 12; i++) pool.push(await upload(form, `p${i}.pdf`));
    const seen = { accepted: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 1, max: 10 }),
        fc.boolean(),
        fc.boolean(),
        async (count, maxFiles, required, oneAsObject) => {
          const set = await as(owner).put(`/api/updateFile/${form._id}/${fieldId}`, {
            name: 'Receipts',
            required,
            fileRules: { maxFiles },
          });
          expect(set.statusCode, set.body).toBe(200);
          const before = await storedCount(form);
          const given = pool.slice(0, count);
          // One file is sent as a list or, half the time, as the product sends it: an object.
          const answer = count === 1 && oneAsObject ? sent(given[0]!) : given.map(sent);
          const res = await submit(form, fieldId, answer);
          const fits = count >= (required ? 1 : 0) && count <= maxFiles;
          const about = JSON.stringify({ count, maxFiles, required });
          expect(res.statusCode, `${about} ${res.body}`).toBe(fits ? 200 : 400);
          expect(await storedCount(form)).toBe((before ?? 0) + (fits ? 1 : 0));
          if (count > maxFiles && count <= 10)
            expect(res.json().error.message, about).toBe(
              maxFiles === 1 ? 'Receipts: Upload one file' : `Receipts: Upload at most ${maxFiles} files`,
            );
          seen[fits ? 'accepted' : 'refused'] += 1;
          if (!fits) return;
          if (count > 0) {
            const s = await view(owner.token, res.json<{ _id: string }>()._id);
            expect(s.answers[0]?.files?.map((f) => f.originalName)).toEqual(given.map((u) => u.name));
          }
          for (let i = 0; i < count; i++) pool[i] = await upload(form, `p${i}-again.pdf`);
        },
      ),
      { numRuns: 25 },
    );
    expect(seen.accepted).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);
  });
});
