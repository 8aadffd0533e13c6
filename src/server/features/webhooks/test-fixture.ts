// What the webhook tests share: a form to respond to, and for the route suites an app that may post to a receiver on
// 127.0.0.1 and retries fast, a form hooked to it, and the owner's calls to the webhook's routes. The receivers and
// the signature check are test support of their own (testing/webhook-receiver.ts).
import { afterAll, beforeAll, expect } from 'vitest';
import { fieldsOf, type Form } from '#common/forms.ts';
import type { WebhookDelivery, WebhookView } from '#common/webhooks.ts';
import { eventually } from '../../testing/eventually.ts';
import { ownerRequests, type Bearer, type OwnerRequests } from '../../testing/owner-requests.ts';
import { createForm, setUpTestApp, signUpOwner, type TestApp } from '../../testing/test-app.ts';
import { NO_RATE_LIMITS } from '../../testing/test-population.ts';
import { startHoldingReceiver, startReceiver } from '../../testing/webhook-receiver.ts';

export { eventually };
export { startHoldingReceiver, startReceiver, verify } from '../../testing/webhook-receiver.ts';

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

export async function formWithName(t: TestApp, token: string, title: string): Promise<Form> {
  const form = await createForm(t, token, { formTitle: title });
  const res = await ownerRequests(t)(token).post(`/api/text/${form._id}`, {
    id: 1,
    name: 'Name',
    type: 'text',
    required: true,
  });
  return res.json<Form>();
}

export async function respond(t: TestApp, form: Form, name: string): Promise<string> {
  const nameId = fieldsOf(form).find((f) => f.name === 'Name')?._id ?? 'Name';
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/forms/${form.ownerIdAsStructureId}`,
    payload: {
      formStructureId: form._id,
      textObject: { [nameId]: name },
      selectedValues: {},
      fileObject: {},
    },
  });
  if (res.statusCode !== 200) throw new Error(`submit failed: ${res.statusCode} ${res.body}`);
  return res.json<{ _id: string }>()._id;
}

export async function addHook(t: TestApp, token: string, formId: string, url: string) {
  return ownerRequests(t)(token).post(`/api/formWebhooks/${formId}`, { url });
}

export async function listHooks(t: TestApp, token: string, formId: string): Promise<WebhookView[]> {
  const res = await ownerRequests(t)(token).get(`/api/formWebhooks/${formId}`);
  expect(res.statusCode).toBe(200);
  return res.json<{ webhooks: WebhookView[] }>().webhooks;
}

/** A form with a Name question and a webhook to the receiver: the owner's token, the form, the webhook and secret. */
export async function hooked(t: TestApp, url: string, title = 'Hooked') {
  const owner = await signUpOwner(t);
  const form = await formWithName(t, owner.token, title);
  const added = await addHook(t, owner.token, form._id, url);
  expect(added.statusCode).toBe(201);
  const { id, secret } = added.json<{ id: string; secret: string }>();
  return { token: owner.token, form, webhookId: id, secret, base: `/api/formWebhooks/${form._id}/${id}` };
}

export const post = (t: TestApp, token: string, url: string) => ownerRequests(t)(token).post(url);

export async function latestDelivery(
  t: TestApp,
  token: string,
  formId: string,
): Promise<WebhookDelivery | undefined> {
  return (await listHooks(t, token, formId))[0]?.deliveries[0];
}

/** Waits until the hook's latest delivery is in `wanted` (a status, or any test of it), and returns it. */
export async function latestOnce(
  t: TestApp,
  hook: { token: string; form: Form },
  wanted: WebhookDelivery['status'] | ((delivery: WebhookDelivery) => boolean),
): Promise<WebhookDelivery | undefined> {
  const test = typeof wanted === 'string' ? (d: WebhookDelivery) => d.status === wanted : wanted;
  await eventually(async () => {
    const delivery = await latestDelivery(t, hook.token, hook.form._id);
    return delivery !== undefined && test(delivery);
  });
  return latestDelivery(t, hook.token, hook.form._id);
}

/** The app and the receiver, started before the file's tests (use them in a test or a later hook) and closed after. */
export function setUpWebhookRoutes(): { t: TestApp; receiver: Receiver; as: (who: Bearer) => OwnerRequests } {
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
    as: ownerRequests(t),
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

export type HoldingReceiver = Awaited<ReturnType<typeof startHoldingReceiver>>;

/**
 * A holding receiver (testing/webhook-receiver.ts) started before the enclosing tests and closed after them, with
 * whatever it still holds answered first. Use it in a test or a later hook.
 */
export function setUpHoldingReceiver(): HoldingReceiver {
  let started: HoldingReceiver | undefined;
  beforeAll(async () => {
    started = await startHoldingReceiver();
  });
  afterAll(async () => {
    started?.release();
    await started?.close();
  });
  const running = () => {
    if (!started) throw new Error('the receiver starts in beforeAll: use it in a test or a later hook');
    return started;
  };
  return {
    get url() {
      return running().url;
    },
    get names() {
      return running().names;
    },
    get plan() {
      return running().plan;
    },
    release: () => running().release(),
    close: () => running().close(),
  };
}
