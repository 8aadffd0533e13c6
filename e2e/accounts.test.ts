import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailCapture } from '../src/server/testing/mail-capture.ts';
import {
  DESKTOP,
  hasChromium,
  launchBrowser,
  newPage,
  PHONE,
  screenshot,
  watchForErrors,
} from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
let mail: MailCapture;
let browser: Browser;

// Skipped only where Chromium is missing; support/browser.ts prints why, and .ci/run installs it.
describe.skipIf(!hasChromium)(
  'an owner signs up, verifies, logs in and out, and resets a forgotten password',
  () => {
    beforeAll(async () => {
      server = await startServer();
      mail = server.mail;
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
    });

    it('works end to end on a phone', async () => {
      const email = `meera.${Date.now()}@example.com`;
      const page = await newPage(browser, PHONE);
      const errors = watchForErrors(page);

      await page.goto(server.url);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await screenshot(page, 'landing');
      await page.getByRole('link', { name: 'Create your first form' }).click();

      await page.getByLabel('Name', { exact: true }).fill('Meera Nair');
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill('first password');
      await page.getByLabel('Confirm Password', { exact: true }).fill('first password');
      await screenshot(page, 'sign-up');
      await page.getByRole('button', { name: 'Create Account' }).click();

      await page.getByRole('heading', { name: 'Check your Email' }).waitFor();
      expect(await page.getByText('Registration Successful with Meera Nair').isVisible()).toBe(true);
      expect(await page.getByText(email).isVisible()).toBe(true);
      expect(await page.getByText('valid for 24 hours').isVisible()).toBe(true);
      await screenshot(page, 'verification');

      const verification = await mail.waitFor(email);
      const link = /https?:\/\/\S+verifyEmail\?token=[\w-]+/.exec(verification.text)?.[0];
      expect(link).toBeTruthy();
      await page.goto(link ?? '');
      await page.getByRole('heading', { name: 'Your email has been verified' }).waitFor();
      await screenshot(page, 'email-verified');
      await page.getByRole('link', { name: 'Log in' }).click();

      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill('wrong password');
      await page.getByRole('button', { name: 'Log In' }).click();
      await page.getByRole('alert').getByText('Password Invalid').waitFor();
      await page.getByLabel('Password', { exact: true }).fill('first password');
      await page.getByRole('button', { name: 'Log In' }).click();
      // Logged in: the owner's create page, with the stored profile the header shows.
      await page.getByRole('heading', { name: 'Start a new form' }).waitFor();
      expect(await page.evaluate(() => localStorage.getItem('easyId'))).toBeTruthy();
      expect(await page.evaluate(() => JSON.parse(localStorage.getItem('myProfile') ?? '{}').fullName)).toBe(
        'Meera Nair',
      );
      await screenshot(page, 'create-page-after-login');

      await page.getByRole('button', { name: 'Log Out' }).click();
      await page.getByRole('link', { name: 'Create your first form' }).waitFor();
      expect(await page.evaluate(() => localStorage.length)).toBe(0);

      await page.goto(`${server.url}/login`);
      await page.getByRole('link', { name: 'Forgot Password?' }).click();
      // The login page also has an Email field: wait for the new page, or a slow machine fills the old one.
      await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
      await page.getByLabel('Email', { exact: true }).fill(email);
      const since = mail.mails.length;
      await page.getByRole('button', { name: 'Send Verification Otp' }).click();
      await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
      const code = /\b(\d{6})\b/.exec((await mail.waitFor(email, { since })).text)?.[1] ?? '';
      await page.getByLabel('One-time code', { exact: true }).fill(code);
      await page.getByLabel('New Password', { exact: true }).fill('second password');
      await page.getByLabel('Confirm Password', { exact: true }).fill('second password');
      await screenshot(page, 'update-password');
      await page.getByRole('button', { name: 'Update Password' }).click();

      await page.getByText('Log in with your new password').waitFor();
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill('second password');
      await page.getByRole('button', { name: 'Log In' }).click();
      await page.getByRole('heading', { name: 'Start a new form' }).waitFor();
      expect(errors).toEqual([]);
      await page.close();
    });

    it("keeps a stranger's guesses from locking the owner out: their browser logs in, a new one resets by link", async () => {
      const email = `ravi.${Date.now()}@example.com`;
      const post = (path: string, body: object) =>
        fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const since = mail.mails.length;
      const password = 'first password';
      const signUp = await post('/api/v1/signUp', {
        fullName: 'Ravi Iyer',
        email,
        password,
        confirmPassword: password,
      });
      expect(signUp.status).toBe(203);
      const verification = (await mail.waitFor(email, { since })).text;
      await fetch(/https?:\/\/\S+verifyEmail\?token=[\w-]+/.exec(verification)?.[0] ?? '', {
        redirect: 'manual',
      });
      const logIn = async (page: Page, withPassword: string) => {
        await page.goto(`${server.url}/login`);
        await page.getByLabel('Email', { exact: true }).fill(email);
        await page.getByLabel('Password', { exact: true }).fill(withPassword);
        await page.getByRole('button', { name: 'Log In' }).click();
      };

      const usual = await newPage(browser, PHONE);
      const errors = watchForErrors(usual);
      await logIn(usual, password);
      await usual.getByRole('heading', { name: 'Start a new form' }).waitFor();
      await usual.getByRole('button', { name: 'Log Out' }).click();
      await usual.getByRole('link', { name: 'Create your first form' }).waitFor();

      // A stranger's script guesses at the address until it answers 429.
      let status = 0;
      for (let i = 0; i < 20 && status !== 429; i++)
        status = (await post('/api/v1/login', { email, password: 'a guess' })).status;
      expect(status).toBe(429);

      // The browser the owner logged in from before still logs in with the right password.
      await logIn(usual, password);
      await usual.getByRole('heading', { name: 'Start a new form' }).waitFor();

      // A browser never used before waits, as a guesser does, and resets with the link from the mail instead.
      const fresh = await newPage(browser, PHONE);
      errors.push(...watchForErrors(fresh));
      await logIn(fresh, password);
      await fresh.getByText(/Too many attempts/).waitFor();
      await fresh.goto(`${server.url}/forgetPassword`);
      await fresh.getByLabel('Email', { exact: true }).fill(email);
      const sinceReset = mail.mails.length;
      await fresh.getByRole('button', { name: 'Send Verification Otp' }).click();
      await fresh.getByRole('heading', { name: 'Set a new password' }).waitFor();
      const resetMail = (await mail.waitFor(email, { since: sinceReset })).text;
      const link = /https?:\/\/\S+\/resetPassword#key=[\w-]+/.exec(resetMail)?.[0] ?? '';
      expect(link).toBeTruthy();
      await fresh.goto(link);
      await fresh.getByLabel('New Password', { exact: true }).fill('second password');
      await fresh.getByLabel('Confirm Password', { exact: true }).fill('second password');
      await screenshot(fresh, 'reset-password-link');
      await fresh.getByRole('button', { name: 'Update Password' }).click();
      await fresh.getByText('Log in with your new password').waitFor();
      // The reset proved the mailbox, so this browser is now recognised too.
      await logIn(fresh, 'second password');
      await fresh.getByRole('heading', { name: 'Start a new form' }).waitFor();
      expect(errors).toEqual([]);
      await usual.close();
      await fresh.close();
    });

    it('looks finished at desktop width', async () => {
      const page = await newPage(browser, DESKTOP);
      for (const [path, name] of [
        ['/', 'landing'],
        ['/login', 'login'],
        ['/signUp', 'sign-up'],
        ['/forgetPassword', 'forget-password'],
        ['/resetPassword#key=cut-short', 'reset-password-dead-link'],
        ['/emailVerify?reason=expired', 'email-verify-expired'],
        ['/notReady', 'not-ready'],
        ['/no/such/page', 'not-found'],
      ] as const) {
        await page.goto(`${server.url}${path}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await screenshot(page, name);
      }
      await page.close();
    });
  },
);
