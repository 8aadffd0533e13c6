import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import { ownerRequests } from '../testing/owner-requests.ts';
import { createTestApp, signUpOwner, uniqueEmail, type TestApp } from '../testing/test-app.ts';

let t: TestApp;
const as = ownerRequests(() => t);
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const NUL = 'Asha\u0000Rao';
const LONE = 'Asha \uD83D Rao';

describe('text PostgreSQL cannot store (NUL, unpaired surrogates)', () => {
  it('is refused with 400 naming the field on sign-up, and no account is made', async () => {
    for (const fullName of [NUL, LONE]) {
      const email = uniqueEmail();
      const password = 'correct horse battery';
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/signUp',
        payload: { fullName, email, password, confirmPassword: password },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(/^fullName: /);
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/v1/login',
        payload: { email, password },
      });
      expect(login.statusCode).toBe(404);
    }
  });

  it('is refused in a form title, a rename and a path parameter, and the stored form is unchanged', async () => {
    const owner = await signUpOwner(t);
    const made = await as(owner).post('/api/v1/length', { formTitle: LONE, template: 'blank' });
    expect(made.statusCode).toBe(400);
    expect(made.json().error.message).toMatch(/^formTitle: /);
    const form = (await as(owner).post('/api/v1/length', { template: 'contact' })).json<Form>();
    const rename = await as(owner).put(`/api/updateFormEntry/${form._id}`, { formTitle: NUL });
    expect(rename.statusCode).toBe(400);
    const param = await as(owner).get(`/api/singleFormForEdit/${form._id}%00`);
    expect(param.statusCode).toBeLessThan(500);
    expect(param.statusCode).toBeGreaterThanOrEqual(400);
    const after = await as(owner).get(`/api/singleFormForEdit/${form._id}`);
    expect(after.json<Form>().formTitle).toBe(form.formTitle);
  });

  // Found by the fuzz test: a 64 KiB body of nested arrays or objects ran the walk above out of stack (500).
  it('refuses a body nested too deeply with 400, not a 500, and stores nothing', async () => {
    const owner = await signUpOwner(t);
    const before = await t.app.db.query('select count(*)::int as n from forms');
    for (const payload of [
      `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
      `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
      `{"formTitle":"x","description":${'['.repeat(40)}${']'.repeat(40)}}`,
    ]) {
      const res = await as(owner).post('/api/v1/length', payload, { 'content-type': 'application/json' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(/^body: nested deeper than/);
    }
    expect(await t.app.db.query('select count(*)::int as n from forms')).toEqual(before);
  });
});
