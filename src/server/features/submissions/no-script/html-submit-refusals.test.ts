// The form without JavaScript when a post goes wrong (docs/decisions/024): bodies refused before or while they are
// read, faults of ours, a form deleted while its file arrives. Every answer is a page, never a 500 without one, and
// nothing refused is kept. The posts that store: html-submit.test.ts.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PDF, PNG } from '../../../testing/test-files.ts';
import {
  fullAnswers,
  idOf,
  multipartOf,
  owner,
  randomUUIDLike,
  replacing,
  setUpHtmlForm,
  t,
  tokenIn,
  type Part,
} from './test-fixture.ts';

const { as, countOf, follow, makeForm, page, post, postOnly, unclaimedOf } = setUpHtmlForm();

describe('POST /customer/{fid}/{id} refused', () => {
  it('refuses bad bodies with a 4xx page or the page to fix, never a 500, storing nothing', async () => {
    const f = await makeForm('Hostile bodies');
    const token = tokenIn((await page(f)).body);
    const answers = fullAnswers(f, token);
    const cases: { name: string; send: () => ReturnType<typeof post> }[] = [
      { name: 'no fields', send: () => postOnly([], f) },
      {
        name: 'missing token',
        send: () =>
          postOnly(
            answers.filter(([n]) => n !== 'token'),
            f,
          ),
      },
      {
        name: 'huge field',
        send: () =>
          postOnly(
            [
              ['token', token],
              [idOf(f, 'Name'), 'x'.repeat(100_000)],
            ],
            f,
          ),
      },
      {
        name: '100 kB field name',
        send: () =>
          postOnly(
            [
              ['token', token],
              ['n'.repeat(100_000), 'x'],
            ],
            f,
          ),
      },
      {
        name: 'wrong file type',
        send: () =>
          postOnly(answers.map(replacing(idOf(f, 'ID proof'), { filename: 'virus.exe', content: PNG })), f),
      },
      {
        name: 'a PNG named .pdf',
        send: () =>
          postOnly(answers.map(replacing(idOf(f, 'ID proof'), { filename: 'id.pdf', content: PNG })), f),
      },
      {
        name: 'too many files',
        send: () =>
          postOnly([...answers, [idOf(f, 'ID proof'), { filename: 'second.pdf', content: PDF }]], f),
      },
      {
        name: 'malformed multipart',
        send: () =>
          t.app.inject({
            method: 'POST',
            url: `/customer/${f._id}/${owner.id}`,
            headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
            payload: '--xyz\r\nContent-Disposition: form-data; name="token"\r\n\r\nabc',
          }),
      },
      {
        name: 'not multipart',
        send: () =>
          t.app.inject({
            method: 'POST',
            url: `/customer/${f._id}/${owner.id}`,
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            payload: 'token=abc',
          }),
      },
      {
        name: 'another owner',
        send: () =>
          t.app.inject({
            method: 'POST',
            url: `/customer/${f._id}/${randomUUIDLike()}`,
            ...multipartOf(answers),
          }),
      },
    ];
    for (const { name, send } of cases) {
      // Answers to fix are the page drawn again, at the address a 303 leads to; anything else a 4xx page.
      const res = await send();
      const shown = await follow(res);
      if (res.statusCode === 303) expect(shown.body, name).toContain('your attention');
      else expect([res.statusCode >= 400, res.statusCode < 500], name).toEqual([true, true]);
      expect(shown.statusCode, name).toBeLessThan(500);
      expect(shown.body, name).toContain('<html');
    }
    expect(await countOf(f)).toBe(0);
    expect(await unclaimedOf(f)).toBe(0);
  });

  it('answers a refusal made before the form is read (a body too large, the limit per address) with a page, not JSON', async () => {
    const f = await makeForm('Refused early');
    const url = `/customer/${f._id}/${owner.id}`;
    // Its own address, so that the limit it reaches holds back no other test.
    const from = { remoteAddress: '203.0.113.77' };
    const large = await t.app.inject({
      method: 'POST',
      url,
      ...from,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${'x'.repeat(70 * 1024)}`,
    });
    expect(large.statusCode).toBe(413);
    expect(large.headers['content-type']).toMatch(/^text\/html/);
    expect(large.body).toContain('The form sent more than it asks for.');
    expect(large.body).toContain(
      `class="button button-primary button-block" href="${url}">Open the form again<`,
    );

    const token = tokenIn((await page(f)).body);
    let limited: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 200 && !limited; i++) {
      const res = await t.app.inject({ method: 'POST', url, ...from, ...multipartOf([['token', token]]) });
      if (res.statusCode === 429) limited = res;
    }
    expect(limited?.headers['content-type']).toMatch(/^text\/html/);
    expect(limited?.body).toContain('Your answers were not sent');
    expect(limited?.body).toMatch(
      /Too many responses came from this connection in a short time\. Wait (a minute|\d+ minutes), then go back/,
    );
    // Back is the way to the answers; the link opens an empty form, says so, and does not look like the way back.
    expect(limited?.body).toContain(
      `class="button button-secondary button-block" href="${url}">Open an empty form<`,
    );
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);
    // The JSON submit shares the limit, and the customer's React page shows its message as it comes.
    const json = await t.app.inject({
      method: 'POST',
      url: `/api/forms/${owner.id}`,
      ...from,
      payload: { formStructureId: f._id },
    });
    expect(json.statusCode).toBe(429);
    expect(json.json()).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: expect.stringMatching(
          /^Too many responses came from this connection in a short time\. Wait (a minute|\d+ minutes) and send your answers again\.$/,
        ) as unknown,
      },
    });
    // Another address is not held back.
    expect((await post(fullAnswers(f, token), f)).statusCode).toBe(200);
  });

  it('answers a fault of ours with a page naming its reference, and stores nothing', async () => {
    const f = await makeForm('Our fault');
    const token = tokenIn((await page(f)).body);
    // A real fault: the database refuses every new submission row until the constraint is dropped.
    await t.app.db.query('alter table submissions add constraint refuse_all check (false) not valid');
    try {
      const res = await post(fullAnswers(f, token), f);
      expect(res.statusCode).toBe(500);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('Your answers were not sent');
      expect(res.body).toMatch(
        /Something went wrong on our side\. Go back and send your answers again in a moment\. Reference: [\w-]+/,
      );
      expect(res.body).toContain(
        `class="button button-secondary button-block" href="/customer/${f._id}/${owner.id}">Open an empty form<`,
      );
    } finally {
      await t.app.db.query('alter table submissions drop constraint refuse_all');
    }
    expect(await countOf(f)).toBe(0);
    expect(await unclaimedOf(f)).toBe(0);
    // Sent again once the fault is gone: stored once.
    expect((await post(fullAnswers(f, token), f)).statusCode).toBe(200);
    expect(await countOf(f)).toBe(1);
  });

  it('answers a fault of ours while keeping a file with the reference page (a 500 logged), not "could not be read"', async () => {
    const f = await makeForm('Storage fault');
    const token = tokenIn((await page(f)).body);
    await t.app.db.query('alter table uploads add constraint refuse_all check (false) not valid');
    try {
      const res = await post(fullAnswers(f, token), f);
      expect(res.statusCode).toBe(500);
      expect(res.body).toMatch(/Something went wrong on our side\. .*Reference: [\w-]+/);
      expect(res.body).not.toContain('could not be read');
    } finally {
      await t.app.db.query('alter table uploads drop constraint refuse_all');
    }
    expect(await countOf(f)).toBe(0);
  });

  it('answers "Form not found" when the form is deleted while its file arrives, keeping nothing', async () => {
    const f = await makeForm('Deleted midway');
    const token = tokenIn((await page(f)).body);
    const big = { filename: 'passport.pdf', content: Buffer.concat([PDF, Buffer.alloc(16 * 1024, 0x20)]) };
    const parts = fullAnswers(f, token).map((p): Part => (p[0] === idOf(f, 'ID proof') ? [p[0], big] : p));
    const whole = multipartOf(parts);
    const body = new PassThrough();
    const answer = t.app.inject({
      method: 'POST',
      url: `/customer/${f._id}/${owner.id}`,
      headers: whole.headers,
      payload: body,
    });
    const midFile = whole.payload.indexOf('%PDF') + 1024;
    body.write(whole.payload.subarray(0, midFile));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const deleted = await as(owner).delete(`/api/deleteForm/${f._id}`);
    expect(deleted.statusCode).toBe(200);
    body.end(whole.payload.subarray(midFile));
    const res = await answer;
    expect(res.statusCode, res.body).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('Form not found');
    expect(await unclaimedOf(f)).toBe(0);
  });
});
