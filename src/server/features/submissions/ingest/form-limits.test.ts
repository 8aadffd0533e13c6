import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NO_SETTINGS, type FormSettingsBody } from '#common/form-settings.ts';
import type { Form } from '#common/forms.ts';
import { ownerRequests } from '../../../testing/owner-requests.ts';
import { TEST_ENGINE } from '../../../testing/test-app.ts';
import { multipart, PDF } from '../../../testing/test-files.ts';
import type { SubmissionDeps } from '../deps.ts';
import { idOf, owner, setUpSubmissions, t } from '../test-fixture.ts';
import { storeAccepted, type Accepted } from './store.ts';
const as = ownerRequests(() => t);

const { buildForm, countOf, validBody } = setUpSubmissions();

const NONE: FormSettingsBody = NO_SETTINGS;
const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

async function setSettings(f: Form, settings: Partial<FormSettingsBody>) {
  const res = await as(owner).put(`/api/formSettings/${f._id}`, { ...NONE, ...settings });
  expect(res.statusCode, res.body).toBe(200);
}

/** A form with one text question and no files: the smallest a customer can submit. */
async function smallForm(): Promise<Form> {
  const created = await as(owner).post('/api/v1/length', {});
  const id = created.json<Form>()._id;
  const added = await as(owner).post(`/api/text/${id}`, { id: 1, name: 'Name', type: 'text' });
  return added.json<Form>();
}
const answer = (f: Form, name = 'Priya') => ({
  formStructureId: f._id,
  textObject: { [idOf(f, 'Name')]: name },
});
let client = 0;
/** Each customer from their own address, so the per-address submission limit never answers instead of the form's. */
const submit = (body: unknown, headers: Record<string, string> = {}) => {
  client += 1;
  return t.app.inject({
    method: 'POST',
    url: `/api/forms/${owner.id}`,
    payload: body as object,
    headers,
    remoteAddress: `10.12.${Math.floor(client / 250) % 250}.${(client % 250) + 1}`,
  });
};
const publicForm = (f: Form) => t.app.inject({ method: 'GET', url: `/api/publicForm/${f._id}` });

describe(`form limits and schedules on ${TEST_ENGINE}`, () => {
  describe('a response limit', () => {
    it('a limit of 10 with 50 concurrent submits accepts exactly 10; the rest get 410 with the closed message', async () => {
      const f = await smallForm();
      await setSettings(f, { responseLimit: 10, closedMessage: 'Thanks, we have all the answers we need.' });
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          submit(answer(f, `Customer ${i}`), { 'idempotency-key': `limit-${i}-key` }),
        ),
      );
      const statuses = answers.map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.filter((s) => s === 410)).toHaveLength(40);
      expect(answers.find((r) => r.statusCode === 410)?.json()).toEqual({
        error: { code: 'FORM_CLOSED', message: 'Thanks, we have all the answers we need.' },
      });
      expect(await countOf(f)).toBe(10);

      const closed = await publicForm(f);
      expect(closed.statusCode).toBe(410);
      expect(closed.json().error.message).toBe('Thanks, we have all the answers we need.');
      // A retry of a stored submission still answers its first id after the form filled up.
      const first = answers.findIndex((r) => r.statusCode === 200);
      const retry = await submit(answer(f, `Customer ${first}`), {
        'idempotency-key': `limit-${first}-key`,
      });
      expect(retry.statusCode).toBe(200);
      expect(retry.json()).toEqual(answers[first]?.json());
      expect(await countOf(f)).toBe(10);
    });

    it('holds across batches written at once: 200 concurrent submits (more than three batches) store exactly 10', async () => {
      const f = await smallForm();
      await setSettings(f, { responseLimit: 10 });
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) => submit(answer(f, `Guest ${i}`))),
      );
      expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(10);
      expect(answers.filter((r) => r.statusCode === 410)).toHaveLength(190);
      expect(await countOf(f)).toBe(10);
    });

    it('holds when two writers store batches at the same moment (each in its own transaction)', async () => {
      const f = await smallForm();
      await setSettings(f, { responseLimit: 10 });
      const row = (): Accepted => ({
        index: 0,
        uploadIds: [],
        row: {
          id: randomUUID(),
          formId: f._id,
          ownerId: owner.id,
          formTitle: f.formTitle,
          description: f.description,
          color: f.color,
          border: f.border,
          answers: [],
          contact: '',
          idempotencyKey: null,
          formVersion: null,
        },
      });
      const batch = () => Array.from({ length: 8 }, (_, index) => ({ ...row(), index }));
      const deps = {
        db: t.app.db,
        timeZone: t.app.config.formTimezone,
        files: { claim: async () => 0 },
      } as unknown as SubmissionDeps;
      const limited = new Set([f._id]);
      const [a, b] = await Promise.all([
        storeAccepted(deps, batch(), limited),
        storeAccepted(deps, batch(), limited),
      ]);
      expect((a?.inserted.size ?? 0) + (b?.inserted.size ?? 0)).toBe(10);
      expect((a?.full.size ?? 0) + (b?.full.size ?? 0)).toBe(6);
      expect(await countOf(f)).toBe(10);
    });

    it('opens again when the owner raises the limit, and uploads follow the same rule', async () => {
      const f = await buildForm(owner.token);
      await setSettings(f, { responseLimit: 1 });
      expect((await submit(await validBody(f))).statusCode).toBe(200);
      const upload = () =>
        t.app.inject({ method: 'POST', url: `/api/profile?formId=${f._id}`, ...multipart('id.pdf', PDF) });
      const refused = await upload();
      expect(refused.statusCode).toBe(410);
      expect(refused.json().error.message).toBe('This form is no longer accepting responses');
      await setSettings(f, { responseLimit: 2 });
      expect((await upload()).statusCode).toBe(200);
      expect((await publicForm(f)).statusCode).toBe(200);
    });
  });

  describe('opening and closing times', () => {
    it('a form that opens in a minute says when it opens and takes nothing yet', async () => {
      const f = await smallForm();
      await setSettings(f, { opensAt: minutesFromNow(1), closedMessage: 'Not this one' });
      const res = await publicForm(f);
      expect(res.statusCode).toBe(410);
      expect(res.json().error.code).toBe('FORM_CLOSED');
      expect(res.json().error.message).toMatch(/^This form is not open yet\. It opens on \d+\/\d+\/\d{4}, /);
      const sent = await submit(answer(f));
      expect(sent.statusCode).toBe(410);
      expect(sent.json().error.message).toMatch(/^This form is not open yet/);
    });

    it('a form that opened a minute ago and closes in a minute takes responses', async () => {
      const f = await smallForm();
      await setSettings(f, { opensAt: minutesFromNow(-1), closesAt: minutesFromNow(1) });
      expect((await publicForm(f)).statusCode).toBe(200);
      expect((await submit(answer(f))).statusCode).toBe(200);
    });

    it('a form that closed a minute ago refuses with the owner’s closed message, on its page too', async () => {
      const f = await smallForm();
      expect((await submit(answer(f))).statusCode).toBe(200); // cached by the writer while open
      await setSettings(f, { closesAt: minutesFromNow(-1), closedMessage: 'Registration ended on Friday.' });
      const res = await publicForm(f);
      expect(res.statusCode).toBe(410);
      expect(res.json()).toEqual({
        error: { code: 'FORM_CLOSED', message: 'Registration ended on Friday.' },
      });
      const sent = await submit(answer(f));
      expect(sent.statusCode).toBe(410);
      expect(sent.json().error.message).toBe('Registration ended on Friday.');
    });
  });

  describe('GET /api/publicForm/:fid', () => {
    it('carries the thank-you message and redirect URL, and never the limits', async () => {
      const f = await smallForm();
      expect((await publicForm(f)).json()).toMatchObject({ thankYouMessage: null, redirectUrl: null });
      await setSettings(f, {
        responseLimit: 5,
        closedMessage: 'secret-ish',
        thankYouMessage: 'We will call you within a day.',
        redirectUrl: 'https://example.com/next?step=2',
      });
      const body = (await publicForm(f)).json();
      expect(body).toMatchObject({
        thankYouMessage: 'We will call you within a day.',
        redirectUrl: 'https://example.com/next?step=2',
      });
      expect(body).not.toHaveProperty('settings');
      expect(body).not.toHaveProperty('responseCount');
      expect(JSON.stringify(body)).not.toContain('secret-ish');
    });
  });
});
