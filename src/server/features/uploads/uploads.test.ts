import { readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import type { UploadResponse } from '#common/submissions.ts';
import { digest } from '../../http/crypto.ts';
import { ownerRequests } from '../../testing/owner-requests.ts';
import { setUpTestApp, signUpOwner, storedKeys, TEST_ENGINE, TEST_STORAGE } from '../../testing/test-app.ts';
import { JPEG, multipart, PDF, PNG } from '../../testing/test-files.ts';
import { ORPHAN_FILE_GRACE_MS, sweepOrphanFiles } from './orphan-sweep.ts';
import { deleteStaleUploads } from './service.ts';

const MAX = 64 * 1024;
const t = setUpTestApp({ uploadMaxBytes: MAX });
const as = ownerRequests(t);
let form: Form;
let owner: { token: string };
const createForm = async (token: string, template: string) =>
  (await as(token).post('/api/v1/length', { template })).json<Form>();
beforeAll(async () => {
  owner = await signUpOwner(t);
  form = await createForm(owner.token, 'travel');
});

const upload = (filename: string, content: Buffer, formId: string | null = form._id) =>
  t.app.inject({
    method: 'POST',
    url: `/api/profile${formId ? `?formId=${formId}` : ''}`,
    ...multipart(filename, content),
  });
const storedFiles = async () => (await storedKeys(t)).length;
const get = (url: string) => t.app.inject({ method: 'GET', url });

describe(`uploads on ${TEST_ENGINE}`, () => {
  describe('POST /api/profile', () => {
    it.each([
      ['photo.JPG', JPEG, 'image/jpeg'],
      ['scan.png', PNG, 'image/png'],
      ['passport.pdf', PDF, 'application/pdf'],
    ])('accepts %s and serves it back through its signed URL', async (name, content, mime) => {
      const res = await upload(name, content);
      expect(res.statusCode).toBe(200);
      const body = res.json<UploadResponse>();
      expect(body).toMatchObject({ name, mimeType: mime });
      expect(body._id).toMatch(/^[\w-]{43}$/);
      const file = await get(body.file);
      expect(file.statusCode).toBe(200);
      // Images come back re-encoded (the size answered is the stored one); a PDF byte for byte.
      expect(file.rawPayload.length).toBe(body.size);
      if (mime === 'application/pdf') expect(file.rawPayload.equals(content)).toBe(true);
      else
        expect((await sharp(file.rawPayload).metadata()).format).toBe(mime === 'image/png' ? 'png' : 'jpeg');
      expect(file.headers['content-type']).toBe(mime);
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(file.headers['content-disposition']).toContain(`inline; filename="${name}"`);
      expect((await get(`${body.file}&download=1`)).headers['content-disposition']).toMatch(/^attachment;/);
    });

    it('answers 415 for a text file named .png, a .gif, or a JPEG named .pdf, and keeps nothing', async () => {
      const before = await storedFiles();
      for (const [name, content] of [
        ['notes.png', Buffer.from('just some text, not an image')],
        ['anim.gif', Buffer.from('GIF89a......')],
        ['photo.pdf', JPEG],
      ] as const) {
        const res = await upload(name, content);
        expect(res.statusCode, name).toBe(415);
        expect(res.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      }
      expect(await storedFiles()).toBe(before);
    });

    it('answers 413 for a file over UPLOAD_MAX_BYTES and keeps nothing', async () => {
      const before = await storedFiles();
      const big = Buffer.concat([PDF, Buffer.alloc(MAX + 1, 0x20)]);
      const res = await upload('big.pdf', big);
      expect(res.statusCode).toBe(413);
      expect(res.json().error.message).toMatch(/larger than/);
      expect(await storedFiles()).toBe(before);
    });

    it('answers 404 for an unknown form, 410 for a closed one, 400 for one without a file question, 415 when not multipart', async () => {
      expect((await upload('a.png', PNG, '7b0f3c9e-0000-4000-8000-000000000000')).statusCode).toBe(404);
      const noFiles = await createForm(owner.token, 'blank');
      const refused = await upload('a.png', PNG, noFiles._id);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.message).toBe('formId: This form does not ask for a file');
      await as(owner).put(`/api/updateFormEntry/${form._id}`, { acceptingResponses: false });
      const closed = await upload('a.png', PNG);
      await as(owner).put(`/api/updateFormEntry/${form._id}`, { acceptingResponses: true });
      expect(closed.statusCode).toBe(410);
      const json = await t.app.inject({
        method: 'POST',
        url: `/api/profile?formId=${form._id}`,
        payload: { file: 'x' },
      });
      expect(json.statusCode).toBe(415);
      expect(json.json().error.message).toBe('Send the file as multipart/form-data in the field "file"');
      // A form post, which no route here reads, says what to send instead of asking for JSON alone.
      const urlencoded = await t.app.inject({
        method: 'POST',
        url: `/api/profile?formId=${form._id}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'file=abc',
      });
      expect(urlencoded.statusCode).toBe(415);
      expect(urlencoded.json().error.message).toMatch(/multipart\/form-data, in the field "file"/);
    });

    it('answers 400 for a multipart body without a boundary or with broken parts (found by the fuzz test)', async () => {
      for (const [type, payload] of [
        ['multipart/form-data', ''],
        ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="file"\r\n'],
        ['multipart/form-data; boundary=x', ''],
      ]) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/profile',
          headers: { 'content-type': type ?? '' },
          payload: payload ?? '',
        });
        expect(res.statusCode, `${type} ${JSON.stringify(payload)}`).toBe(400);
      }
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    });

    it.each([
      ['no token', undefined],
      ['a garbage token', 'Bearer not-a-token'],
      ['a well-formed token no session has', `Bearer ${'A'.repeat(43)}`],
    ])('takes an upload with only the file and %s as an anonymous upload', async (_label, authorization) => {
      const body = multipart('a.png', PNG);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/profile',
        payload: body.payload,
        headers: { ...body.headers, ...(authorization ? { authorization } : {}) },
      });
      expect(res.statusCode).toBe(200);
      const [row] = await t.app.db.query<{
        form_id: string | null;
        owner_id: string | null;
        client_key: string;
      }>('select form_id, owner_id, client_key from uploads where secret_hash = $1', [
        digest(res.json<UploadResponse>()._id),
      ]);
      expect(row).toMatchObject({ form_id: null, owner_id: null });
      // The address is kept only as a keyed hash.
      expect(row?.client_key).toMatch(/^[\w-]{22}$/);
      expect(row?.client_key).not.toContain('127.0.0.1');
    });

    it('refuses a NUL or broken character in a text field sent with the file, naming the field', async () => {
      const boundary = '----easyformfield';
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\na\u0000b\r\n`),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n` +
            'Content-Type: image/png\r\n\r\n',
        ),
        PNG,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/profile?formId=${form._id}`,
        payload,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(/^note: contains a NUL/);
    });
  });

  describe('a form deleted while its file arrives', () => {
    it('answers 404 "Form not found" and keeps neither the row nor the file', async () => {
      const doomed = await createForm(owner.token, 'travel');
      const whole = multipart('late.pdf', Buffer.concat([PDF, Buffer.alloc(8 * 1024, 0x20)]));
      const body = new PassThrough();
      const keys = await storedKeys(t);
      const answer = t.app.inject({
        method: 'POST',
        url: `/api/profile?formId=${doomed._id}`,
        headers: whole.headers,
        payload: body,
      });
      // The form is checked and the file's first bytes are read; then the form goes, then the rest arrives.
      body.write(whole.payload.subarray(0, 4 * 1024));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const deleted = await as(owner).delete(`/api/deleteForm/${doomed._id}`);
      expect(deleted.statusCode).toBe(200);
      body.end(whole.payload.subarray(4 * 1024));
      const res = await answer;
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().error.message).toBe('Form not found');
      expect(await storedKeys(t)).toEqual(keys);
    });
  });

  describe('DELETE /api/profile/:deleteId and /files URLs', () => {
    it('removes the file: its URL then answers 404, and a second delete 404', async () => {
      const body = (await upload('scan.png', PNG)).json<UploadResponse>();
      const res = await t.app.inject({ method: 'DELETE', url: `/api/profile/${body._id}` });
      expect(res.statusCode).toBe(200);
      expect((await get(body.file)).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'DELETE', url: `/api/profile/${body._id}` })).statusCode).toBe(
        404,
      );
    });

    it('answers 404 for a tampered or expired signature', async () => {
      const body = (await upload('scan.png', PNG)).json<UploadResponse>();
      const tampered = body.file.slice(0, -1) + (body.file.endsWith('A') ? 'B' : 'A');
      expect((await get(tampered)).statusCode).toBe(404);
      const id = /\/files\/([^?]+)/.exec(body.file)?.[1] ?? '';
      expect((await get(t.app.storage.signUrl(id, -5))).statusCode).toBe(404);
      expect((await get(t.app.storage.signUrl(id, 60))).statusCode).toBe(200);
      // A link missing its signature, or with it twice, is a bad link too: 404, not a 400 that says which part.
      const [path, query = ''] = body.file.split('?');
      const params = new URLSearchParams(query);
      const e = params.get('e') ?? '';
      const s = params.get('s') ?? '';
      for (const bad of [path, `${path}?e=${e}`, `${path}?s=${s}`, `${path}?e=${e}&e=${e}&s=${s}`]) {
        const res = await get(bad ?? '');
        expect(res.statusCode, bad).toBe(404);
        expect(res.json().error.message).toBe('File not found or link expired');
      }
    });

    it('deletes uploads no submission claimed within 24 hours', async () => {
      const body = (await upload('old.png', PNG)).json<UploadResponse>();
      await t.app.db.query(
        `update uploads set created_at = now() - interval '25 hours' where original_name = 'old.png'`,
      );
      const removed = await deleteStaleUploads({
        db: t.app.db,
        storage: t.app.storage,
        log: t.app.log,
      });
      expect(removed).toBeGreaterThanOrEqual(1);
      expect((await get(body.file)).statusCode).toBe(404);
    });

    it('moves stored files that no upload names to the quarantine once they are an hour old, and keeps every upload', async () => {
      const deps = { db: t.app.db, storage: t.app.storage, log: t.app.log };
      const kept = (await upload('kept.png', PNG)).json<UploadResponse>();
      // Leftovers of a crash: files whose rows were never written, stored the way uploads are.
      const orphans = await Promise.all(
        [PNG, PDF].map((bytes) => t.app.storage.save(Readable.from([bytes]), () => undefined)),
      );
      const before = await storedKeys(t);
      expect(before).toEqual(expect.arrayContaining(orphans.map((o) => o.key)));
      // Not yet an hour old: kept, as an upload in progress would be.
      expect((await sweepOrphanFiles(deps)).moved).toBe(0);
      const inAnHour = new Date(Date.now() + ORPHAN_FILE_GRACE_MS + 60_000);
      expect((await sweepOrphanFiles(deps, inAnHour)).moved).toBe(2);
      expect(await storedKeys(t)).toEqual(before.filter((k) => !orphans.some((o) => o.key === k)));
      expect((await get(kept.file)).statusCode).toBe(200);
      expect((await sweepOrphanFiles(deps, inAnHour)).moved).toBe(0);
    });

    it.skipIf(TEST_STORAGE !== 'disk')(
      'moves files on disk that no upload names to the quarantine once they are an hour old, and nothing else',
      async () => {
        const deps = { db: t.app.db, storage: t.app.storage, log: t.app.log };
        const kept = (await upload('kept.png', PNG)).json<UploadResponse>();
        const dir = join(t.app.config.dataDir, 'uploads');
        // Leftovers of a crash: a file whose row was never written and a partial upload; and a stray file that is
        // still young (an upload in progress may look like that for a moment).
        await writeFile(join(dir, 'left-behind'), PNG);
        await writeFile(join(dir, 'cut-off.part'), PDF);
        await writeFile(join(dir, 'in-progress'), PNG);
        const old = new Date(Date.now() - ORPHAN_FILE_GRACE_MS - 60_000);
        for (const name of await readdir(dir)) {
          if (name !== 'in-progress') await utimes(join(dir, name), old, old);
        }

        expect((await sweepOrphanFiles(deps)).moved).toBe(2);
        const left = await readdir(dir);
        expect(left).toContain('in-progress');
        expect(left).not.toContain('left-behind');
        expect(left).not.toContain('cut-off.part');
        // Every real upload, however old, is still there and served.
        expect((await get(kept.file)).statusCode).toBe(200);
        expect((await sweepOrphanFiles(deps)).moved).toBe(0);
      },
    );
  });
});
