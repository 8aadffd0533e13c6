import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  appJson,
  CAPTIVE_PORTAL,
  NGINX,
  proxyTestServer,
  type ProxyAnswer,
} from '../../api/proxy-test-server.ts';
import { fakePageClock, settled, until } from '../../test-clock.ts';
import { entry, queueTestHooks } from '../offline/queue-fixtures.ts';
import { putLocalFile, putQueued, readLocalFile, readQueued } from '../offline/queue-store.ts';
import { sendQueued } from '../offline/send-queued.ts';
import { CustomerApp } from '../page/customer-app.tsx';
import { loadScreen } from '../page/customer-screens.ts';
import { KEYS } from '../storage/fill-storage.ts';
import { testForm } from '../test-form.ts';

/**
 * The customer's page behind a reverse proxy (nginx) or a captive portal: what the customer reads when the answer
 * to their submit is not Easy Form's JSON, from a real HTTP server that answers as those do. The page's retries wait
 * on its own clock, which the tests move on (test-clock.ts), never while a request is on its way.
 */

const form = testForm({
  textField: [{ _id: 't1', name: 'Full name', type: 'text', required: true }],
  fieldOrder: [{ _id: 't1', kind: 'text' }],
});
const OWNER = '0b0e5c9a-7d5e-4c1e-8a57-6d0f1d2e3f40';

queueTestHooks();
// What the page loads only when a submit fails is loaded first: its loading takes real time, which the tests would
// otherwise hurry the page's clock through.
beforeAll(() => Promise.all([import('../offline/page-queue.ts'), import('../../api/failure-words.ts')]));
beforeEach(fakePageClock);
afterEach(() => void vi.useRealTimers());

/** What the proxy answers the submit with; the form itself is Easy Form's. */
let submitAnswer: ProxyAnswer = NGINX[413] as ProxyAnswer;
const proxy = proxyTestServer(({ url }) =>
  url.startsWith('/api/forms/') || url.startsWith('/api/profile') ? submitAnswer : appJson(200, form),
);

async function fillAndSubmit(answer: ProxyAnswer) {
  submitAnswer = answer;
  proxy.route();
  const data = Object.assign(document.createElement('script'), { type: 'application/json', id: 'fill-form' });
  data.textContent = JSON.stringify(form);
  document.body.append(data);
  history.replaceState(null, '', `/customer/${form._id}/${OWNER}`);
  const first = await loadScreen(location.pathname);
  if (!first) throw new Error('no screen for the customer link');
  render(<CustomerApp first={first} />);
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  await user.type(screen.getByLabelText(/Full name/), 'Priya');
  await user.click(screen.getByRole('button', { name: 'Submit' }));
}

/** The page's clock moves on a retry delay's worth at most at a time, and not while a request is on its way. */
const hurry = { busy: () => proxy.busy(), stepMs: 250 };

const savedAnswers = () =>
  (JSON.parse(localStorage.getItem(KEYS.draft) ?? '{}') as { values?: unknown }).values;

describe('the customer page behind a proxy that answers for Easy Form', () => {
  it('says the answers are too large for the server when nginx refuses them with its 413 page, keeping them', async () => {
    await fillAndSubmit(NGINX[413] as ProxyAnswer);
    const alert = await screen.findByText(
      'Your answers are too large for the server to accept. Shorten the longest ones and try again.',
    );
    expect(alert).toBeVisible();
    expect(screen.queryByText(/Request failed/)).toBeNull();
    expect(screen.getByLabelText(/Full name/)).toHaveValue('Priya');
    expect(savedAnswers()).toEqual({ t1: 'Priya' });
  });

  it('words any other page of the proxy plainly, with the status at the end for support', async () => {
    await fillAndSubmit(NGINX[400] as ProxyAnswer);
    expect(
      await screen.findByText(
        'Something on the way to Easy Form stopped this. Try again; if it keeps happening, tell whoever runs this site (error 400).',
      ),
    ).toBeVisible();
    expect(screen.queryByText(/Request failed|<html>|Bad Request/)).toBeNull();
  });

  // The app restarting behind nginx (502), or a captive portal's sign-in page (or JSON of its own) where our JSON
  // should be (200): the answers did not get in. They wait on the device, as with no connection, and go once Easy Form answers again.
  it.each([
    ['nginx answers 502 while the app restarts', NGINX[502] as ProxyAnswer],
    ['a captive portal answers 200 with its sign-in page', CAPTIVE_PORTAL],
    ['a captive portal answers 200 with JSON that is not ours', appJson(200, {})],
  ])('keeps the answers and sends them once Easy Form answers again, when %s', async (_, answer) => {
    await fillAndSubmit(answer);
    expect(
      await until(() => screen.getByRole('heading', { name: 'Waiting for Easy Form' }), 15_000, hurry),
    ).toBeVisible();
    expect(
      screen.getByText(
        'Saved on this device — Easy Form is not answering right now; it will be sent as soon as it does.',
      ),
    ).toBeVisible();
    expect(screen.queryByText(/Submited success Fully|Request failed/)).toBeNull();

    const tries = proxy.seen.filter((r) => r.url.startsWith('/api/forms/')).length;
    submitAnswer = appJson(200, { _id: 'submission-1' });
    expect(await until(() => screen.getByText(/was sent/), 15_000, hurry)).toBeVisible();
    const sent = proxy.seen.filter((r) => r.url.startsWith('/api/forms/')).slice(tries);
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]?.body ?? '{}')).toMatchObject({ textObject: { t1: 'Priya' } });
  });
});

/** A queued submission whose file (question f1) is still kept on the device. */
async function queueWithKeptFile() {
  await putLocalFile({ id: 'passport', blob: new Blob(['%PDF-1.4']), fileName: 'passport.pdf' });
  const kept = { name: 'Passport', deleteId: 'local:passport', originalName: 'passport.pdf' };
  const queued = entry({ fileObject: { f1: kept } });
  await putQueued(queued);
  return queued;
}

describe('the device queue sending through a proxy that answers for Easy Form', () => {
  it('refuses a queued submission nginx finds too large with the same words as the page, and keeps a 502 queued', async () => {
    proxy.route();
    const queued = entry();
    await putQueued(queued);
    submitAnswer = NGINX[502] as ProxyAnswer;
    expect((await settled(sendQueued(queued.key), 60_000, hurry)).entry?.state).toBe('queued');
    submitAnswer = NGINX[413] as ProxyAnswer;
    await settled(sendQueued(queued.key), 60_000, hurry);
    expect((await readQueued(queued.key))?.refusal).toMatchObject({
      status: 413,
      message: 'Your answers are too large for the server to accept. Shorten the longest ones and try again.',
    });
  });

  // A portal's `{}` where the submission's `_id` or the upload's answer should be: taken as sent, the customer would
  // be thanked for answers that never got in, and the submission would name a file "undefined".
  it('keeps a queued submission and its file on the device when the answer is JSON that is not ours', async () => {
    proxy.route();
    const queued = await queueWithKeptFile();
    submitAnswer = appJson(200, { ok: true });
    expect((await settled(sendQueued(queued.key), 60_000, hurry)).entry).toMatchObject({
      state: 'queued',
      body: queued.body,
    });
    expect(await readLocalFile('passport')).toMatchObject({ fileName: 'passport.pdf' });

    const withoutFile = entry();
    await putQueued(withoutFile);
    submitAnswer = appJson(201, { submissionId: 'not-ours' });
    expect((await settled(sendQueued(withoutFile.key), 60_000, hurry)).entry).toMatchObject({
      state: 'queued',
      body: withoutFile.body,
    });
  });

  it('refuses a file kept on the device that nginx finds too large at its question, in words about the file', async () => {
    proxy.route();
    const queued = await queueWithKeptFile();
    submitAnswer = NGINX[413] as ProxyAnswer;
    await settled(sendQueued(queued.key), 60_000, hurry);
    expect((await readQueued(queued.key))?.refusal).toMatchObject({
      status: 413,
      fieldId: 'f1',
      message: 'This file is too large for the server to accept. Choose a smaller one.',
    });
  });
});
