import { mkdir, mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp, TEST_ENGINE } from '../test-app.ts';
import { DatabaseInUseError, openDatabase } from './database.ts';

describe.runIf(TEST_ENGINE === 'postgres')('the PostgreSQL pool', () => {
  it('keeps serving after the server kills its idle connections, as a PostgreSQL restart does', async () => {
    const t = await createTestApp();
    try {
      // Open a few pooled connections, then have PostgreSQL terminate them while they sit idle.
      await Promise.all([1, 2, 3].map(() => t.app.db.query('select pg_sleep(0.05)')));
      const [terminated] = await t.app.db.query<{ killed: string }>(
        `select count(pg_terminate_backend(pid))::text as killed from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()`,
      );
      expect(Number(terminated?.killed)).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await t.app.db.query('select 1 as ok')).toEqual([{ ok: 1 }]);
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe.runIf(TEST_ENGINE === 'pglite')('the embedded database on disk', () => {
  it('is opened by one server at a time, and a crashed one does not keep it locked', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'easyform-lock-'));
    const open = () => openDatabase({ databaseUrl: undefined, dataDir, lockRetries: 0 });
    try {
      const first = await open();
      await first.query('create table notes (body text)');
      await first.query("insert into notes values ('kept')");
      const second = open();
      await expect(second).rejects.toBeInstanceOf(DatabaseInUseError);
      await expect(second).rejects.toThrow(/Another Easy Form server is already using the database/);
      // A server allowed to wait says so, then gives up the same way.
      const waits: string[] = [];
      const patient = openDatabase({
        databaseUrl: undefined,
        dataDir,
        lockRetries: 1,
        onLockWait: (message) => waits.push(message),
      });
      await expect(patient).rejects.toBeInstanceOf(DatabaseInUseError);
      expect(waits).toEqual([expect.stringMatching(/locked by another Easy Form server; waiting/)]);
      expect(await first.query('select body from notes')).toEqual([{ body: 'kept' }]);
      await first.close();

      const next = await open();
      expect(await next.query('select body from notes')).toEqual([{ body: 'kept' }]);
      await next.close();

      // A server killed without closing leaves its lock behind; once it is stale, the next server takes over.
      const lockDir = `${join(dataDir, 'pgdata')}.lock`;
      await mkdir(lockDir);
      const longAgo = new Date(Date.now() - 60_000);
      await utimes(lockDir, longAgo, longAgo);
      const afterCrash = await open();
      expect(await afterCrash.query('select body from notes')).toEqual([{ body: 'kept' }]);
      await afterCrash.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
