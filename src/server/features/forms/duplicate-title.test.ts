import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import { bearer } from '../../testing/owner-requests.ts';
import { createTestApp, signUpOwner, TEST_ENGINE, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let headers: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  headers = bearer((await signUpOwner(t)).token);
});
afterAll(async () => {
  await t?.close();
});

describe(`POST /api/duplicateForm/:fid on ${TEST_ENGINE}`, () => {
  it('shortens a long emoji title for the copy without splitting an emoji', async () => {
    // 'Copy of a' is 9 UTF-16 units, so a cut at 200 units would land inside an emoji.
    const formTitle = `a${'😀'.repeat(199)}`;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/length',
      headers,
      payload: { formTitle },
    });
    expect(created.statusCode, created.body).toBe(201);
    const copy = await t.app.inject({
      method: 'POST',
      url: `/api/duplicateForm/${created.json<Form>()._id}`,
      headers,
    });
    expect(copy.statusCode, copy.body).toBe(201);
    const title = copy.json<Form>().formTitle;
    expect(title.isWellFormed()).toBe(true);
    expect(title).toBe(`Copy of a${'😀'.repeat(95)}`);
  });
});
