import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ownerRequests } from '../../testing/owner-requests.ts';
import { setUpTestApp, signUpOwner, TEST_ENGINE } from '../../testing/test-app.ts';

const t = setUpTestApp();
const as = ownerRequests(() => t);

const MESSAGE = 'timeZone: timeZone must be a time zone name, such as Europe/Berlin';

/** Strings that are not IANA zone names: offsets, other letter cases, made-up places, junk of any kind. */
// Random text never shaped like a name ("GMT" would be a real one).
const NAME_SHAPED = /^[A-Z][A-Za-z0-9_+/-]*$/;
const notAZoneName = fc.oneof(
  fc.string({ maxLength: 40 }).filter((s) => !NAME_SHAPED.test(s)),
  fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !NAME_SHAPED.test(s)),
  fc.constantFrom(
    '+05:30',
    '-0800',
    'europe/berlin',
    'AMERICA/NEW_YORK',
    ' UTC',
    'UTC ',
    'Mars/Olympus_Mons',
  ),
  fc
    .tuple(fc.constantFrom('Europe', 'America', 'Asia'), fc.stringMatching(/^[A-Za-z_]{1,20}$/))
    .map(([region, city]) => `${region}/${city}Xq`),
  fc.string({ minLength: 65, maxLength: 300 }),
);

describe(`the account's time zone on ${TEST_ENGINE}`, () => {
  it("is null (the browser's) until the owner picks one, and kept once picked", async () => {
    const owner = await signUpOwner(t);
    expect((await as(owner).get('/api/v1/timeZone')).json()).toEqual({ timeZone: null });
    const put = await as(owner).put('/api/v1/timeZone', { timeZone: 'America/New_York' });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ timeZone: 'America/New_York' });
    expect((await as(owner).get('/api/v1/timeZone')).json()).toEqual({ timeZone: 'America/New_York' });
    await as(owner).put('/api/v1/timeZone', { timeZone: null });
    expect((await as(owner).get('/api/v1/timeZone')).json()).toEqual({ timeZone: null });
  });

  it('takes every zone name Intl lists', async () => {
    const owner = await signUpOwner(t);
    for (const zone of [...Intl.supportedValuesOf('timeZone'), 'UTC', 'Asia/Kolkata', 'Etc/GMT+5']) {
      const res = await as(owner).put('/api/v1/timeZone', { timeZone: zone });
      expect(res.statusCode, zone).toBe(200);
    }
  });

  it('refuses what is not a zone name with a 400 that says what it wants, and keeps the zone it had', async () => {
    const owner = await signUpOwner(t);
    await as(owner).put('/api/v1/timeZone', { timeZone: 'Europe/Berlin' });
    await fc.assert(
      fc.asyncProperty(notAZoneName, async (zone) => {
        const res = await as(owner).put('/api/v1/timeZone', { timeZone: zone });
        expect(res.statusCode).toBe(400);
        // What PostgreSQL cannot store (a NUL, a lone surrogate) is refused first, naming the character.
        expect(res.json().error.message).toMatch(
          /^timeZone: (timeZone must be|contains .* which cannot be stored)/,
        );
      }),
      { numRuns: 60 },
    );
    const offset = await as(owner).put('/api/v1/timeZone', { timeZone: '+05:30' });
    expect(offset.json().error.message).toBe(MESSAGE);
    const wrongType = await as(owner).put('/api/v1/timeZone', { timeZone: 5 });
    expect(wrongType.statusCode).toBe(400);
    expect((await as(owner).get('/api/v1/timeZone')).json()).toEqual({ timeZone: 'Europe/Berlin' });
  });

  it("is the signed-in owner's own: another owner's change never reaches it, and no token changes nothing", async () => {
    const owner = await signUpOwner(t);
    const other = await signUpOwner(t);
    await as(owner).put('/api/v1/timeZone', { timeZone: 'Asia/Tokyo' });
    await as(other).put('/api/v1/timeZone', { timeZone: 'America/Chicago' });
    const anonymous = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/timeZone',
      payload: { timeZone: 'Europe/Paris' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await as(owner).get('/api/v1/timeZone')).json()).toEqual({ timeZone: 'Asia/Tokyo' });
    expect((await as(other).get('/api/v1/timeZone')).json()).toEqual({ timeZone: 'America/Chicago' });
  });
});
