import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { IDEMPOTENCY_HEADER } from '#common/answer-limits.ts';
import type { SubmissionBody } from '#common/submissions.ts';
import { SUBMIT_TIMEOUT_MS, uploadDeadlineMs } from '../../api/timeouts.ts';
import { entry, FORM, json, network, OWNER, queueTestHooks } from './queue-fixtures.ts';
import { putLocalFile, putQueued, readLocalFile } from './queue-store.ts';
import { sendQueued } from './send-queued.ts';

// Split from queue.test.ts: the queue's sender with a file kept on the device (offline): uploaded first, refused at
// its question, or gone.
queueTestHooks();

describe('the device queue sending a file kept on the device', () => {
  it('uploads a file kept on the device first, then submits the answer that names the upload', async () => {
    await putLocalFile({ id: 'blob-1', blob: new Blob(['%PDF-1.4']), fileName: 'booking.pdf' });
    const queued = entry({
      fileObject: { f1: { name: 'Booking', deleteId: 'local:blob-1', originalName: 'booking.pdf' } },
    });
    await putQueued(queued);
    const calls = network((url) =>
      url.startsWith('/api/profile')
        ? json(200, { file: '/files/abc', _id: 'upload-1', name: 'booking.pdf' })
        : json(200, { _id: 'submission-2' }),
    );
    expect((await sendQueued(queued.key)).entry?.state).toBe('sent');
    expect(calls.map((c) => c.url)).toEqual([`/api/profile?formId=${FORM}`, `/api/forms/${OWNER}`]);
    const sent = JSON.parse(String(calls[1]?.init.body)) as SubmissionBody;
    // Queued by an older page as one file: sent as a list of one, which the server takes the same.
    expect(sent.fileObject?.f1).toEqual([
      { name: 'Booking', value: '/files/abc', deleteId: 'upload-1', originalName: 'booking.pdf' },
    ]);
    expect(await readLocalFile('blob-1')).toBeUndefined();
  });

  it('uploads each of a question’s files kept on the device, in their places among those already uploaded', async () => {
    await putLocalFile({ id: 'blob-a', blob: new Blob(['a']), fileName: 'a.png' });
    await putLocalFile({ id: 'blob-c', blob: new Blob(['c']), fileName: 'c.png' });
    const queued = entry({
      fileObject: {
        f1: [
          { name: 'Photos', deleteId: 'local:blob-a', originalName: 'a.png' },
          { name: 'Photos', deleteId: 'upload-b', value: '/files/b', originalName: 'b.png' },
          { name: 'Photos', deleteId: 'local:blob-c', originalName: 'c.png' },
        ],
      },
    });
    await putQueued(queued);
    let uploads = 0;
    const calls = network((url) => {
      if (!url.startsWith('/api/profile')) return json(200, { _id: 'submission-3' });
      uploads += 1;
      return json(200, { file: `/files/up-${uploads}`, _id: `upload-${uploads}`, name: `up-${uploads}.png` });
    });
    expect((await sendQueued(queued.key)).entry?.state).toBe('sent');
    expect(calls.map((c) => c.url.split('?')[0])).toEqual([
      '/api/profile',
      '/api/profile',
      `/api/forms/${OWNER}`,
    ]);
    const sent = JSON.parse(String(calls[2]?.init.body)) as SubmissionBody;
    expect(sent.fileObject?.f1).toEqual([
      { name: 'Photos', value: '/files/up-1', deleteId: 'upload-1', originalName: 'up-1.png' },
      { name: 'Photos', deleteId: 'upload-b', value: '/files/b', originalName: 'b.png' },
      { name: 'Photos', value: '/files/up-2', deleteId: 'upload-2', originalName: 'up-2.png' },
    ]);
    expect(await readLocalFile('blob-a')).toBeUndefined();
    expect(await readLocalFile('blob-c')).toBeUndefined();
  });

  it('names the file question when the server refuses a file kept on the device', async () => {
    await putLocalFile({ id: 'blob-2', blob: new Blob(['x']), fileName: 'huge.png' });
    const queued = entry({
      fileObject: { f1: { name: 'Photo', deleteId: 'local:blob-2', originalName: 'huge.png' } },
    });
    await putQueued(queued);
    network(() => json(413, { error: { code: 'TOO_LARGE', message: 'Files up to 10 MB' } }));
    const { entry: refused } = await sendQueued(queued.key);
    expect(refused?.refusal).toMatchObject({ status: 413, fieldId: 'f1', message: 'Files up to 10 MB' });
  });

  // The owner changed the form while the answers waited: the refusal is about the form, not the file.
  it.each([
    [
      'asks for no file any more',
      json(400, {
        error: { code: 'VALIDATION_FAILED', message: 'formId: This form does not ask for a file' },
      }),
      { status: 400, code: 'VALIDATION_FAILED', fieldId: 'f1', message: 'This question is not on the form' },
    ],
    [
      'was deleted',
      json(404, { error: { code: 'NOT_FOUND', message: 'Form not found' } }),
      { status: 404, code: 'NOT_FOUND', message: 'Form not found' },
    ],
    [
      'was closed',
      json(410, { error: { code: 'FORM_CLOSED', message: 'Closed for the season' } }),
      { status: 410, code: 'FORM_CLOSED', message: 'Closed for the season' },
    ],
  ])('refuses a file kept on the device for its form when the form %s', async (_, answer, refusal) => {
    await putLocalFile({ id: 'blob-3', blob: new Blob(['x']), fileName: 'id.png' });
    const queued = entry({
      fileObject: { f1: { name: 'Photo', deleteId: 'local:blob-3', originalName: 'id.png' } },
    });
    await putQueued(queued);
    const calls = network(() => answer.clone());
    const { entry: refused } = await sendQueued(queued.key);
    expect(refused?.refusal).toEqual(refusal);
    expect(calls.map((c) => c.url)).toEqual([`/api/profile?formId=${FORM}`]);
  });

  it('refuses at its question a file no longer on the device, and sends nothing without it', async () => {
    const queued = entry({
      fileObject: { f1: { name: 'Photo', deleteId: 'local:forgotten', originalName: 'photo.png' } },
    });
    await putQueued(queued);
    const calls = network(() => json(200, { _id: 'never' }));
    const { entry: refused } = await sendQueued(queued.key);
    expect(refused).toMatchObject({
      state: 'refused',
      refusal: {
        status: 400,
        code: 'FILE_MISSING',
        fieldId: 'f1',
        message: 'This file is no longer on this device; choose it again',
      },
    });
    expect(calls).toEqual([]);
  });

  it('gives up on a stalled upload and a stalled submit at their deadlines and sends each again, once', async () => {
    // Each try's deadline is an AbortSignal.timeout; here the test decides when each one passes.
    const deadlines: { ms: number; pass: () => void }[] = [];
    const timeout = vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms) => {
      const controller = new AbortController();
      deadlines.push({ ms, pass: () => controller.abort(new DOMException('timed out', 'TimeoutError')) });
      return controller.signal;
    });
    onTestFinished(() => timeout.mockRestore());
    const blob = new Blob(['%PDF-1.4 '.repeat(5000)]);
    await putLocalFile({ id: 'blob-3', blob, fileName: 'ticket.pdf' });
    const queued = entry({
      fileObject: { f1: { name: 'Ticket', deleteId: 'local:blob-3', originalName: 'ticket.pdf' } },
    });
    await putQueued(queued);
    // The first try of each request stalls: no answer until its deadline aborts it, as fetch does.
    const tried = new Set<string>();
    const calls = network((url, init) => {
      const kind = url.split('?')[0] ?? url;
      if (!tried.has(kind)) {
        tried.add(kind);
        return new Promise<Response>((_, reject) =>
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
        );
      }
      return kind === '/api/profile'
        ? json(200, { file: '/files/def', _id: 'upload-3', name: 'ticket.pdf' })
        : json(200, { _id: 'submission-6' });
    });
    const sending = sendQueued(queued.key);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    deadlines[0]?.pass();
    await vi.waitFor(() => expect(calls).toHaveLength(3), { timeout: 5000 });
    deadlines[2]?.pass();
    expect((await sending).entry?.state).toBe('sent');
    expect(calls.map((c) => c.url.split('?')[0])).toEqual([
      '/api/profile',
      '/api/profile',
      `/api/forms/${OWNER}`,
      `/api/forms/${OWNER}`,
    ]);
    // The upload's deadline grows with the file; the submit's is fixed; both tries of the submit carry one key.
    expect(deadlines.map((d) => d.ms)).toEqual([
      uploadDeadlineMs(blob.size),
      uploadDeadlineMs(blob.size),
      SUBMIT_TIMEOUT_MS,
      SUBMIT_TIMEOUT_MS,
    ]);
    const keys = calls.slice(2).map((c) => new Headers(c.init.headers).get(IDEMPOTENCY_HEADER));
    expect(keys).toEqual([queued.key, queued.key]);
  });
});
