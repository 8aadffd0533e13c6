import type { Browser, BrowserContext } from 'playwright-core';
import type { RunningServer } from './server.ts';

export type TestOwner = { email: string; password: string; fullName: string; id: string; token: string };

/** Signs up through the API, opens the verification link from the captured mail, logs in. */
export async function createOwner(
  server: Pick<RunningServer, 'url' | 'mail'>,
  fullName = 'Asha Rao',
): Promise<TestOwner> {
  const email = `owner.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'a good password';
  const post = (path: string, body: object) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const since = server.mail.mails.length;
  const signUp = await post('/api/v1/signUp', { fullName, email, password, confirmPassword: password });
  if (signUp.status !== 203) throw new Error(`sign-up failed: ${signUp.status}`);
  const link = /https?:\/\/\S+verifyEmail\?token=[\w-]+/.exec(
    (await server.mail.waitFor(email, { since })).text,
  )?.[0];
  if (!link) throw new Error('no verification link');
  await fetch(link, { redirect: 'manual' });
  const login = await post('/api/v1/login', { email, password });
  if (login.status !== 201) throw new Error(`login failed: ${login.status}`);
  const { id, token } = (await login.json()) as { id: string; token: string };
  return { email, password, fullName, id, token };
}

/** Puts the owner's session where the web app keeps it (its local storage keys), before any page loads. */
export async function signInBrowser(context: BrowserContext, owner: TestOwner): Promise<void> {
  await context.addInitScript((o) => {
    if (localStorage.getItem('easyId')) return;
    localStorage.setItem('easyId', o.id);
    localStorage.setItem('id', o.id);
    localStorage.setItem('token', o.token);
    localStorage.setItem('myProfile', JSON.stringify({ fullName: o.fullName, email: o.email }));
  }, owner);
}

/** A browser context of its own, signed in as `owner`, at this viewport. */
export async function ownerContext(
  browser: Browser,
  owner: TestOwner,
  viewport: { width: number; height: number },
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport });
  await signInBrowser(context, owner);
  return context;
}
