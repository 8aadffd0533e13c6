// Property-based fuzzing of every route the app registers (issue 10): requests generated from the route's own zod
// schemas, then mutated. Whatever arrives, the answer is never a 5xx, and a refused request (4xx) leaves every stored
// form, question, option, submission, upload, profile, account and session exactly as it was.
//
//   npm run fuzz                                               the deep run: FUZZ_RUNS=1000 (every commit: DEFAULT_RUNS)
//   FUZZ_RUNS=10000 npx vitest run src/server/http/fuzz.test.ts     deeper still
//   FUZZ_SEED=123 …                                            replay a run; the seed is printed on failure
//   FUZZ_ROUTES='PUT|POST' …                                   only routes whose "METHOD /url" matches
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldsOf } from '#common/forms.ts';
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../runtime/config.ts';
import { describeRequest, requestArb, type FuzzRequest } from '../testing/fuzz-requests.ts';
import type { Hints } from '../testing/fuzz-values.ts';
import { ownerRequests } from '../testing/owner-requests.ts';
import { createTestApp, FUZZ_SETTINGS, signUpOwner, type TestApp } from '../testing/test-app.ts';
import { fingerprint, paramSetsOf, populateOwner, writeMark } from '../testing/test-population.ts';
import { routesOf, type RouteEntry } from './route-table.ts';

const DEFAULT_RUNS = 50;
const RUNS = Number(FUZZ_SETTINGS.runs ?? DEFAULT_RUNS);
const SEED = Number(FUZZ_SETTINGS.seed ?? Math.floor(Math.random() * 2 ** 31));
const OWNER_TOKEN = '<owner token>';
const GARBAGE_TOKEN = 'A'.repeat(43);

// The fuzzer sends thousands of requests from one address; the limits are proven by their own tests.
const noRateLimits = Object.fromEntries(
  Object.entries(DEFAULT_RATE_LIMITS).map(([name, rule]) => [name, { ...rule, max: 1_000_000 }]),
) as RateLimits;

let t: TestApp;
const as = ownerRequests(() => t);
let owner: Awaited<ReturnType<typeof signUpOwner>>;
let hints: Hints;

beforeAll(async () => {
  t = await createTestApp({ rateLimits: noRateLimits });
  owner = await signUpOwner(t);
  const other = await signUpOwner(t);
  const population = await populateOwner(t, owner);
  const forms = population.forms;
  hints = {
    ids: [
      owner.id,
      other.id,
      population.profileUpload.id,
      population.webhook.id,
      ...population.submissionIds,
      ...population.fields.flatMap((f) => [f.formId, f.fieldId, ...f.optionIds]),
    ],
    names: [
      ...forms.flatMap(fieldsOf).map((f) => f.name),
      ...forms
        .flatMap((f) => [...f.selectField, ...f.radioField, ...f.checkField])
        .flatMap((f) => f.options.map((o) => o.value)),
      population.profileUpload.secret,
    ],
    emails: [owner.email, other.email, owner.email.toUpperCase(), ` ${other.email} `],
    paramSets: paramSetsOf(owner.id, population),
  };
}, 120_000);
afterAll(() => t?.close());

/** The owner's token, logged in again if a request (logout, a password change) ended the session. */
async function ensureOwnerSession(): Promise<void> {
  const me = await as(owner).get(`/api/v1/${owner.id}`);
  if (me.statusCode === 200) return;
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/v1/login',
    payload: { email: owner.email, password: owner.password },
  });
  expect(login.statusCode, 'the fuzzer lost the owner account').toBe(201);
  owner.token = login.json<{ token: string }>().token;
}

/** Reads first, then writes, then deletes, deleting whole forms last: each route meets a populated database. */
const order = (r: RouteEntry) =>
  r.url.includes('deleteForm') ? 4 : r.method === 'DELETE' ? 3 : r.method === 'GET' ? 0 : 1;

const auth = fc.oneof(
  { weight: 6, arbitrary: fc.constant(OWNER_TOKEN) },
  fc.constant(null),
  fc.constant(GARBAGE_TOKEN),
);

describe(`fuzzing every route (${RUNS} runs a route, seed ${SEED})`, () => {
  // Built at collection time from a throwaway route list would duplicate the app; the real table is read in the test.
  it(
    'covers every route of the app, each with a schema-driven property',
    { timeout: 60_000 + RUNS * 400 },
    async () => {
      const routes = routesOf(t.app)
        .filter((r) => r.method !== 'HEAD')
        .filter((r) => !FUZZ_SETTINGS.routes || new RegExp(FUZZ_SETTINGS.routes).test(`${r.method} ${r.url}`))
        .toSorted((a, b) => order(a) - order(b));
      if (!FUZZ_SETTINGS.routes) expect(routes.length).toBeGreaterThan(40);
      let before = await fingerprint(t.app.db);
      let lastMark = await writeMark(t.app.db);
      const failures: string[] = [];
      for (const route of routes) {
        const arb = requestArb(route, hints, auth).map((request) =>
          Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) }),
        );
        const statuses = new Map<number, number>();
        const property = fc.asyncProperty(arb, async (template: FuzzRequest) => {
          const request = {
            ...template,
            headers: Object.fromEntries(
              Object.entries(template.headers).map(([k, v]) => [k, v.replace(OWNER_TOKEN, owner.token)]),
            ),
          };
          const res = await t.app.inject(request);
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          const answer = `→ ${res.statusCode} ${res.body.slice(0, 300)}`;
          // Readiness answers 503 by design when a check fails (a probe that timed out on a busy machine): its answer,
          // with the failing check named, not a server error.
          const notReady =
            route.url.startsWith('/api/health') && res.statusCode === 503 && !res.json<{ ok: boolean }>().ok;
          if (res.statusCode >= 500 && !notReady)
            throw new Error(`server error\n${describeRequest(request)}\n${answer}`);
          // Nothing wrote (the usual refusal): nothing can have changed. Otherwise compare what is stored.
          const mark = await writeMark(t.app.db);
          if (mark === lastMark) return;
          if (res.statusCode >= 400) {
            const after = await fingerprint(t.app.db);
            const changed = Object.keys(after).filter((k) => after[k] !== before[k]);
            if (changed.length > 0) {
              throw new Error(
                `refused, yet ${changed.join(', ')} changed\n${describeRequest(request)}\n${answer}`,
              );
            }
          } else {
            await ensureOwnerSession();
            before = await fingerprint(t.app.db);
          }
          lastMark = await writeMark(t.app.db);
        });
        const result = await fc.check(property, { numRuns: RUNS, seed: SEED, includeErrorInReport: true });
        // FUZZ_STATS=1 shows what each route answered, to check that the generator gets past validation.
        if (FUZZ_SETTINGS.showStatuses) {
          console.log(route.method, route.url, JSON.stringify(Object.fromEntries([...statuses].sort())));
        }
        if (result.failed) {
          failures.push(`${route.method} ${route.url}: ${fc.defaultReportMessage(result) ?? 'failed'}`);
          // Printed at once too: a deep run cut short still shows what it found.
          console.error(failures.at(-1));
          // What failed may have left the data half-changed; the next route starts from what is stored now.
          before = await fingerprint(t.app.db);
          lastMark = await writeMark(t.app.db);
        }
      }
      // Every failing route at once, then how to replay the run.
      expect(
        failures,
        `Replay: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} npx vitest run src/server/http/fuzz.test.ts`,
      ).toEqual([]);
    },
  );
});
