// The form without JavaScript answers every post with a 303 to a page of its own address (post/redirect/get, issue 37
// item 1): Reload and Back then fetch that page and never send the answers again. The answers to fix come back from a
// draft the server keeps for a day under a key only the customer's browser has.
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import { pruneDrafts } from './drafts.ts';
import {
  as,
  countOf,
  follow,
  fullAnswers,
  idOf,
  makeForm,
  owner,
  page,
  postOnly,
  setUpHtmlForm,
  t,
  tokenIn,
  type Part,
} from './test-fixture.ts';

setUpHtmlForm();

const formPath = (f: Form) => `/customer/${f._id}/${owner.id}`;
const DRAFT = /^\/customer\/[\w-]+\/[\w-]+\/draft\/([\w-]{43})$/;
const get = (url: string) => t.app.inject({ method: 'GET', url });
/** The first step's answers of the hotel form without the name, as its Next posts them. */
const withoutName = (f: Form, token: string): Part[] =>
  fullAnswers(f, token).filter(([name]) => name !== idOf(f, 'ID proof') && name !== idOf(f, 'Name'));
const draftRows = async (f: Form) =>
  (
    await t.app.db.query<{ n: number }>(
      'select count(*)::int as n from no_script_drafts where form_id = $1',
      [f._id],
    )
  )[0]?.n;

describe('POST /customer/{fid}/{id}: post/redirect/get', () => {
  it('answers Next, Back, a submit to fix and a stored submit with a 303 to a page, never a page of the post', async () => {
    const f = await makeForm('Every post redirects');
    const token = tokenIn((await page(f)).body);

    const refused = await postOnly(withoutName(f, token), f, '?go=files');
    expect(refused.statusCode).toBe(303);
    expect(refused.headers.location).toMatch(DRAFT);
    expect(refused.body).toBe('');
    const next = await postOnly(fullAnswers(f, token).slice(0, -2), f, '?go=files');
    expect([next.statusCode, next.headers.location]).toEqual([303, expect.stringMatching(DRAFT)]);
    const back = await postOnly(fullAnswers(f, token).slice(0, -2), f, '?go=answers');
    expect([back.statusCode, back.headers.location]).toEqual([303, expect.stringMatching(DRAFT)]);
    const noFile = await postOnly(
      fullAnswers(f, token).filter(([name]) => name !== idOf(f, 'ID proof')),
      f,
    );
    expect([noFile.statusCode, noFile.headers.location]).toEqual([303, expect.stringMatching(DRAFT)]);
    // Each post has its own draft, under its own key.
    const keys = [refused, next, back, noFile].map((r) => DRAFT.exec(r.headers.location ?? '')?.[1]);
    expect(new Set(keys).size).toBe(4);

    const sent = await postOnly(fullAnswers(f, token), f);
    expect([sent.statusCode, sent.headers.location]).toEqual([303, `${formPath(f)}/sent`]);
    const thanks = await get(`${formPath(f)}/sent`);
    expect(thanks.statusCode).toBe(200);
    expect(thanks.body).toContain('Submitted successfully');
    expect(thanks.body).toContain(`href="${formPath(f)}"`);
    // Reloading the thank-you sends nothing.
    await get(`${formPath(f)}/sent`);
    expect(await countOf(f)).toBe(1);
  });

  it('draws the page to fix from its draft, as often as it is reloaded, with the typed answers and the messages', async () => {
    const f = await makeForm('Round trip');
    const token = tokenIn((await page(f)).body);
    const refused = await postOnly(withoutName(f, token), f, '?go=files');
    for (const shown of [await follow(refused), await follow(refused)]) {
      expect(shown.statusCode).toBe(200);
      // Never kept by the browser: Back fetches it again.
      expect(shown.headers['cache-control']).toBe('no-store');
      expect(shown.body).toContain('Step 1 of 2 · Your answers');
      expect(shown.body).toContain('One answer needs your attention');
      expect(shown.body).toContain('This question is required');
      expect(shown.body).toContain('value="priya@example.com"');
      expect(shown.body).toContain('<option value="Double" dir="auto" selected>');
      expect(shown.body).toMatch(/<input[^>]*value="Veg" checked>/);
      expect(shown.body).toMatch(/<input[^>]*value="Parking" checked>/);
      // The page's token, so that sending it twice stores one response; it posts to the form's address.
      expect(tokenIn(shown.body)).toBe(token);
      expect(shown.body).toContain(`action="${formPath(f)}?go=files"`);
      expect(shown.body).not.toContain('<script type="module"');
    }
    // The database keeps a digest of the key, not the key the address carries.
    const key = DRAFT.exec(refused.headers.location ?? '')?.[1] ?? '';
    const ids = await t.app.db.query<{ id: string }>('select id from no_script_drafts where form_id = $1', [
      f._id,
    ]);
    expect(ids.map((r) => r.id)).not.toContain(key);
    expect(await countOf(f)).toBe(0);
  });

  it('forgets the page once its answers are stored: its drafts draw the empty form, never the answers to send again', async () => {
    const f = await makeForm('After the thanks');
    const token = tokenIn((await page(f)).body);
    const refused = await postOnly(withoutName(f, token), f, '?go=files');
    const files = await postOnly(fullAnswers(f, token).slice(0, -2), f, '?go=files');
    expect(await draftRows(f)).toBe(2);
    await postOnly(fullAnswers(f, token), f);
    expect(await draftRows(f)).toBe(0);
    for (const res of [refused, files]) {
      const back = await get(res.headers.location ?? '');
      expect([back.statusCode, back.headers.location]).toEqual([303, formPath(f)]);
    }
    const empty = await get(formPath(f));
    expect(empty.body).not.toContain('priya@example.com');
    expect(tokenIn(empty.body)).not.toBe(token);
    expect(await countOf(f)).toBe(1);
  });

  it("draws the empty form for a draft a day old, another form's, or a made-up key, and the sweep deletes old ones", async () => {
    const f = await makeForm('Old drafts');
    const other = await makeForm('Another form');
    const token = tokenIn((await page(f)).body);
    const refused = await postOnly(withoutName(f, token), f, '?go=files');
    const key = DRAFT.exec(refused.headers.location ?? '')?.[1] ?? '';
    for (const url of [
      `${formPath(other)}/draft/${key}`,
      `${formPath(f)}/draft/${'A'.repeat(43)}`,
      `${formPath(f)}/draft/not-a-key`,
      `${formPath(f)}/draft/${'x'.repeat(500)}`,
      `${formPath(f)}/draft/%E2%80%AE`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(303);
      expect(res.headers.location, url).toMatch(/^\/customer\/[\w-]+\/[\w-]+$/);
      expect(res.body, url).not.toContain('priya@example.com');
    }
    expect((await get(`/customer/${randomId()}/${owner.id}/draft/${key}`)).statusCode).toBe(404);
    expect((await get(`/customer/not-a-form/${owner.id}/sent`)).statusCode).toBe(404);

    await t.app.db.query(
      `update no_script_drafts set created_at = now() - interval '25 hours' where form_id = $1`,
      [f._id],
    );
    const old = await get(refused.headers.location ?? '');
    expect([old.statusCode, old.headers.location]).toEqual([303, formPath(f)]);
    const fresh = await postOnly(withoutName(other, tokenIn((await page(other)).body)), other, '?go=files');
    expect(await pruneDrafts(t.app.db)).toBeGreaterThanOrEqual(1);
    expect(await draftRows(f)).toBe(0);
    // A draft younger than a day stays.
    expect((await follow(fresh)).body).toContain('One answer needs your attention');
  });

  it("keeps only the form's own answers in a draft, and draws a closed form's draft as the closed form", async () => {
    const f = await makeForm('Bounded');
    const token = tokenIn((await page(f)).body);
    await postOnly([...withoutName(f, token), ['something-else', 'x'.repeat(5000)]], f, '?go=files');
    const [row] = await t.app.db.query<{ answers: Record<string, string[]> }>(
      'select answers from no_script_drafts where form_id = $1',
      [f._id],
    );
    expect(Object.keys(row?.answers ?? {})).not.toContain('something-else');
    expect(Object.keys(row?.answers ?? {})).not.toContain('website');
    expect(Object.keys(row?.answers ?? {})).not.toContain('token');

    const refused = await postOnly(withoutName(f, token), f, '?go=files');
    await as(owner).put(`/api/updateFormEntry/${f._id}`, { acceptingResponses: false });
    const closed = await follow(refused);
    expect(closed.statusCode).toBe(200);
    expect(closed.body).toContain('Bounded');
    expect(closed.body).not.toContain('priya@example.com');
  });
});

const randomId = () => '0b7e2a4c-1d3f-4a5b-9c6d-7e8f9a0b1c2d';
