import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import type { Submission } from '#common/submissions.ts';
import { ownerRequests } from '../../../testing/owner-requests.ts';
import { TEST_ENGINE } from '../../../testing/test-app.ts';
import { idOf, owner, setUpSubmissions, t } from '../test-fixture.ts';
const as = ownerRequests(() => t);

const { asOwner, buildForm, countOf, submit, validBody } = setUpSubmissions();

describe(`the submission writer on ${TEST_ENGINE}`, () => {
  describe('concurrent submissions (group commit)', () => {
    it('stores every valid one with its own answers and answers each mistake on its own', async () => {
      const f = await buildForm(owner.token);
      const bodies = await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const body = await validBody(f);
          body.textObject![idOf(f, 'Name')] = `Guest ${i}`;
          return body;
        }),
      );
      const missingName = await validBody(f);
      delete missingName.textObject![idOf(f, 'Name')];
      const [bad, unknown, ...good] = await Promise.all([
        submit(missingName),
        submit({ ...(await validBody(f)), formStructureId: randomUUID() }),
        ...bodies.map((b) => submit(b)),
      ]);
      expect(bad?.statusCode).toBe(400);
      expect(bad?.json().error.message).toMatch(/^Name: /);
      expect(unknown?.statusCode).toBe(404);
      expect(good.map((r) => r.statusCode)).toEqual(Array(12).fill(200));
      const ids = good.map((r) => r.json<{ _id: string }>()._id);
      expect(new Set(ids).size).toBe(12);
      expect(await countOf(f)).toBe(12);
      for (const [i, id] of ids.entries()) {
        const stored = (await asOwner(owner.token, `/api/forms/${id}`)).json<Submission>();
        expect(stored.textObject.Name).toBe(`Guest ${i}`);
        expect(stored.fileObject['ID proof']?.originalName).toBe('id.pdf');
      }
    });

    it('stores one submission when the same Idempotency-Key arrives several times at once', async () => {
      const f = await buildForm(owner.token);
      const body = await validBody(f);
      const headers = { 'idempotency-key': randomUUID() };
      const answers = await Promise.all(Array.from({ length: 4 }, () => submit(body, owner.id, headers)));
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
      expect(new Set(answers.map((r) => r.json()._id)).size).toBe(1);
      expect(await countOf(f)).toBe(1);
    });

    it('keeps one row per Idempotency-Key on a form without files, even once the form has changed', async () => {
      let f = (await as(owner).post('/api/v1/length', {})).json<Form>();
      f = (
        await as(owner).post(`/api/text/${f._id}`, { id: 1, name: 'Name', type: 'text', required: true })
      ).json<Form>();
      const body = {
        formStructureId: f._id,
        formTitle: f.formTitle,
        textObject: { [idOf(f, 'Name')]: 'Ana' },
      };
      // From an address of its own: the file's other tests use up most of one address's submissions a minute.
      const send = (key: string) =>
        t.app.inject({
          method: 'POST',
          url: `/api/forms/${owner.id}`,
          payload: body,
          headers: { 'idempotency-key': key },
          remoteAddress: '10.9.9.9',
        });
      const key = randomUUID();
      const [first, ...twins] = await Promise.all(Array.from({ length: 4 }, () => send(key)));
      expect(first?.statusCode, first?.body).toBe(200);
      const id = first?.json<{ _id: string }>()._id;
      expect(twins.map((r) => r.json<{ _id: string }>()._id)).toEqual([id, id, id]);
      expect((await send(key)).json()).toEqual({ _id: id });
      // The owner adds a required question: the same body is no longer valid, but its retry is answered as before.
      await as(owner).post(`/api/text/${f._id}`, { id: 1, name: 'City', type: 'text', required: true });
      expect((await send(key)).json()).toEqual({ _id: id });
      const fresh = await send(randomUUID());
      expect(fresh.statusCode).toBe(400);
      expect(fresh.json().error.message).toMatch(/^City: /);
      expect(await countOf(f)).toBe(1);
    });

    it('lets only one of two simultaneous submissions claim the same upload', async () => {
      const f = await buildForm(owner.token);
      const body = await validBody(f);
      const [a, b, c] = await Promise.all([submit(body), submit(body), submit(await validBody(f))]);
      expect([a?.statusCode, b?.statusCode].sort()).toEqual([200, 400]);
      expect(c?.statusCode).toBe(200);
      expect(await countOf(f)).toBe(2);
    });
  });

  describe('a form its owner edits while customers submit', () => {
    it('checks each submission against the form as it is now, never as it was', async () => {
      const edit = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
        const res = await as(owner).send(method, url, payload);
        expect(res.statusCode, res.body).toBeLessThan(300);
        return res.json<Form>();
      };
      let f = await edit('POST', '/api/v1/length', {});
      f = await edit('POST', `/api/text/${f._id}`, { id: 1, name: 'Name', type: 'text', required: true });
      f = await edit('POST', `/api/text/${f._id}`, { id: 2, name: 'Size', options: [{ value: 'S' }] });
      const nameId = idOf(f, 'Name');
      const sizeId = idOf(f, 'Size');
      let cityId = '';
      const send = (answers: { name?: string; size?: string; city?: string }) =>
        t.app.inject({
          method: 'POST',
          url: `/api/forms/${owner.id}`,
          remoteAddress: '10.9.9.10',
          payload: {
            formStructureId: f._id,
            formTitle: f.formTitle,
            textObject: {
              ...(answers.name ? { [nameId]: answers.name } : {}),
              ...(answers.city ? { [cityId]: answers.city } : {}),
            },
            selectedValues: answers.size ? { [sizeId]: answers.size } : {},
          },
        });
      const stored = async (res: Awaited<ReturnType<typeof send>>) => {
        expect(res.statusCode, res.body).toBe(200);
        return (
          await asOwner(owner.token, `/api/forms/${res.json<{ _id: string }>()._id}`)
        ).json<Submission>();
      };
      await stored(await send({ name: 'Ana', size: 'S' }));

      // A new option is accepted at once.
      f = await edit('POST', `/api/addOption/${f._id}/${sizeId}`, { value: 'XL' });
      expect((await stored(await send({ name: 'Ben', size: 'XL' }))).selectedValues).toEqual({ Size: 'XL' });
      // A removed option is refused at once.
      const small = f.selectField[0]?.options.find((o) => o.value === 'S');
      f = await edit('DELETE', `/api/deleteOption/${f._id}/${sizeId}/${small?._id}`);
      const removed = await send({ name: 'Cy', size: 'S' });
      expect(removed.statusCode).toBe(400);
      expect(removed.json().error.message).toMatch(/^Size: /);
      // A renamed question stores its answers under the new name.
      f = await edit('PUT', `/api/updateText/${f._id}/${nameId}`, { name: 'Full name' });
      expect((await stored(await send({ name: 'Dee' }))).textObject).toEqual({ 'Full name': 'Dee' });
      // A new required question is required at once.
      f = await edit('POST', `/api/text/${f._id}`, { id: 1, name: 'City', type: 'text', required: true });
      cityId = idOf(f, 'City');
      const missing = await send({ name: 'Eve' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.message).toMatch(/^City: /);
      expect((await stored(await send({ name: 'Eve', city: 'Pune' }))).textObject.City).toBe('Pune');
      // A deleted form takes nothing.
      await edit('DELETE', `/api/deleteForm/${f._id}`);
      expect((await send({ name: 'Fay', city: 'Goa' })).statusCode).toBe(404);
    });
  });
});
