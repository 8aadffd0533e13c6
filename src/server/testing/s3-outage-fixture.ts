// The app on S3 storage reached through a switchable front (s3-test-front.ts), for the outage tests: a signed-up
// owner's form that asks for a file (only such a form takes uploads), the app listening on 127.0.0.1 for real HTTP,
// and its log kept for the lines an operator would read.
import { afterAll, beforeAll } from 'vitest';
import type { Form } from '#common/forms.ts';
import type { Config } from '../runtime/config.ts';
import { parseStorageUrl, type S3Location } from '../storage/storage-url.ts';
import { ownerRequests } from './owner-requests.ts';
import { startS3TestFront, type S3TestFront } from './s3-test-front.ts';
import { startS3TestServer, type S3TestServer } from './s3-test-server.ts';
import { createForm, createTestApp, signUpOwner, type TestApp } from './test-app.ts';

export type S3Outage = {
  s3: S3TestServer;
  front: S3TestFront;
  t: TestApp;
  form: Form;
  /** The app's address, for requests over real HTTP. */
  base: string;
  log: string[];
  close(): Promise<void>;
};

/** Starts it all under the bucket prefix `prefix`, with the app's `overrides` (shorter timeouts, say). */
export async function startS3Outage(prefix: string, overrides: Partial<Config> = {}): Promise<S3Outage> {
  const log: string[] = [];
  const s3 = await startS3TestServer();
  const real = parseStorageUrl(s3.storageUrl(prefix), undefined) as S3Location;
  const front = await startS3TestFront(new URL(real.endpoint ?? ''));
  const t = await createTestApp({
    storage: { ...real, endpoint: front.endpoint },
    logLevel: 'info',
    logStream: { write: (line) => void log.push(line) },
    ...overrides,
  });
  const { token } = await signUpOwner(t);
  const form = await createForm(t, token);
  await ownerRequests(t)(token).post(`/api/text/${form._id}`, { id: 5, name: 'Scan' });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    s3,
    front,
    t,
    form,
    base,
    log,
    async close() {
      await t.close();
      // A test may have closed the front already, to take the endpoint away.
      await front.close().catch(() => undefined);
      await s3.close();
    },
  };
}

/**
 * One outage set-up for the whole test file: started before its tests and closed after them. Read its parts in a
 * test or a later hook, once it is running.
 */
export function setUpS3Outage(prefix: string, overrides: Partial<Config> = {}): Omit<S3Outage, 'close'> {
  let started: S3Outage | undefined;
  beforeAll(async () => {
    started = await startS3Outage(prefix, overrides);
  }, 60_000);
  afterAll(() => started?.close());
  const running = () => {
    if (!started) throw new Error('the outage set-up starts in beforeAll: use it in a test or a later hook');
    return started;
  };
  return {
    get s3() {
      return running().s3;
    },
    get front() {
      return running().front;
    },
    get t() {
      return running().t;
    },
    get form() {
      return running().form;
    },
    get base() {
      return running().base;
    },
    get log() {
      return running().log;
    },
  };
}
