// Next and Back on the page without JavaScript (between a form's steps or its pages) keep a draft each (ADR 024):
// they have a per-address limit of their own, apart from submissions, so a stranger posting moves cannot fill the
// database with drafts.
import { describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../../../runtime/config.ts';
import { fullAnswers, setUpHtmlForm, t, tokenIn } from './test-fixture.ts';

const STEPS = 3;
const { countOf, makeForm, page, post, postOnly } = setUpHtmlForm({
  rateLimits: { ...DEFAULT_RATE_LIMITS, pageStepsPerIp: { max: STEPS, windowMs: 60 * 60_000 } },
});

const drafts = async () =>
  (await t.app.db.query<{ n: number }>('select count(*)::int as n from no_script_drafts'))[0]?.n;

describe('Next and Back without JavaScript', () => {
  it('keep drafts up to the address limit, then answer 429 with a page saying how long to wait, keeping no more', async () => {
    const f = await makeForm('Stepping');
    const token = tokenIn((await page(f)).body);
    const firstStep = fullAnswers(f, token).slice(0, -2);
    for (let i = 0; i < STEPS; i++) {
      const move = await postOnly(firstStep, f, i % 2 === 0 ? '?go=files' : '?go=answers');
      expect(move.statusCode).toBe(303);
    }
    const kept = await drafts();
    const refused = await postOnly(firstStep, f, '?go=files');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.body).toMatch(/send your answers again/);
    expect(await drafts()).toBe(kept);
    // Next and Back between the pages of a form with page breaks are moves too, under the same limit.
    for (const move of ['?go=next&page=start', '?go=back&page=start']) {
      expect((await postOnly(firstStep, f, move)).statusCode).toBe(429);
    }
    // The submit has its own limit: the customer can still send the form.
    const sent = await post(fullAnswers(f, token), f);
    expect(sent.statusCode).toBe(200);
    expect(await countOf(f)).toBe(1);
  });
});
