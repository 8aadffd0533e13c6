import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '#common/accounts.ts';
import { passwordsHashed } from '../../http/crypto.ts';
import { bearer, ownerRequests } from '../../testing/owner-requests.ts';
import { setUpTestApp, signUpOwner, TEST_ENGINE, uniqueEmail } from '../../testing/test-app.ts';

const t = setUpTestApp();
const as = ownerRequests(() => t);

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers });

const otpIn = (text: string) => {
  const match = /\b(\d{6})\b/.exec(text);
  if (!match?.[1]) throw new Error(`no code in: ${text}`);
  return match[1];
};

describe(`passwords on ${TEST_ENGINE}`, () => {
  describe('POST /api/v1/sendOtp and POST /api/v1/updatePassword', () => {
    async function requestCode(email: string) {
      const since = t.mail.mails.length;
      const res = await post('/api/v1/sendOtp', { email });
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe(ACCOUNT_MESSAGES.otpSent);
      return otpIn((await t.mail.waitFor(email, { since })).text);
    }
    const reset = (email: string, otp: string, password = 'a brand new password') =>
      post('/api/v1/updatePassword', { email, otp, password, confirmPassword: password });

    it('resets the password with the mailed code and revokes every session', async () => {
      const owner = await signUpOwner(t);
      const code = await requestCode(owner.email);
      const res = await reset(owner.email, code);
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe(ACCOUNT_MESSAGES.passwordUpdated);
      const old = await as(owner).get(`/api/v1/${owner.id}`);
      expect(old.statusCode).toBe(401);
      expect((await post('/api/v1/login', { email: owner.email, password: owner.password })).statusCode).toBe(
        405,
      );
      const login = await post('/api/v1/login', { email: owner.email, password: 'a brand new password' });
      expect(login.statusCode).toBe(201);
      expect((await reset(owner.email, code, 'yet another password')).statusCode).toBe(400);
    });

    it('answers 200 for an unknown email and mails nothing', async () => {
      const email = uniqueEmail('nobody');
      expect((await post('/api/v1/sendOtp', { email })).statusCode).toBe(200);
      await t.app.mailer.flush();
      expect(t.mail.mails.some((m) => m.to.includes(email))).toBe(false);
    });

    it('answers 400 for a wrong or expired code and leaves the password unchanged', async () => {
      const owner = await signUpOwner(t);
      const code = await requestCode(owner.email);
      const wrongCode = code === '000000' ? '111111' : '000000';
      const wrong = await reset(owner.email, wrongCode);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error.code).toBe('CODE_INVALID');
      await t.app.db.query(
        `update password_reset_codes set expires_at = now() - interval '1 second' where account_id = $1`,
        [owner.id],
      );
      expect((await reset(owner.email, code)).statusCode).toBe(400);
      expect((await post('/api/v1/login', { email: owner.email, password: owner.password })).statusCode).toBe(
        201,
      );
    });

    it('hashes no password for a wrong code or an unknown address, only for the right code', async () => {
      const owner = await signUpOwner(t);
      const code = await requestCode(owner.email);
      const wrongCode = code === '000000' ? '111111' : '000000';
      const before = passwordsHashed();
      expect((await reset(owner.email, wrongCode)).statusCode).toBe(400);
      expect((await reset(uniqueEmail(), code)).statusCode).toBe(400);
      expect(passwordsHashed()).toBe(before);
      expect((await reset(owner.email, code)).statusCode).toBe(200);
      expect(passwordsHashed()).toBe(before + 1);
    });

    it('kills the code after 5 wrong tries', async () => {
      const owner = await signUpOwner(t);
      const code = await requestCode(owner.email);
      const wrongCode = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) expect((await reset(owner.email, wrongCode)).statusCode).toBe(400);
      expect((await reset(owner.email, code)).statusCode).toBe(400);
    });

    it('counts a wrong guess against every live code, so two live codes give a guesser no more tries', async () => {
      const owner = await signUpOwner(t);
      const first = await requestCode(owner.email);
      const second = await requestCode(owner.email);
      const wrong = ['000000', '111111', '222222', '333333', '444444', '555555', '666666'];
      const guesses = wrong.filter((c) => c !== first && c !== second).slice(0, 5);
      for (const guess of guesses) expect((await reset(owner.email, guess)).statusCode).toBe(400);
      expect((await reset(owner.email, first)).statusCode).toBe(400);
      expect((await reset(owner.email, second)).statusCode).toBe(400);
    });

    it('answers 400 naming the field for a short or mismatched password, and for a malformed code', async () => {
      const owner = await signUpOwner(t);
      const code = await requestCode(owner.email);
      const short = await reset(owner.email, code, 'short');
      expect(short.json().error.message).toBe('password: Password must be at least 8 characters');
      const mismatch = await post('/api/v1/updatePassword', {
        email: owner.email,
        otp: code,
        password: 'a brand new password',
        confirmPassword: 'different password',
      });
      expect(mismatch.json().error.message).toBe('confirmPassword: Passwords do not match');
      const malformed = await reset(owner.email, '12ab');
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().error.message).toMatch(/^otp: /);
      // None of those used up the code.
      expect((await reset(owner.email, code)).statusCode).toBe(200);
    });
  });

  describe('PUT /api/v1/profile and POST /api/v1/changePassword', () => {
    it('renames the account', async () => {
      const owner = await signUpOwner(t);
      const res = await as(owner).put('/api/v1/profile', { fullName: '  Asha R.  ' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ fullName: 'Asha R.', email: owner.email });
      expect((await as(owner).get(`/api/v1/${owner.id}`)).json().fullName).toBe('Asha R.');
      const blank = await as(owner).put('/api/v1/profile', { fullName: ' ' });
      expect(blank.json().error.message).toBe('fullName: Enter your name');
      expect(
        (await t.app.inject({ method: 'PUT', url: '/api/v1/profile', payload: { fullName: 'X' } }))
          .statusCode,
      ).toBe(401);
    });

    it('changes the password with the current one, keeping this session and ending the others', async () => {
      const owner = await signUpOwner(t);
      const other = (await post('/api/v1/login', { email: owner.email, password: owner.password })).json()
        .token;
      const headers = bearer(owner);
      const wrong = await post(
        '/api/v1/changePassword',
        { currentPassword: 'nope nope', password: 'new password 1', confirmPassword: 'new password 1' },
        headers,
      );
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error.message).toBe('currentPassword: Your current password is not right');
      const res = await post(
        '/api/v1/changePassword',
        { currentPassword: owner.password, password: 'new password 1', confirmPassword: 'new password 1' },
        headers,
      );
      expect(res.statusCode).toBe(200);
      expect((await as(owner).get(`/api/v1/${owner.id}`)).statusCode).toBe(200);
      const otherSession = await as(other).get(`/api/v1/${owner.id}`);
      expect(otherSession.statusCode).toBe(401);
      expect(
        (await post('/api/v1/login', { email: owner.email, password: 'new password 1' })).statusCode,
      ).toBe(201);
    });

    it('lets one of two racing changes win: the other is refused, and the winner stays signed in', async () => {
      const owner = await signUpOwner(t);
      const second = (await post('/api/v1/login', { email: owner.email, password: owner.password })).json()
        .token as string;
      const change = (token: string, password: string) =>
        post(
          '/api/v1/changePassword',
          { currentPassword: owner.password, password, confirmPassword: password },
          bearer(token),
        );
      const answers = await Promise.all([
        change(owner.token, 'first new password'),
        change(second, 'second new password'),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
      const winner = answers[0]?.statusCode === 200 ? 0 : 1;
      const loser = answers[1 - winner];
      expect(loser?.json().error.message).toBe('currentPassword: Your current password is not right');
      const [token, password] =
        winner === 0 ? [owner.token, 'first new password'] : [second, 'second new password'];
      const [lostPassword] = winner === 0 ? ['second new password'] : ['first new password'];
      const login = (p: string) => post('/api/v1/login', { email: owner.email, password: p });
      expect((await login(password)).statusCode).toBe(201);
      expect((await login(lostPassword)).statusCode).not.toBe(201);
      const me = await as(token).get(`/api/v1/${owner.id}`);
      expect(me.statusCode).toBe(200);
    });
  });
});
