// The operator commands as typed (`npm run backup`, `npm run rotate-secrets`), and what rotating the secrets revokes
// (issue 35, item 9).
import { execFile } from 'node:child_process';
import { access, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import { ownerRequests } from '../../testing/owner-requests.ts';
import {
  createTestApp,
  createTestDatabase,
  signUpOwner,
  TEST_ENGINE,
  type TestApp,
} from '../../testing/test-app.ts';
import { rotateSecrets } from './rotate-secrets.ts';

const root = fileURLToPath(new URL('../../../..', import.meta.url));

/** Runs `npm run <command>` as its package.json script does, with only `env` set; resolves with what it said. */
function run(args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/server/features/backup/cli.ts', ...args],
      { cwd: root, env: { PATH: '/usr/bin:/bin', LOG_LEVEL: 'warn', ...env } },
      (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
    );
  });
}

const SETTINGS = "select key, value from app_settings where key like '%\\_key' order by key";

// An embedded DATA_DIR of their own, where a command has nothing to open but the store.
describe.runIf(TEST_ENGINE === 'pglite')('npm run backup', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'easyform-commands-'));
  });
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('with the S3 endpoint down: one line naming it, exit 1, no file left', async () => {
    const file = join(dataDir, 'backup.tar');
    const result = await run(['backup', file], {
      DATA_DIR: dataDir,
      STORAGE_URL:
        's3://easyform-test/p?endpoint=http%3A%2F%2F127.0.0.1%3A1&region=us-east-1&forcePathStyle=true',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      'STORAGE_URL: nothing accepts connections at http://127.0.0.1:1',
    ]);
    expect((await readdir(dataDir)).filter((name) => name.startsWith('backup'))).toEqual([]);
    await expect(access(file)).rejects.toThrow();
  });
});

// On PostgreSQL: the embedded engine's start in a fresh process costs many CPU-seconds more, for nothing this tests.
describe.runIf(TEST_ENGINE === 'postgres')('npm run rotate-secrets', () => {
  let database: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    database = await createTestDatabase();
    const db = await openDatabase({ databaseUrl: database.url, dataDir: '' });
    try {
      await migrate(db);
      const [account] = await db.query<{ id: string }>(
        "insert into accounts (full_name, email, password_hash) values ('A', 'a@example.com', 'x') returning id",
      );
      await db.query(
        "insert into sessions (token_hash, account_id, expires_at) values ('h', $1, now() + interval '1 day')",
        [account?.id],
      );
      await db.query("insert into app_settings (key, value) values ('file_url_key', 'old-key')");
    } finally {
      await db.close();
    }
  });
  afterAll(() => database?.drop());

  it('new keys and no session left, said in one line', async () => {
    const result = await run(['rotate-secrets'], { DATABASE_URL: database.url });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^Rotated 1 server keys .*revoked 1 sessions, 0 trusted devices/);
    const db = await openDatabase({ databaseUrl: database.url, dataDir: '' });
    try {
      expect(await db.query('select 1 from sessions')).toEqual([]);
      const [key] = await db.query<{ value: string }>(SETTINGS);
      expect(key?.value).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await db.close();
    }
  });
});

describe(`rotating the secrets (${TEST_ENGINE})`, () => {
  let t: TestApp;
  const as = ownerRequests(() => t);
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('signs every owner out at once and replaces every key the server signs or keys with', async () => {
    const owner = await signUpOwner(t);
    const forms = () => as(owner).get(`/api/v1/formStructure?id=${owner.id}`);
    expect((await forms()).statusCode).toBe(200);
    const before = await t.app.db.query<{ key: string; value: string }>(SETTINGS);
    await rotateSecrets(t.app.db);
    expect((await forms()).statusCode).toBe(401);
    const after = await t.app.db.query<{ key: string; value: string }>(SETTINGS);
    expect(after.map((s) => s.key)).toEqual(before.map((s) => s.key));
    for (const [i, setting] of after.entries()) expect(setting.value).not.toBe(before[i]?.value);
  });
});
