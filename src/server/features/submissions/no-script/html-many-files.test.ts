// A file question that takes several files, without JavaScript: its input lets the browser choose several only then,
// the hint under it says how many, a post keeps up to that many files and says so at the question when more came,
// and a form with page breaks keeps the files chosen on a page, listed, to the end. Each page is posted as a browser
// posts it: its hidden fields, and the files chosen, one part each under the input's name.
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import { PDF, PNG } from '../../../testing/test-files.ts';
import {
  actionOf,
  hiddenOf,
  idOf,
  newestView,
  owner,
  queryOf,
  setUpHtmlForm,
  t,
  type Part,
} from './test-fixture.ts';

const { as, countOf, follow, makeForm, page, postOnly, unclaimedOf } = setUpHtmlForm();

/** A form with Receipts (up to `maxFiles`, 2 MB each) and, unless left out, ID proof (one file, the default). */
async function filesForm(title: string, maxFiles = 3, withProof = true): Promise<Form> {
  const f = await makeForm(title, [
    { id: 5, name: 'Receipts', required: true },
    ...(withProof ? [{ id: 5, name: 'ID proof' }] : []),
  ]);
  const res = await as(owner).put(`/api/updateFile/${f._id}/${idOf(f, 'Receipts')}`, {
    name: 'Receipts',
    required: true,
    fileRules: { maxFiles, maxBytes: 2_000_000 },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Form>();
}

/** The customer on a page (its HTML) presses its primary button or Back, having answered `answers`. */
async function press(f: Form, html: string, answers: Part[], button: 'primary' | 'back' = 'primary') {
  const query = button === 'back' ? queryOf(/formaction="([^"]+)"/.exec(html)?.[1]) : actionOf(html);
  return (await follow(await postOnly([...hiddenOf(html), ...answers, ['website', '']], f, query))).body;
}
/** The files step of a form whose questions are all files: its first step has nothing to answer. */
const filesStep = async (f: Form) => press(f, (await page(f)).body, []);

/** Receipts (up to `maxFiles`) on a page of its own, then Email on a second page. */
async function pagedForm(title: string, maxFiles: number): Promise<Form> {
  const made = await filesForm(title, maxFiles, false);
  const withEmail = (
    await as(owner).post(`/api/text/${made._id}`, { id: 1, name: 'Email', type: 'email', required: true })
  ).json<Form>();
  const [receipts, email] = withEmail.items;
  const res = await as(owner).put(`/api/v1/form/${made._id}/items`, {
    items: [
      { kind: 'page', _id: 'papers', title: 'Papers' },
      receipts,
      { kind: 'page', _id: 'contact', title: 'Contact' },
      email,
    ],
    version: withEmail.version,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Form>();
}
/** The original names of the Receipts files of the form's newest response, as the owner sees them. */
const filesOf = async (f: Form) =>
  (await newestView(f)).answers.find((a) => a.name === 'Receipts')?.files?.map((x) => x.originalName);

const file = (filename: string, content = PDF) => ({ filename, content });
const inputOf = (html: string, id: string) =>
  new RegExp(`<input[^>]*id="q-${id}"[^>]*>`).exec(html)?.[0] ?? '';
/** The message the page shows at a question, after its icon. */
const errorAt = (html: string, id: string) =>
  new RegExp(`id="q-${id}-error"[^>]*><span[^>]*>!</span>([^<]+)</p>`).exec(html)?.[1];

describe('a file question that takes several files, without JavaScript', () => {
  it('lets the browser choose several files only when the question takes more than one, and says how many', async () => {
    const f = await filesForm('Drawn');
    const html = await filesStep(f);
    const receipts = idOf(f, 'Receipts');
    const proof = idOf(f, 'ID proof');
    expect(inputOf(html, receipts)).toMatch(/ type="file"[^>]* multiple[\s>=]/);
    expect(inputOf(html, proof)).toMatch(/ type="file"/);
    expect(inputOf(html, proof)).not.toMatch(/ multiple[\s>=]/);
    expect(html).toContain(
      `<p class="field-hint" id="q-${receipts}-hint">Up to 3 files: JPEG, PNG or PDF, up to 2 MB each</p>`,
    );
    expect(html).toContain(`<p class="field-hint" id="q-${proof}-hint">JPEG, PNG or PDF</p>`);
  });

  it('stores the files posted for the question, in the order chosen, with the other question’s file', async () => {
    const f = await filesForm('Two receipts');
    const html = await filesStep(f);
    const sent = await press(f, html, [
      [idOf(f, 'Receipts'), file('taxi.pdf')],
      [idOf(f, 'Receipts'), file('hotel.png', PNG)],
      [idOf(f, 'ID proof'), file('passport.pdf')],
    ]);
    expect(sent).toContain('Submitted successfully');
    expect(await countOf(f)).toBe(1);
    expect(await unclaimedOf(f)).toBe(0);
    const view = await newestView(f);
    const named = (name: string) => view.answers.find((a) => a.name === name);
    expect(named('Receipts')?.files?.map((x) => x.originalName)).toEqual(['taxi.pdf', 'hotel.png']);
    expect(named('Receipts')?.file?.originalName).toBe('taxi.pdf');
    expect(named('ID proof')?.files?.map((x) => x.originalName)).toEqual(['passport.pdf']);
  });

  it('keeps none of more files than the question takes: the page says so at the question, nothing stored', async () => {
    for (const withProof of [true, false]) {
      const f = await filesForm(withProof ? 'Too many' : 'Too many, one question', 3, withProof);
      const receipts = idOf(f, 'Receipts');
      const html = await filesStep(f);
      const parts: Part[] = ['a', 'b', 'c', 'd'].map((n) => [receipts, file(`${n}.pdf`)]);
      const res = await postOnly([...hiddenOf(html), ...parts, ['website', '']], f, actionOf(html));
      const back = await follow(res);
      expect(back.statusCode, `${withProof} ${back.body.slice(0, 300)}`).toBe(200);
      expect(errorAt(back.body, receipts), String(withProof)).toBe('Choose at most 3 files');
      expect(back.body).toContain('Choose the files again');
      expect(await countOf(f)).toBe(0);
      expect(await unclaimedOf(f)).toBe(0);
    }
    // A question of one file given two.
    const one = await filesForm('One receipt', 1, false);
    const html = await filesStep(one);
    const id = idOf(one, 'Receipts');
    const back = await follow(
      await postOnly(
        [...hiddenOf(html), [id, file('a.pdf')], [id, file('b.pdf')], ['website', '']],
        one,
        actionOf(html),
      ),
    );
    expect(errorAt(back.body, id)).toBe('Choose one file');
    expect(back.body).toContain('Choose the file again');
    expect(inputOf(back.body, id)).not.toMatch(/ multiple[\s>=]/);
    expect(await countOf(one)).toBe(0);
  });

  it('keeps the files chosen on a page across Next and Back, listed, and stores them with the last page', async () => {
    const f = await pagedForm('Paged', 3);
    const id = idOf(f, 'Receipts');
    const first = (await page(f)).body;
    expect(inputOf(first, id)).toMatch(/ multiple[\s>=]/);
    const contact = await press(f, first, [
      [id, file('taxi.pdf')],
      [id, file('hotel.pdf')],
    ]);
    expect(contact).toContain(`name="${idOf(f, 'Email')}"`);
    // Back shows the files kept, and the page posted again with no file chosen (an empty input) keeps them.
    const again = await press(f, contact, [[idOf(f, 'Email'), 'asha@example.com']], 'back');
    expect(again).toContain(
      'Kept: <span dir="auto">taxi.pdf, hotel.pdf</span>. Choose files only to replace them.',
    );
    const last = await press(f, again, [[id, file('', Buffer.alloc(0))]]);
    expect(last).toContain('value="asha@example.com"');
    expect(await countOf(f)).toBe(0);
    expect(await press(f, last, [[idOf(f, 'Email'), 'asha@example.com']])).toContain(
      'Submitted successfully',
    );
    expect(await filesOf(f)).toEqual(['taxi.pdf', 'hotel.pdf']);
    expect(await unclaimedOf(f)).toBe(0);
  });

  it('keeps the first files of too many on a page, saying so, and replaces all kept files with those chosen again', async () => {
    const f = await pagedForm('Paged again', 2);
    const id = idOf(f, 'Receipts');
    const tooMany = await press(f, (await page(f)).body, [
      [id, file('a.pdf')],
      [id, file('b.pdf')],
      [id, file('c.pdf')],
    ]);
    expect(errorAt(tooMany, id)).toBe('Choose at most 2 files');
    expect(tooMany).toContain('Kept: <span dir="auto">a.pdf, b.pdf</span>');
    expect(tooMany).not.toContain(`name="${idOf(f, 'Email')}"`);
    const next = await press(f, tooMany, [[id, file('d.pdf')]]);
    const back = await press(f, next, [], 'back');
    expect(back).toContain('Kept: <span dir="auto">d.pdf</span>');
    const replaced = await press(f, back, [
      [id, file('e.pdf')],
      [id, file('f.pdf')],
    ]);
    expect(await press(f, replaced, [[idOf(f, 'Email'), 'ravi@example.com']])).toContain(
      'Submitted successfully',
    );
    expect(await filesOf(f)).toEqual(['e.pdf', 'f.pdf']);
    // Only the files stored are kept: those refused or replaced went.
    expect(await unclaimedOf(f)).toBe(0);
  });

  it('reads a draft kept before a question took several files: one file by question', async () => {
    const f = await pagedForm('Old drafts', 1);
    const id = idOf(f, 'Receipts');
    expect(inputOf((await page(f)).body, id)).not.toMatch(/ multiple[\s>=]/);
    const contact = await press(f, (await page(f)).body, [[id, file('passport.pdf')]]);
    // The drafts rewritten as the server kept them before: { [question]: file } rather than a list.
    const toOldShape = async () => {
      await t.app.db.query(
        `update no_script_drafts set files = coalesce(
           (select jsonb_object_agg(key, value -> 0) from jsonb_each(files)), '{}'::jsonb)
         where form_id = $1`,
        [f._id],
      );
      const rows = await t.app.db.query<{ files: Record<string, unknown> }>(
        'select files from no_script_drafts where form_id = $1',
        [f._id],
      );
      expect(rows.some((r) => typeof r.files[id] === 'object' && !Array.isArray(r.files[id]))).toBe(true);
    };
    await toOldShape();
    const back = await press(f, contact, [], 'back');
    expect(back).toContain('Kept: <span dir="auto">passport.pdf</span>. Choose a file only to replace it.');
    const last = await press(f, back, []);
    await toOldShape();
    expect(await press(f, last, [[idOf(f, 'Email'), 'mei@example.com']])).toContain('Submitted successfully');
    expect(await filesOf(f)).toEqual(['passport.pdf']);
    expect(await unclaimedOf(f)).toBe(0);
  });
});
