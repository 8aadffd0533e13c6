// The access matrix (issue 10): every route the app registers that is not on the short public list below is called
// with no token, a garbage one, an expired one, one revoked by logout, one revoked by a password reset, and another
// owner's valid token against the first owner's real objects. None succeeds, and the first owner's data is unchanged.
// The route list comes from the app itself (route-table.ts), so a route added without an owner check fails here.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { jsonSchemaOf, valueFor, type Hints } from '../testing/fuzz-values.ts';
import { bearer, ownerRequests } from '../testing/owner-requests.ts';
import { createTestApp, FUZZ_SETTINGS, signUpOwner, type TestApp } from '../testing/test-app.ts';
import {
  fingerprint,
  NO_RATE_LIMITS,
  paramSetsOf,
  populateOwner,
  type Population,
} from '../testing/test-population.ts';
import { digest } from './crypto.ts';
import { routesOf, type RouteEntry } from './route-table.ts';

/** Reachable without an owner's token, on purpose. Keep it short: everything else must refuse a stranger. */
const PUBLIC_ROUTES = new Set([
  'GET /api/health',
  'GET /api/health/live',
  'GET /api/health/ready',
  'POST /api/v1/signUp',
  'GET /api/v1/verifyEmail',
  'POST /api/v1/resendVerification',
  'POST /api/v1/login',
  'POST /api/v1/sendOtp',
  'POST /api/v1/updatePassword',
  'POST /api/v1/resetPassword', // the reset mail's link, proven by its secret
  'GET /api/publicForm/:fid', // the customer's form
  'POST /api/forms/:ownerId', // the customer's submit
  'POST /api/profile', // the customer's upload (an owner's own upload checks the token inside)
  'DELETE /api/profile/:deleteId', // the uploader's delete, proven by the secret deleteId
  'GET /files/:uploadId', // signed, expiring file URLs
  'GET /metrics', // the operator's METRICS_TOKEN, not an owner's: src/server/runtime/metrics.test.ts
  'POST /customer/:fid/:ownerId', // the customer's form posted without JavaScript
  'GET /customer/:fid/:ownerId/draft/:key', // its page to fix, found by the secret key it was redirected to
  'GET /customer/:fid/:ownerId/sent', // and its thank-you page
  'GET /robots.txt',
  'GET /api/v1/site/terms', // the operator's terms, shown on the public site
  'GET /api/v1/site/privacy', // and their privacy notice
]);
// The web app's pages are served by the not-found handler, which is no route and needs no entry.

const UNRELATED_ID = '7d9c2f4e-0b1a-4c3d-8e5f-6a7b8c9d0e1f';

const isPublic = (r: RouteEntry) => PUBLIC_ROUTES.has(`${r.method === 'HEAD' ? 'GET' : r.method} ${r.url}`);

let t: TestApp;
const as = ownerRequests(() => t);
let owner: Awaited<ReturnType<typeof signUpOwner>>;
let other: Awaited<ReturnType<typeof signUpOwner>>;
let population: Population;
const badTokens: Record<string, string | null> = {};

const login = async (who: { email: string; password: string }) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/login', payload: who });
  expect(res.statusCode).toBe(201);
  return res.json<{ token: string }>().token;
};
const logout = (token: string) => as(token).post('/api/v1/logout');

beforeAll(async () => {
  t = await createTestApp({ rateLimits: NO_RATE_LIMITS });
  owner = await signUpOwner(t);
  other = await signUpOwner(t);

  // Revoked by a password reset: send code → the code from the mail → new password. Every session ends.
  badTokens['revoked by a password reset'] = owner.token;
  const since = t.mail.mails.length;
  await t.app.inject({ method: 'POST', url: '/api/v1/sendOtp', payload: { email: owner.email } });
  const code = /\b(\d{6})\b/.exec((await t.mail.waitFor(owner.email, { since })).text)?.[1];
  owner.password = 'a brand new passphrase';
  const reset = await t.app.inject({
    method: 'POST',
    url: '/api/v1/updatePassword',
    payload: { email: owner.email, otp: code, password: owner.password, confirmPassword: owner.password },
  });
  expect(reset.statusCode).toBe(200);

  const loggedOut = await login(owner);
  expect((await logout(loggedOut)).statusCode).toBe(200);
  badTokens['revoked by logout'] = loggedOut;
  const expired = await login(owner);
  await t.app.db.query("update sessions set expires_at = now() - interval '1 second' where token_hash = $1", [
    digest(expired),
  ]);
  badTokens.expired = expired;
  badTokens['no token'] = null;
  badTokens['garbage of the right shape'] = 'A'.repeat(43);
  badTokens['garbage'] = 'not-a-token';

  owner.token = await login(owner);
  population = await populateOwner(t, owner);
}, 120_000);
afterAll(() => t?.close());

/** The first owner's objects, by the param names routes use. A route with another name fails until it is added. */
function paramSets(): Record<string, string>[] {
  return paramSetsOf(
    owner.id,
    population,
    population.forms.map((f) => ({ fid: f._id })),
  );
}

const paramNames = (r: RouteEntry) => [...r.url.matchAll(/:(\w+)/g)].map((m) => m[1] ?? '');

/** Every way to fill the route's params with the first owner's real ids (one per question and option). */
function urlsFor(route: RouteEntry): string[] {
  const names = paramNames(route);
  const sets = paramSets().filter((set) => names.every((n) => n in set));
  const unknown = names.filter((n) => !paramSets().some((set) => n in set));
  if (unknown.length > 0) {
    throw new Error(
      `${route.method} ${route.url}: unknown param ${unknown.join(', ')}; add it to paramSets()`,
    );
  }
  const urls = sets.map((set) => route.url.replace(/:(\w+)/g, (_, n: string) => set[n] ?? ''));
  return [...new Set(urls.length > 0 ? urls : [route.url])];
}

/** A value the route's own zod schema accepts (refinements included), so only the owner check can refuse it. */
function validInput(schema: unknown, hints: Hints): unknown {
  const json = jsonSchemaOf(schema);
  if (!json) return undefined;
  // An empty object first: a page query of defaults reads the caller's list rather than tripping on a random cursor.
  const samples = [{}, ...fc.sample(valueFor(json, hints), { numRuns: 300, seed: 7 })];
  const found = samples.find((s) => (schema as z.ZodType).safeParse(s).success);
  if (found === undefined) throw new Error('no valid sample for a route schema; extend fuzz-values.ts');
  return found;
}

const inputs = new Map<RouteEntry, { query: Record<string, unknown> | undefined; body: unknown }>();

function requestFor(route: RouteEntry, url: string, token: string | null) {
  const { query, body } = inputs.get(route) ?? inputsFor(route);
  const search = new URLSearchParams(Object.entries(query ?? {}).map(([k, v]) => [k, String(v)])).toString();
  return {
    method: route.method as 'GET',
    url: search ? `${url}?${search}` : url,
    headers: token ? bearer(token) : {},
    ...(body === undefined ? {} : { payload: body as object }),
  };
}

function inputsFor(route: RouteEntry) {
  // Ids in bodies are the first owner's too (a question order, say), except where they could only come back as
  // the caller's own text; the upload secret tempts a stranger to claim the first owner's document.
  const hints: Hints = {
    ids: paramNames(route).length > 0 ? population.fields.map((f) => f.fieldId) : [UNRELATED_ID],
    names: ['Asha', population.profileUpload.secret],
    emails: [owner.email],
    paramSets: [],
  };
  const made = {
    query: validInput(route.schema?.querystring, hints) as Record<string, unknown> | undefined,
    body: validInput(route.schema?.body, hints),
  };
  inputs.set(route, made);
  return made;
}

describe('access matrix over every owner route of the app', () => {
  it('refuses every bad token with 401 and another owner with 404, leaving the owner’s data unchanged', async () => {
    const before = await fingerprint(t.app.db, owner.id);
    const routes = routesOf(t.app).filter((r) => !isPublic(r));
    // Logout last: it ends the other owner's session, which the other routes still need.
    routes.sort((a, b) => Number(a.url.endsWith('/logout')) - Number(b.url.endsWith('/logout')));
    expect(routes.length).toBeGreaterThan(30);
    const answers: string[] = [];
    const ownerValues = [
      owner.id,
      owner.email,
      ...population.submissionIds,
      ...population.forms.map((f) => f._id),
    ];
    for (const route of routes) {
      const urls = urlsFor(route);
      for (const [variant, token] of Object.entries(badTokens)) {
        const res = await t.app.inject(requestFor(route, urls[0] ?? route.url, token));
        answers.push(`${route.method} ${route.url} [${variant}] → ${res.statusCode}`);
        expect(res.statusCode, `${route.method} ${urls[0]} with ${variant}: ${res.body}`).toBe(401);
      }
      if (paramNames(route).length > 0) {
        // Another owner, with the first owner's real ids: every question and option, so kind checks cannot hide
        // a missing ownership check.
        for (const url of urls) {
          const res = await t.app.inject(requestFor(route, url, other.token));
          answers.push(`${route.method} ${url} [other owner] → ${res.statusCode}`);
          expect([401, 403, 404], `${route.method} ${url} as another owner: ${res.body}`).toContain(
            res.statusCode,
          );
        }
      } else {
        // The route acts on the caller's own data: it may succeed, but must show nothing of the first owner's.
        const res = await t.app.inject(requestFor(route, route.url, other.token));
        answers.push(`${route.method} ${route.url} [other owner, own data] → ${res.statusCode}`);
        expect(res.statusCode, `${route.method} ${route.url} as another owner: ${res.body}`).toBeLessThan(
          500,
        );
        for (const value of ownerValues)
          expect(res.body, `${route.method} ${route.url} leaks`).not.toContain(value);
      }
    }
    // FUZZ_STATS=1 prints what every route answered to every caller.
    if (FUZZ_SETTINGS.showStatuses) console.log(answers.join('\n'));
    expect(await fingerprint(t.app.db, owner.id)).toEqual(before);
    // The owner still reads everything: the ids above were real, so the 404s were the ownership check.
    const mine = await as(owner).get(`/api/singleFormForEdit/${population.forms[0]?._id}`);
    expect(mine.statusCode).toBe(200);
  });
});
