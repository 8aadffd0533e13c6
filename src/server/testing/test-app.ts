import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, inject } from 'vitest';
import type { Form } from '#common/forms.ts';
import { buildApp } from '../app.ts';
import { MEMORY_DATABASE, openDatabase } from '../db/database.ts';
import { loadConfig, type Config } from '../runtime/config.ts';
import { startMailCapture, type MailCapture } from './mail-capture.ts';
import { startS3TestServer } from './s3-test-server.ts';
import { runImage } from './test-database-image.ts';
import { throwawayDatabase } from './throwaway-database.ts';

/** The engine the integration suite runs on: in-memory PGlite, or PostgreSQL when TEST_DATABASE_URL is set. */
export const TEST_ENGINE = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';

/**
 * Where test apps keep uploads: the local disk, or (TEST_STORAGE=s3, a pass of scripts/test.mjs) an S3-protocol
 * server each test app starts for itself on 127.0.0.1.
 */
export const TEST_STORAGE = process.env.TEST_STORAGE === 's3' ? 's3' : 'disk';

/** The cell of engine × storage this run tests, for a suite's title: `pglite, files on disk`. */
export const TEST_CELL = `${TEST_ENGINE}, files on ${TEST_STORAGE}`;

/** Depth and replay of the fuzz tests (src/server/http/fuzz.test.ts), read here with the other test settings. */
export const FUZZ_SETTINGS = {
  runs: process.env.FUZZ_RUNS,
  seed: process.env.FUZZ_SEED,
  showStatuses: Boolean(process.env.FUZZ_STATS),
  /** A regular expression: only routes whose `METHOD /url` matches it are fuzzed (to split a deep run). */
  routes: process.env.FUZZ_ROUTES,
};

export type TestApp = { app: FastifyInstance; mail: MailCapture; close(): Promise<void> };

/** The global set-up's image, or '' outside a Vitest run (the bench's insert-counters part makes one itself). */
function providedImagePath(): string {
  try {
    return inject('migratedImagePath');
  } catch {
    return '';
  }
}

/** A real app over a fresh database with the real migrations, and a real SMTP server capturing its mail. */
export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const mail = await startMailCapture();
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'easyform-test-'));
  const s3 = TEST_STORAGE === 's3' ? await startS3TestServer() : null;
  const config: Config = {
    ...loadConfig(s3 ? { STORAGE_URL: s3.storageUrl() } : {}),
    dataDir,
    databaseUrl: database.url,
    smtpUrl: mail.url,
    publicUrl: 'http://easyform.test',
    webDir: undefined,
    logLevel: 'silent',
    ...overrides,
  };
  // In memory, the app starts from the run's migrated image rather than from initdb (test-database-image.ts).
  const image = config.databaseUrl === MEMORY_DATABASE ? await runImage(providedImagePath()) : undefined;
  const app = await buildApp(
    config,
    image && openDatabase({ databaseUrl: MEMORY_DATABASE, dataDir, memoryImage: image }),
  );
  return {
    app,
    mail,
    async close() {
      await app.close();
      await database.drop();
      await mail.close();
      await s3?.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The keys of every file the app's storage holds (partial ones included), whichever backend it is. */
export async function storedKeys(t: TestApp): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of t.app.storage.keysWrittenBefore(new Date(Date.now() + 60_000))) keys.push(key);
  return keys.sort();
}

/**
 * One test app for the whole file: started before its tests and closed after them. Read its `app` and `mail` in a
 * test or a later hook, once it is running.
 */
export function setUpTestApp(overrides: Partial<Config> = {}): TestApp {
  let started: TestApp | undefined;
  beforeAll(async () => {
    started = await createTestApp(overrides);
  });
  afterAll(async () => {
    await started?.close();
  });
  const running = () => {
    if (!started) throw new Error('the test app starts in beforeAll: use it in a test or a later hook');
    return started;
  };
  return {
    get app() {
      return running().app;
    },
    get mail() {
      return running().mail;
    },
    close: () => running().close(),
  };
}

/** A fresh database on the test engine: in-memory PGlite, or a new database on TEST_DATABASE_URL's server. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) return { url: MEMORY_DATABASE, drop: async () => undefined };
  return throwawayDatabase(server, 'easyform_test');
}

let counter = 0;
/** A unique address per call, so tests sharing an app never collide. */
export const uniqueEmail = (label = 'owner') =>
  `${label}.${Date.now().toString(36)}.${(counter++).toString(36)}.${randomBytes(2).toString('hex')}@example.com`;

export const verificationLinkIn = (text: string): string => {
  const match = /https?:\/\/\S+\/api\/v1\/verifyEmail\?token=[\w%-]+/.exec(text);
  if (!match) throw new Error(`no verification link in: ${text}`);
  return match[0];
};

/** Signs up, follows the link from the mail, logs in: what a new owner does. */
export async function signUpOwner(
  { app, mail }: TestApp,
  options: { email?: string; password?: string; fullName?: string } = {},
): Promise<{ token: string; id: string; email: string; password: string; fullName: string }> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? 'correct horse battery';
  const fullName = options.fullName ?? 'Asha Rao';
  const since = mail.mails.length;
  const signUp = await app.inject({
    method: 'POST',
    url: '/api/v1/signUp',
    payload: { fullName, email, password, confirmPassword: password },
  });
  if (signUp.statusCode !== 203) throw new Error(`sign-up failed: ${signUp.statusCode} ${signUp.body}`);
  const link = new URL(verificationLinkIn((await mail.waitFor(email, { since })).text));
  await app.inject({ method: 'GET', url: link.pathname + link.search });
  const login = await app.inject({ method: 'POST', url: '/api/v1/login', payload: { email, password } });
  if (login.statusCode !== 201) throw new Error(`login failed: ${login.statusCode} ${login.body}`);
  const { token, id } = login.json<{ token: string; id: string }>();
  return { token, id, email, password, fullName };
}

/** Creates a form as the owner does from the dashboard (`template`: blank, contact, travel or event). */
export async function createForm(
  t: TestApp,
  token: string,
  payload: Record<string, unknown> = {},
): Promise<Form> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/length',
    headers: { authorization: `Bearer ${token}` },
    payload,
  });
  if (res.statusCode !== 201) throw new Error(`form creation failed: ${res.statusCode} ${res.body}`);
  return res.json<Form>();
}
