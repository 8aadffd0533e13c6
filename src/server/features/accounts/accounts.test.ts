import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '#common/accounts.ts';
import { bearer, ownerRequests } from '../../testing/owner-requests.ts';
import {
  setUpTestApp,
  signUpOwner,
  TEST_ENGINE,
  uniqueEmail,
  verificationLinkIn,
} from '../../testing/test-app.ts';

const t = setUpTestApp();
const as = ownerRequests(() => t);

/** A POST with a JSON body, or with a raw string body as the headers' content-type says. */
const post = (url: string, payload: object | string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers });

const signUpBody = (email: string, password = 'a good password') => ({
  fullName: 'Meera Nair',
  email,
  password,
  confirmPassword: password,
});

describe(`accounts API on ${TEST_ENGINE}`, () => {
  describe('GET /api/health', () => {
    it('answers ok with the engine in use and each check named', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true, db: TEST_ENGINE, database: 'ok', storage: 'ok', disk: 'ok' });
    });
  });

  describe('POST /api/v1/signUp', () => {
    it('answers 203 with the profile and mails a verification link valid 24 hours', async () => {
      const email = uniqueEmail();
      const since = t.mail.mails.length;
      const res = await post('/api/v1/signUp', signUpBody(email.toUpperCase()));
      expect(res.statusCode).toBe(203);
      expect(res.json()).toEqual({ data: { fullName: 'Meera Nair', email } });
      const mail = await t.mail.waitFor(email, { since });
      expect(verificationLinkIn(mail.text)).toMatch(/^http:\/\/easyform\.test\/api\/v1\/verifyEmail\?token=/);
      expect(mail.text).toContain('24 hours');
    });

    it('answers 409 when the email is already registered, in any letter case', async () => {
      const email = uniqueEmail();
      expect((await post('/api/v1/signUp', signUpBody(email))).statusCode).toBe(203);
      const again = await post('/api/v1/signUp', signUpBody(email.toUpperCase()));
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe('EMAIL_TAKEN');
    });

    it('answers 400 naming password when it is shorter than 8 characters', async () => {
      const res = await post('/api/v1/signUp', signUpBody(uniqueEmail(), 'short'));
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({
        code: 'VALIDATION_FAILED',
        message: 'password: Password must be at least 8 characters',
      });
    });

    it('answers 400 naming confirmPassword when the passwords differ', async () => {
      const res = await post('/api/v1/signUp', {
        ...signUpBody(uniqueEmail()),
        confirmPassword: 'something else',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe('confirmPassword: Passwords do not match');
    });

    it('answers 400 naming the field for a bad email or a missing name', async () => {
      const badEmail = await post('/api/v1/signUp', signUpBody('not-an-email'));
      expect(badEmail.json().error.message).toBe('email: Enter a valid email address');
      const { fullName: _omit, ...noName } = signUpBody(uniqueEmail());
      const missing = await post('/api/v1/signUp', noName);
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.message).toMatch(/^fullName: /);
    });

    it('answers 400 for malformed JSON, 415 for a non-JSON body and 413 for an oversized one', async () => {
      const malformed = await post('/api/v1/signUp', '{"email": ', { 'content-type': 'application/json' });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().error.code).toBe('MALFORMED_JSON');
      const text = await post('/api/v1/signUp', 'hello', { 'content-type': 'text/plain' });
      expect(text.statusCode).toBe(415);
      const huge = await post('/api/v1/signUp', {
        ...signUpBody(uniqueEmail()),
        fullName: 'x'.repeat(200_000),
      });
      expect(huge.statusCode).toBe(413);
      expect(huge.json().error.code).toBe('PAYLOAD_TOO_LARGE');
    });
  });

  describe('GET /api/v1/verifyEmail', () => {
    async function signUpAndGetLink(email: string) {
      const since = t.mail.mails.length;
      await post('/api/v1/signUp', signUpBody(email));
      const link = new URL(verificationLinkIn((await t.mail.waitFor(email, { since })).text));
      return link.pathname + link.search;
    }

    it('verifies the email and redirects to /emailVerified; a second use lands on the used-link page', async () => {
      const email = uniqueEmail();
      const link = await signUpAndGetLink(email);
      expect((await post('/api/v1/login', { email, password: 'a good password' })).statusCode).toBe(406);
      const first = await t.app.inject({ method: 'GET', url: link });
      expect(first.statusCode).toBe(303);
      expect(first.headers.location).toBe('/emailVerified');
      expect((await post('/api/v1/login', { email, password: 'a good password' })).statusCode).toBe(201);
      const second = await t.app.inject({ method: 'GET', url: link });
      expect(second.headers.location).toBe('/emailVerify?reason=used');
    });

    it('sends an expired link to the page that offers a new one', async () => {
      const email = uniqueEmail();
      const link = await signUpAndGetLink(email);
      await t.app.db.query(
        `update email_verifications set expires_at = now() - interval '1 minute'
          where account_id = (select id from accounts where email = $1)`,
        [email],
      );
      const res = await t.app.inject({ method: 'GET', url: link });
      expect(res.headers.location).toBe('/emailVerify?reason=expired');
      expect((await post('/api/v1/login', { email, password: 'a good password' })).statusCode).toBe(406);
    });

    it('treats an unknown or missing token as invalid', async () => {
      const unknown = await t.app.inject({ method: 'GET', url: '/api/v1/verifyEmail?token=nope' });
      expect(unknown.headers.location).toBe('/emailVerify?reason=invalid');
      const missing = await t.app.inject({ method: 'GET', url: '/api/v1/verifyEmail' });
      expect(missing.headers.location).toBe('/emailVerify?reason=invalid');
    });
  });

  describe('POST /api/v1/resendVerification', () => {
    it('mails a new link that works while the old one no longer does', async () => {
      const email = uniqueEmail();
      let since = t.mail.mails.length;
      await post('/api/v1/signUp', signUpBody(email));
      const oldLink = new URL(verificationLinkIn((await t.mail.waitFor(email, { since })).text));
      since = t.mail.mails.length;
      const res = await post('/api/v1/resendVerification', { email });
      expect(res.statusCode).toBe(200);
      const newLink = new URL(verificationLinkIn((await t.mail.waitFor(email, { since })).text));
      expect(
        (await t.app.inject({ method: 'GET', url: oldLink.pathname + oldLink.search })).headers.location,
      ).toBe('/emailVerify?reason=invalid');
      expect(
        (await t.app.inject({ method: 'GET', url: newLink.pathname + newLink.search })).headers.location,
      ).toBe('/emailVerified');
    });

    it('answers the same for an unknown address and mails nothing', async () => {
      const email = uniqueEmail('nobody');
      const res = await post('/api/v1/resendVerification', { email });
      expect(res.statusCode).toBe(200);
      await t.app.mailer.flush();
      expect(t.mail.mails.some((m) => m.to.includes(email))).toBe(false);
    });
  });

  describe('POST /api/v1/login', () => {
    it('answers 201 with a token and the account id', async () => {
      const owner = await signUpOwner(t);
      const res = await post('/api/v1/login', { email: owner.email, password: owner.password });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ token: expect.stringMatching(/^[\w-]{43}$/), id: owner.id });
    });

    it('answers 404, 405 and 406 with the login failure messages', async () => {
      const unknown = await post('/api/v1/login', { email: uniqueEmail('ghost'), password: 'whatever123' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.message).toBe(ACCOUNT_MESSAGES.emailNotFound);

      const owner = await signUpOwner(t);
      const wrong = await post('/api/v1/login', { email: owner.email, password: 'not the password' });
      expect(wrong.statusCode).toBe(405);
      expect(wrong.json().error.message).toBe(ACCOUNT_MESSAGES.passwordInvalid);

      const email = uniqueEmail();
      await post('/api/v1/signUp', signUpBody(email));
      const unverified = await post('/api/v1/login', { email, password: 'a good password' });
      expect(unverified.statusCode).toBe(406);
      expect(unverified.json().error.message).toBe(ACCOUNT_MESSAGES.emailNotVerified);
    });

    it('answers 400 when the password is missing', async () => {
      const res = await post('/api/v1/login', { email: uniqueEmail() });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(/^password: /);
    });
  });

  describe('GET /api/v1/:id', () => {
    it("returns the caller's own profile with a Bearer or a bare token", async () => {
      const owner = await signUpOwner(t, { fullName: 'Kiran Shah' });
      for (const authorization of [`Bearer ${owner.token}`, owner.token]) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/v1/${owner.id}`,
          headers: { authorization },
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ fullName: 'Kiran Shah', email: owner.email });
      }
    });

    it('answers 401 without a token or with a made-up one', async () => {
      const owner = await signUpOwner(t);
      expect((await t.app.inject({ method: 'GET', url: `/api/v1/${owner.id}` })).statusCode).toBe(401);
      const fake = await as('A'.repeat(43)).get(`/api/v1/${owner.id}`);
      expect(fake.statusCode).toBe(401);
      expect(fake.json().error.code).toBe('UNAUTHORIZED');
    });

    it('answers 400 for an id that is not an account id', async () => {
      const owner = await signUpOwner(t);
      const res = await as(owner).get('/api/v1/not-a-uuid');
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe('id: Not a valid account id');
    });

    it("answers 404 for another owner's id", async () => {
      const [a, b] = [await signUpOwner(t), await signUpOwner(t)];
      const res = await as(a).get(`/api/v1/${b.id}`);
      expect(res.statusCode).toBe(404);
    });
  });

  describe('POST /api/v1/logout', () => {
    it('revokes the token on the server', async () => {
      const owner = await signUpOwner(t);
      const headers = bearer(owner);
      expect((await post('/api/v1/logout', {}, headers)).statusCode).toBe(200);
      const after = await as(owner).get(`/api/v1/${owner.id}`);
      expect(after.statusCode).toBe(401);
      expect((await post('/api/v1/logout', {}, headers)).statusCode).toBe(401);
    });
  });

  describe('unknown API routes', () => {
    it('answer a JSON 404', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    });
  });
});
