import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createTestApp, TEST_ENGINE } from '../testing/test-app.ts';
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

/**
 * Another server process holding the embedded database in `dataDir` until it is killed. `underSleep`: its parent is a
 * `sleep` that never reaps it, so once killed it stays a zombie (as under a parent killed with it, until init reaps).
 */
async function holderProcess(dataDir: string, underSleep = false) {
  const database = fileURLToPath(new URL('./database.ts', import.meta.url));
  const node = [
    process.execPath,
    '--import',
    'tsx',
    '--input-type=module',
    '-e',
    `const { openDatabase } = await import(${JSON.stringify(database)});
     await openDatabase({ databaseUrl: undefined, dataDir: ${JSON.stringify(dataDir)}, lockRetries: 0 });
     console.log('holding', process.pid);
     setInterval(() => {}, 1000);`,
  ];
  const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;
  const child = underSleep
    ? spawn('sh', ['-c', `${node.map(quote).join(' ')} & exec sleep 120`], {
        stdio: ['ignore', 'pipe', 'inherit'],
      })
    : spawn(node[0] ?? '', node.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
  expect(chunk.toString()).toContain('holding');
  // Opening PGlite can hold up the holder's event loop for seconds on a busy machine, and with it the lock's refresh:
  // wait for a fresh refresh, so what follows meets a live lock, not one gone stale in the meantime.
  const lockDir = `${join(dataDir, 'pgdata')}.lock`;
  const startedAt = Date.now();
  while ((await stat(lockDir)).mtimeMs < startedAt) await new Promise((resolve) => setTimeout(resolve, 100));
  return { child, pid: Number(/holding (\d+)/.exec(chunk.toString())?.[1]) };
}

// Each starts another server process, whose engine starts on a thread of its own: seconds of CPU on a busy machine.
describe.runIf(TEST_ENGINE === 'pglite')(
  'after a crash of the embedded database’s server',
  { timeout: 90_000 },
  () => {
    it('takes the lock over at once from a process that is gone, and still refuses a live one', async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'easyform-takeover-'));
      try {
        const { child: alive } = await holderProcess(dataDir);
        // Alive: refused at once, however provable its record.
        await expect(
          openDatabase({ databaseUrl: undefined, dataDir, lockRetries: 0 }),
        ).rejects.toBeInstanceOf(DatabaseInUseError);
        alive.kill('SIGKILL');
        await once(alive, 'exit');

        // Gone: taken over with no wait at all (no retries allowed), saying so.
        const told: string[] = [];
        const next = await openDatabase({
          databaseUrl: undefined,
          dataDir,
          lockRetries: 0,
          onLockWait: (message) => told.push(message),
        });
        expect(told).toEqual([
          expect.stringMatching(/left locked by a server that is no longer running; taking it over/),
        ]);
        expect(await next.query('select 1 as ok')).toEqual([{ ok: 1 }]);
        await next.close();
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    });

    it.runIf(process.platform === 'linux')(
      'takes the lock over at once from a killed server its dead parent left a zombie',
      async () => {
        const dataDir = await mkdtemp(join(tmpdir(), 'easyform-takeover-'));
        const { child: sleeper, pid } = await holderProcess(dataDir, true);
        try {
          process.kill(pid, 'SIGKILL');
          const state = () => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
          while (state() !== 'Z') await new Promise((resolve) => setTimeout(resolve, 20));
          expect(() => process.kill(pid, 0)).not.toThrow(); // still there for a signal
          const next = await openDatabase({ databaseUrl: undefined, dataDir, lockRetries: 0 });
          expect(await next.query('select 1 as ok')).toEqual([{ ok: 1 }]);
          await next.close();
        } finally {
          sleeper.kill('SIGKILL');
          await rm(dataDir, { recursive: true, force: true });
        }
      },
    );

    it('does not take over a lock whose holder is on another machine (a shared disk), nor one it cannot vouch for', async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'easyform-takeover-'));
      const dir = join(dataDir, 'pgdata');
      try {
        await mkdir(`${dir}.lock`, { recursive: true });
        for (const holder of [
          { host: 'another-machine', pid: 999_999, run: 'x', lockIno: 0 },
          { host: 'garbage' },
          'not json',
        ]) {
          await writeFile(`${dir}.holder.json`, typeof holder === 'string' ? holder : JSON.stringify(holder));
          await expect(
            openDatabase({ databaseUrl: undefined, dataDir, lockRetries: 0 }),
          ).rejects.toBeInstanceOf(DatabaseInUseError);
        }
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  },
);
