// A form with page breaks without JavaScript goes one page at a time (issue 38, item 5): the server draws the pages
// that apply to the answers so far, Next checks a page and Back keeps it, the file chosen on a page is kept to the end,
// and Submit stores the answers of the questions that apply, once. Each page is posted as a browser posts it: its
// hidden fields, what the customer typed or chose, to the address its form or button names.
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import type { Submission } from '#common/submissions.ts';
import { PDF } from '../../../testing/test-files.ts';
import { LAST_PAGE, NOT_A_PAGE, PAGES_LOST } from './paged.ts';
import {
  actionOf,
  hiddenOf,
  idOf,
  owner,
  queryOf,
  setUpHtmlForm,
  t,
  tokenIn,
  unescapeHtml,
  type Part,
} from './test-fixture.ts';

const { as, countOf, follow, makeForm, page, postOnly, unclaimedOf } = setUpHtmlForm();

/** Page 1 asks whether a room is needed; page 2, only for those who do, nights and an ID; page 3, an e-mail. */
async function threePages(title: string): Promise<Form> {
  const f = await makeForm(title, [
    { id: 3, name: 'Do you need a room?', options: [{ value: 'Yes' }, { value: 'No' }], required: true },
    { id: 1, name: 'How many nights?', type: 'text', required: true },
    { id: 5, name: 'ID proof', required: true },
    { id: 1, name: 'Email', type: 'email', required: true },
  ]);
  const [stay, nights, proof, email] = f.items;
  const condition = { question: stay?._id, op: 'is', value: 'Yes' };
  const items = [
    stay,
    { kind: 'page', _id: 'room', title: 'Your room', condition },
    nights,
    proof,
    { kind: 'page', _id: 'contact', title: 'Contact' },
    email,
  ];
  const res = await as(owner).put(`/api/v1/form/${f._id}/items`, { items, version: f.version });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Form>();
}

const backOf = (html: string) => queryOf(/formaction="([^"]+)"/.exec(html)?.[1]);
/** The step line, and the page's title under the form's when it has one: "Page 2 of 3 · Your room". */
const stepOf = (html: string) =>
  [
    /<p class="fill-step">([^<]*)<\/p>/.exec(html)?.[1],
    /<h2 class="fill-page-title" dir="auto">([^<]*)<\/h2>/.exec(html)?.[1],
  ]
    .filter(Boolean)
    .join(' · ') || undefined;
const buttonsOf = (html: string) =>
  [
    ...(/<div class="fill-bar-actions">(.*?)<\/div>/.exec(html)?.[1] ?? '').matchAll(/>([^<]+)<\/button>/g),
  ].map((m) => m[1]);

/** The customer on a page (its HTML) presses its primary button or Back, having answered `answers`. */
async function press(f: Form, html: string, answers: Part[], button: 'primary' | 'back' = 'primary') {
  const query = button === 'back' ? backOf(html) : actionOf(html);
  const res = await postOnly([...hiddenOf(html), ...answers, ['website', '']], f, query);
  return (await follow(res)).body;
}

/** The ids the form gave its page breaks: its room page and its contact page. */
const pageIds = (f: Form) => {
  const [room, contact] = f.items.filter((i) => i.kind === 'page').map((i) => i._id);
  return { room: room ?? '', contact: contact ?? '' };
};
/** The page's form, without the data embedded for the script that takes over. */
const formIn = (html: string) => /<form class="fill-form".*<\/form>/s.exec(html)?.[0] ?? '';

const proofFile = () => ({ filename: 'passport.pdf', content: PDF });

/** The one stored response of `f`: its answers as the owner reads them, and the pages it went through. */
async function stored(f: Form) {
  const list = await as(owner).get(`/api/formSubmissions/${f._id}`);
  const items = list.json<{ items: { _id: string }[] }>().items;
  expect(items).toHaveLength(1);
  const one = (await as(owner).get(`/api/forms/${items[0]?._id}`)).json<Submission>();
  const [row] = await t.app.db.query<{ path: string[] }>('select path from submissions where form_id = $1', [
    f._id,
  ]);
  return { ...one, path: row?.path };
}

describe('a form with page breaks, without JavaScript', () => {
  it('goes through the three pages when a room is needed, keeping the file of page 2 to one stored response', async () => {
    const f = await threePages('Room branch');
    const first = (await page(f)).body;
    // The room page does not apply until the first answer says so.
    expect(stepOf(first)).toBe('Page 1 of 2');
    expect(formIn(first)).toContain('Do you need a room?');
    expect(formIn(first)).not.toContain('How many nights?');
    expect(buttonsOf(first)).toEqual(['Next']);

    const room = await press(f, first, [[idOf(f, 'Do you need a room?'), 'Yes']]);
    expect(stepOf(room)).toBe('Page 2 of 3 · Your room');
    expect(room).not.toContain('Do you need a room?');
    expect(buttonsOf(room)).toEqual(['Back', 'Next']);

    // A page's own questions are checked as the submit checks them, and the file chosen stays with the draft.
    const refused = await press(f, room, [
      [idOf(f, 'How many nights?'), ''],
      [idOf(f, 'ID proof'), proofFile()],
    ]);
    expect(stepOf(refused)).toBe('Page 2 of 3 · Your room');
    expect(refused).toContain('One answer needs your attention');
    expect(refused).toContain('Kept: <span dir="auto">passport.pdf</span>');

    const contact = await press(f, refused, [[idOf(f, 'How many nights?'), '2']]);
    expect(stepOf(contact)).toBe('Page 3 of 3 · Contact');
    expect(buttonsOf(contact)).toEqual(['Back', 'Submit']);
    expect(await countOf(f)).toBe(0);

    const answers: Part[] = [[idOf(f, 'Email'), 'asha@example.com']];
    const sent = await press(f, contact, answers);
    expect(sent).toContain('Submitted successfully');
    // The same page sent again (a double click) stores nothing more.
    expect(await press(f, contact, answers)).toContain('Submitted successfully');
    const one = await stored(f);
    expect(one.path).toEqual(['start', pageIds(f).room, pageIds(f).contact]);
    expect(one.textObject).toEqual({ 'How many nights?': '2', Email: 'asha@example.com' });
    expect(one.fileObject['ID proof']?.originalName).toBe('passport.pdf');
    expect(await unclaimedOf(f)).toBe(0);
  });

  it('skips the room page when none is needed, never asking its required questions', async () => {
    const f = await threePages('No room branch');
    const contact = await press(f, (await page(f)).body, [[idOf(f, 'Do you need a room?'), 'No']]);
    expect(stepOf(contact)).toBe('Page 2 of 2 · Contact');
    expect(contact).not.toContain('How many nights?');
    expect(contact).not.toContain('ID proof');
    expect(await press(f, contact, [[idOf(f, 'Email'), 'ben@example.com']])).toContain(
      'Submitted successfully',
    );
    const one = await stored(f);
    expect(one.path).toEqual(['start', pageIds(f).contact]);
    expect(one.selectedRadio).toEqual({ 'Do you need a room?': 'No' });
  });

  it('goes Back with every answer kept, and leaves out what stopped applying when an earlier answer changed', async () => {
    const f = await threePages('Change of plan');
    const room = await press(f, (await page(f)).body, [[idOf(f, 'Do you need a room?'), 'Yes']]);
    const contact = await press(f, room, [
      [idOf(f, 'How many nights?'), '3'],
      [idOf(f, 'ID proof'), proofFile()],
    ]);
    // Back from the last page keeps what was typed there too.
    const roomAgain = await press(f, contact, [[idOf(f, 'Email'), 'cy@example.com']], 'back');
    expect(stepOf(roomAgain)).toBe('Page 2 of 3 · Your room');
    expect(roomAgain).toContain('value="3"');
    expect(roomAgain).toContain('Kept: <span dir="auto">passport.pdf</span>');
    const firstAgain = await press(f, roomAgain, [], 'back');
    expect(stepOf(firstAgain)).toBe('Page 1 of 3');
    expect(firstAgain).toMatch(/value="Yes" checked/);
    expect(buttonsOf(firstAgain)).toEqual(['Next']);

    const last = await press(f, firstAgain, [[idOf(f, 'Do you need a room?'), 'No']]);
    expect(stepOf(last)).toBe('Page 2 of 2 · Contact');
    expect(last).toContain('value="cy@example.com"');
    expect(await press(f, last, [[idOf(f, 'Email'), 'cy@example.com']])).toContain('Submitted successfully');
    const one = await stored(f);
    expect(one.path).toEqual(['start', pageIds(f).contact]);
    expect(one.textObject).toEqual({ Email: 'cy@example.com' });
    expect(one.fileObject).toEqual({});
    // The file of the page no longer shown is not kept for nothing.
    expect(await unclaimedOf(f)).toBe(0);
  });

  it('answers a page that is not the form’s, or one whose earlier answers are gone, with a page saying so', async () => {
    const f = await threePages('Lost pages');
    const first = (await page(f)).body;
    const token = tokenIn(first);
    const room = await press(f, first, [[idOf(f, 'Do you need a room?'), 'Yes']]);
    const ids = pageIds(f);
    const cases: [string, Part[], string][] = [
      ['?go=next&page=elsewhere', [['token', token]], NOT_A_PAGE],
      // The room page applies only after the first page's answer, which no draft holds here.
      [`?go=next&page=${ids.room}`, [['token', token]], NOT_A_PAGE],
      [`?go=next&page=${ids.contact}`, [['token', token]], PAGES_LOST],
      [
        `?page=${ids.contact}`,
        [
          ['token', token],
          ['draft', 'x'.repeat(43)],
        ],
        PAGES_LOST,
      ],
      [`?go=back&page=${ids.room}`, [['token', 'another-token'], ...hiddenOf(room).slice(1)], PAGES_LOST],
    ];
    for (const [query, parts, message] of cases) {
      const res = await postOnly([...parts, [idOf(f, 'Email'), 'x@example.com']], f, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(unescapeHtml(res.body), query).toContain(message);
    }
    expect(await countOf(f)).toBe(0);
  });

  it('keeps the customer on a page while one of its answers needs fixing, storing nothing', async () => {
    const f = await threePages('Last by answer');
    const first = (await page(f)).body;
    // Next with no answer to the branching question: checked, and the customer stays to answer it.
    const again = await press(f, first, []);
    expect(stepOf(again)).toBe('Page 1 of 2');
    expect(again).toContain('One answer needs your attention');
    expect(await countOf(f)).toBe(0);
  });

  it('follows the answers of the page posted, not those it was drawn with, when they change which page is last', async () => {
    const f = await makeForm('Guest or not', [
      { id: 3, name: 'Bringing a guest?', options: [{ value: 'Yes' }, { value: 'No' }] },
      { id: 1, name: 'Guest name', type: 'text', required: true },
    ]);
    const [guest, name] = f.items;
    const condition = { question: guest?._id, op: 'is', value: 'Yes' };
    const items = [guest, { kind: 'page', _id: 'guest', title: 'Your guest', condition }, name];
    const res = await as(owner).put(`/api/v1/form/${f._id}/items`, { items, version: f.version });
    const paged = res.json<Form>();
    // Drawn as the only page, with Submit; sent with a yes, it goes on to the guest's page and stores nothing.
    const first = (await page(paged)).body;
    expect(buttonsOf(first)).toEqual(['Submit']);
    const guestPage = await press(paged, first, [[idOf(paged, 'Bringing a guest?'), 'Yes']]);
    expect(stepOf(guestPage)).toBe('Page 2 of 2 · Your guest');
    expect(await countOf(paged)).toBe(0);
    // Back, then Next with a no: no page follows, so the page comes again with Submit and says why.
    const back = await press(paged, guestPage, [], 'back');
    expect(buttonsOf(back)).toEqual(['Next']);
    const last = await press(paged, back, [[idOf(paged, 'Bringing a guest?'), 'No']]);
    expect(stepOf(last)).toBe('Page 1 of 1');
    expect(buttonsOf(last)).toEqual(['Submit']);
    expect(unescapeHtml(last)).toContain(LAST_PAGE);
    expect(await countOf(paged)).toBe(0);
  });
});
