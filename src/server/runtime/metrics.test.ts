import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldsOf } from '#common/forms.ts';
import { ownerRequests } from '../testing/owner-requests.ts';
import { createForm, createTestApp, signUpOwner, TEST_ENGINE, type TestApp } from '../testing/test-app.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';
let t: TestApp;
const as = ownerRequests(() => t);
beforeAll(async () => {
  t = await createTestApp({ metricsToken: TOKEN });
});
afterAll(() => t?.close());

const scrape = async () => {
  const res = await as(TOKEN).get('/metrics');
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.body;
};

/** The value of one sample line, e.g. `easyform_submissions_total{outcome="accepted"}`; 0 when absent. */
const sample = (text: string, name: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : 0;
};

describe(`GET /metrics on ${TEST_ENGINE}`, () => {
  it('answers only the bearer of METRICS_TOKEN, and is not there at all without one', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, TOKEN]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.body).not.toContain('easyform_');
    }
    const without = await createTestApp();
    try {
      const res = await ownerRequests(without)(TOKEN).get('/metrics');
      expect(res.statusCode).toBe(404);
    } finally {
      await without.close();
    }
  });

  it('counts requests by route, submissions accepted and refused, and shows the queues and the process', async () => {
    const owner = await signUpOwner(t);
    const form = await createForm(t, owner.token, { formTitle: 'Counted' });
    const withName = await as(owner).post(`/api/text/${form._id}`, {
      id: 1,
      name: 'Name',
      type: 'text',
      required: true,
    });
    const nameId = fieldsOf(withName.json()).find((f) => f.name === 'Name')?._id ?? '';
    const before = await scrape();
    const submit = (name: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/forms/${owner.id}`,
        payload: {
          formStructureId: form._id,
          textObject: { [nameId]: name },
          selectedValues: {},
          fileObject: {},
        },
      });
    expect((await submit('Asha')).statusCode).toBe(200);
    expect((await submit('Ravi')).statusCode).toBe(200);
    expect((await submit('')).statusCode).toBe(400);
    const after = await scrape();

    const accepted = 'easyform_submissions_total{outcome="accepted"}';
    const refused = 'easyform_submissions_total{outcome="refused"}';
    expect(sample(after, accepted) - sample(before, accepted)).toBe(2);
    expect(sample(after, refused) - sample(before, refused)).toBe(1);
    const byRoute = 'easyform_http_requests_total{method="POST",route="/api/forms/:ownerId",status="200"}';
    expect(sample(after, byRoute) - sample(before, byRoute)).toBe(2);
    expect(after).toMatch(
      /easyform_http_request_duration_seconds_bucket\{le="0\.005",method="POST",route="\/api\/forms\/:ownerId"\}/,
    );
    // The new form notifies its owner: the notifier's events and the outbox are queues like any other.
    expect(after).toMatch(/easyform_jobs\{queue="mail",state="pending"\} \d+/);
    expect(after).toMatch(/easyform_jobs\{queue="webhooks",state="failed"\} 0/);
    expect(after).toMatch(/easyform_nodejs_eventloop_lag_seconds \d/);
    if (TEST_ENGINE === 'postgres')
      expect(after).toMatch(/easyform_db_pool_connections\{state="total"\} [1-9]/);
    else expect(after).not.toContain('easyform_db_pool_connections{');
  });

  it('counts a queued mail as pending until it is sent', async () => {
    await t.app.db.query(`insert into mail_outbox (to_address, subject, text_body, next_attempt_at)
                          values ('later@example.com', 'Later', 'x', now() + interval '1 hour')`);
    const pending = sample(await scrape(), 'easyform_jobs{queue="mail",state="pending"}');
    expect(pending).toBeGreaterThanOrEqual(1);
    await t.app.db.query(`update mail_outbox set sent_at = now() where to_address = 'later@example.com'`);
    expect(sample(await scrape(), 'easyform_jobs{queue="mail",state="pending"}')).toBe(pending - 1);
  });
});
