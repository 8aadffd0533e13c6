// What the webhook route suites share: an app that may post to a receiver on 127.0.0.1 and retries fast, that
// receiver, a form hooked to it, and the owner's calls to the webhook's routes.
import { afterAll, beforeAll, expect } from 'vitest';
import type { WebhookDelivery } from '#common/webhooks.ts';
import { setUpTestApp, signUpOwner, type TestApp } from '../test-app.ts';
import { NO_RATE_LIMITS } from '../test-population.ts';
import { addHook, formWithName, listHooks, startReceiver, type Receiver } from './test-helpers.ts';

export const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** A form with a Name question and a webhook to the receiver: the owner's token, the form, the webhook and secret. */
export async function hooked(t: TestApp, url: string, title = 'Hooked') {
  const owner = await signUpOwner(t);
  const form = await formWithName(t, owner.token, title);
  const added = await addHook(t, owner.token, form._id, url);
  expect(added.statusCode).toBe(201);
  const { id, secret } = added.json<{ id: string; secret: string }>();
  return { token: owner.token, form, webhookId: id, secret, base: `/api/formWebhooks/${form._id}/${id}` };
}

export const post = (t: TestApp, token: string, url: string) =>
  t.app.inject({ method: 'POST', url, headers: auth(token) });

export async function latestDelivery(
  t: TestApp,
  token: string,
  formId: string,
): Promise<WebhookDelivery | undefined> {
  return (await listHooks(t, token, formId))[0]?.deliveries[0];
}

/** The app and the receiver, started before the file's tests (use them in a test or a later hook) and closed after. */
export function setUpWebhookRoutes(): { t: TestApp; receiver: Receiver } {
  const t = setUpTestApp({
    webhookAllowPrivate: true,
    webhookPollMs: 50,
    webhookBackoffMs: 50,
    rateLimits: NO_RATE_LIMITS,
  });
  let started: Receiver | undefined;
  beforeAll(async () => {
    started = await startReceiver();
  });
  afterAll(async () => {
    await started?.close();
  });
  const running = () => {
    if (!started) throw new Error('the receiver starts in beforeAll: use it in a test or a later hook');
    return started;
  };
  return {
    t,
    receiver: {
      get url() {
        return running().url;
      },
      get received() {
        return running().received;
      },
      get plan() {
        return running().plan;
      },
      close: () => running().close(),
    },
  };
}
