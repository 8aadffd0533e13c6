import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../testing/test-app.ts';
import { openDatabase, type Database } from './database.ts';
import { workerOptions } from './embedded-thread.ts';
import { isForeignKeyViolation } from './sql-errors.ts';

// The embedded engine of a data directory on disk runs on a thread of its own
// (docs/decisions/038-embedded-engine-on-its-own-thread.md); these are what the server's thread sees of it.
describe.runIf(TEST_ENGINE === 'pglite')('the embedded database on its own thread', () => {
  let dataDir: string;
  let db: Database;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'easyform-thread-'));
    db = await openDatabase({ databaseUrl: undefined, dataDir });
    await db.exec(`create table parent (id int primary key);
      create table child (id int primary key, parent int references parent (id), body bytea)`);
  });
  afterAll(async () => {
    await db.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('leaves the server’s thread free while a statement runs', async () => {
    const order: string[] = [];
    const slow = db.query('select pg_sleep(1.5)').then(() => order.push('statement'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    order.push('timer');
    await slow;
    expect(order).toEqual(['timer', 'statement']);
  });

  it('keeps bytes as bytes, both ways', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    await db.query('insert into parent values (1)');
    await db.query('insert into child values (1, 1, $1)', [bytes]);
    const [row] = await db.query<{ body: Uint8Array }>('select body from child where id = 1');
    expect(Buffer.from(row?.body ?? [])).toEqual(bytes);
  });

  it('gives PostgreSQL’s errors with their fields', async () => {
    const duplicate = await db.query('insert into parent values (1)').catch((error: unknown) => error);
    expect(duplicate).toBeInstanceOf(Error);
    expect(duplicate).toMatchObject({
      code: '23505',
      constraint: 'parent_pkey',
      detail: 'Key (id)=(1) already exists.',
      message: 'duplicate key value violates unique constraint "parent_pkey"',
    });
    const orphan = await db.query('insert into child values (2, 99, null)').catch((error: unknown) => error);
    expect(isForeignKeyViolation(orphan, 'child_parent_fkey')).toBe(true);
  });

  it('holds a transaction across statements, and other statements wait for its end', async () => {
    let outside: Promise<unknown[]> | undefined;
    await db.transaction(async (tx) => {
      await tx.query('insert into parent values (10)');
      outside = db.query('select id from parent where id in (10, 11) order by id');
      await tx.query('insert into parent values (11)');
    });
    expect(await outside).toEqual([{ id: 10 }, { id: 11 }]);
  });

  it('rolls a transaction back when its work throws, with the work’s own error', async () => {
    const failure = new Error('the work failed');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into parent values (20)');
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await db.query('select id from parent where id = 20')).toEqual([]);
  });
});

describe.runIf(TEST_ENGINE === 'pglite')('when the embedded database’s thread stops', () => {
  it('fails every later statement with a clear error instead of waiting for ever', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'easyform-thread-'));
    const db = await openDatabase({ databaseUrl: undefined, dataDir });
    try {
      // Someone took the directory's lock away: the thread stops before writing another page (data-dir-lock.ts).
      await rm(join(dataDir, 'pgdata.lock'), { recursive: true, force: true });
      let error: unknown;
      while (!error) {
        error = await db.query('select 1').then(
          () => undefined,
          (reason: unknown) => reason,
        );
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(String(error)).toMatch(/embedded database's thread stopped/);
      await expect(db.query('select 1')).rejects.toThrow(/embedded database's thread stopped/);
      await expect(db.transaction(async () => 1)).rejects.toThrow(/thread stopped/);
    } finally {
      await db.close().catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the embedded database thread’s options', () => {
  it('inherits the process’s options, but only its module loaders under --eval', () => {
    expect(workerOptions(['--liftoff-only', '--import', 'tsx'])).toBeUndefined();
    expect(
      workerOptions(['--liftoff-only', '--import', 'tsx', '--input-type=module', '--conditions=dev']),
    ).toEqual(['--import', 'tsx', '--conditions=dev']);
  });
});
