import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JoiningForm, JoiningFormBody } from '#common/profile.ts';
import type { UploadResponse } from '#common/submissions.ts';
import { ownerRequests } from '../../testing/owner-requests.ts';
import { createTestApp, signUpOwner, storedKeys, TEST_ENGINE, type TestApp } from '../../testing/test-app.ts';
import { multipart, PDF, PNG } from '../../testing/test-files.ts';

let t: TestApp;
const as = ownerRequests(() => t);
let owner: { token: string };
let other: { token: string };
beforeAll(async () => {
  t = await createTestApp();
  owner = await signUpOwner(t);
  other = await signUpOwner(t);
});
afterAll(async () => {
  await t?.close();
});

const details: JoiningFormBody = {
  fullName: 'Asha Rao',
  email: 'asha@example.com',
  phoneNumber: '+91 98450 12345',
  address1: '12 MG Road',
  address2: 'Indiranagar',
  address3: '',
  country: 'India',
  state: 'Karnataka',
  city: 'Bengaluru',
  zip: '560038',
};
const uploadAs = async (o: { token: string }, name: string, content: Buffer) => {
  const body = multipart(name, content);
  return as(o).post('/api/profile', body.payload, body.headers);
};
const put = (o: { token: string }, payload: JoiningFormBody) => as(o).put('/api/userForm', payload);

describe(`joining form on ${TEST_ENGINE}`, () => {
  it('starts empty, saves the details and both documents, and shows them again', async () => {
    const empty = (await as(owner).get('/api/userForm')).json<JoiningForm>();
    expect(empty).toMatchObject({ fullName: '', panCard: null, aadharCard: null, updatedAt: null });
    const pan = (await uploadAs(owner, 'pan.png', PNG)).json<UploadResponse>();
    const aadhar = (await uploadAs(owner, 'aadhar.pdf', PDF)).json<UploadResponse>();
    const saved = await put(owner, { ...details, panCardId: pan._id, aadharCardId: aadhar._id });
    expect(saved.statusCode, saved.body).toBe(200);
    const again = (await as(owner).get('/api/userForm')).json<JoiningForm>();
    expect(again).toMatchObject({
      ...details,
      panCard: { originalName: 'pan.png' },
      aadharCard: { originalName: 'aadhar.pdf' },
    });
    expect((await t.app.inject({ method: 'GET', url: again.panCard?.url ?? '' })).statusCode).toBe(200);

    const kept = (await put(owner, { ...details, city: 'Mysuru' })).json<JoiningForm>();
    expect(kept).toMatchObject({ city: 'Mysuru', panCard: { originalName: 'pan.png' } });
    const removed = (await put(owner, { ...details, panCardId: null })).json<JoiningForm>();
    expect(removed.panCard).toBeNull();
  });

  it("refuses another owner's document, a bad email, a GIF, and callers without a token", async () => {
    const theirs = (await uploadAs(other, 'pan.png', PNG)).json<UploadResponse>();
    const stolen = await put(owner, { ...details, panCardId: theirs._id });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().error.message).toBe('panCardId: Upload the document again');
    expect((await put(owner, { ...details, email: 'asha@' })).json().error.message).toBe(
      'email: Enter a valid email address',
    );
    expect((await uploadAs(owner, 'pan.gif', Buffer.from('GIF89a'))).statusCode).toBe(415);
    expect((await t.app.inject({ method: 'GET', url: '/api/userForm' })).statusCode).toBe(401);
  });

  it('deletes a replaced or removed document: its row, its file and its URL', async () => {
    const me = await signUpOwner(t);
    const stored = async () => (await storedKeys(t)).length;
    const first = (await uploadAs(me, 'pan.png', PNG)).json<UploadResponse>();
    const url = (await put(me, { ...details, panCardId: first._id })).json<JoiningForm>().panCard?.url ?? '';
    const files = await stored();
    const second = (await uploadAs(me, 'pan2.png', PNG)).json<UploadResponse>();
    const replaced = (await put(me, { ...details, panCardId: second._id })).json<JoiningForm>();
    expect(replaced.panCard?.originalName).toBe('pan2.png');
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    expect(await stored()).toBe(files);
    const rows = async () =>
      (await t.app.db.query('select 1 from uploads where owner_id = $1', [me.id])).length;
    expect(await rows()).toBe(1);

    expect((await put(me, { ...details, panCardId: null })).json<JoiningForm>().panCard).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: replaced.panCard?.url ?? '' })).statusCode).toBe(404);
    expect(await stored()).toBe(files - 1);
    expect(await rows()).toBe(0);
  });
});

describe('one upload given for both documents', () => {
  it('refuses it with 400 naming the field and keeps both, so removing one never deletes the other', async () => {
    const me = await signUpOwner(t);
    const pan = (await uploadAs(me, 'pan.png', PNG)).json<UploadResponse>();
    const aadhar = (await uploadAs(me, 'aadhar.pdf', PDF)).json<UploadResponse>();
    const saved = await put(me, { ...details, panCardId: pan._id, aadharCardId: aadhar._id });
    expect(saved.statusCode).toBe(200);
    const refusals = [
      [{ panCardId: aadhar._id }, 'panCardId'],
      [{ aadharCardId: pan._id }, 'aadharCardId'],
      [{ panCardId: aadhar._id, aadharCardId: aadhar._id }, 'panCardId'],
    ] as const;
    for (const [ids, field] of refusals) {
      const res = await put(me, { ...details, ...ids });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(
        `${field}: This file is already your other document; upload each document on its own`,
      );
    }
    const removed = (await put(me, { ...details, panCardId: null })).json<JoiningForm>();
    expect(removed.panCard).toBeNull();
    expect(removed.aadharCard?.originalName).toBe('aadhar.pdf');
    expect((await t.app.inject({ method: 'GET', url: removed.aadharCard?.url ?? '' })).statusCode).toBe(200);
  });
});

describe('a document moved to the other slot', () => {
  it('keeps it, its file and its URL, whether it moves beside a new document or the two swap', async () => {
    const me = await signUpOwner(t);
    const first = (await uploadAs(me, 'first.png', PNG)).json<UploadResponse>();
    const second = (await uploadAs(me, 'second.pdf', PDF)).json<UploadResponse>();
    expect((await put(me, { ...details, panCardId: first._id })).statusCode).toBe(200);
    const files = (await storedKeys(t)).length;
    const moved = await put(me, { ...details, panCardId: second._id, aadharCardId: first._id });
    expect(moved.statusCode, moved.body).toBe(200);
    const swapped = await put(me, { ...details, panCardId: first._id, aadharCardId: second._id });
    expect(swapped.statusCode, swapped.body).toBe(200);
    const shown = swapped.json<JoiningForm>();
    expect(shown).toMatchObject({
      panCard: { originalName: 'first.png' },
      aadharCard: { originalName: 'second.pdf' },
    });
    for (const card of [shown.panCard, shown.aadharCard])
      expect((await t.app.inject({ method: 'GET', url: card?.url ?? '' })).statusCode).toBe(200);
    expect((await storedKeys(t)).length).toBe(files);
  });
});

describe('two first saves at once', () => {
  it('keep one document and delete the other, row and file', async () => {
    const me = await signUpOwner(t);
    const filesBefore = (await storedKeys(t)).length;
    const a = (await uploadAs(me, 'a.png', PNG)).json<UploadResponse>();
    const b = (await uploadAs(me, 'b.png', PNG)).json<UploadResponse>();
    const saves = await Promise.all([
      put(me, { ...details, panCardId: a._id }),
      put(me, { ...details, panCardId: b._id }),
    ]);
    expect(saves.map((r) => r.statusCode)).toEqual([200, 200]);
    const shown = (await as(me).get('/api/userForm')).json<JoiningForm>();
    const rows = await t.app.db.query<{ original_name: string }>(
      'select original_name from uploads where owner_id = $1',
      [me.id],
    );
    expect(rows.map((r) => r.original_name)).toEqual([shown.panCard?.originalName]);
    expect((await storedKeys(t)).length).toBe(filesBefore + 1);
  });
});
