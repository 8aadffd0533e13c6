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

describe(`POST /api/importForm on ${TEST_ENGINE}`, () => {
  it('names an import apart from the form it came from, numbering a second import of the same name', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/length',
      headers,
      payload: { formTitle: 'Homestay booking', template: 'event' },
    });
    const exported = await t.app.inject({
      method: 'GET',
      url: `/api/exportForm/${created.json<Form>()._id}`,
      headers,
    });
    const titles: string[] = [];
    for (let i = 0; i < 3; i++) {
      const imported = await t.app.inject({
        method: 'POST',
        url: '/api/importForm',
        headers,
        payload: exported.json(),
      });
      expect(imported.statusCode, imported.body).toBe(201);
      titles.push(imported.json<Form>().formTitle);
    }
    expect(titles).toEqual([
      'Homestay booking (imported)',
      'Homestay booking (imported 2)',
      'Homestay booking (imported 3)',
    ]);
  });
});
