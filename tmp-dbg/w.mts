import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
const dir = '/tmp/dbg-wal';
fs.rmSync(dir, { recursive: true, force: true });
const calls: Record<string, number> = {};
for (const name of ['writeSync', 'fsyncSync', 'fdatasyncSync', 'unlinkSync', 'renameSync', 'openSync', 'closeSync', 'truncateSync', 'ftruncateSync', 'writeFileSync']) {
  const orig = (fs as any)[name];
  (fs as any)[name] = (...args: any[]) => { const k = name + (typeof args[0] === 'string' && args[0].includes('pg_wal') ? ':wal' : ''); calls[k] = (calls[k] ?? 0) + 1; if (name==='unlinkSync'||name==='renameSync') console.log(name, args[0], args[1] ?? ''); return orig(...args); };
}
const db = await PGlite.create({ dataDir: dir });
console.log('after create', calls);
for (const k of Object.keys(calls)) delete calls[k];
console.log((await db.query("select pg_current_wal_lsn() as l, pg_walfile_name(pg_current_wal_lsn()) as f, current_setting('fsync') as fs, current_setting('full_page_writes') as fpw, current_setting('wal_segment_size') as seg, current_setting('max_wal_size') as mws, current_setting('checkpoint_timeout') as ct")).rows);
await db.exec('create table t (id serial primary key, v text)');
for (let i = 0; i < 2000; i++) await db.query('insert into t (v) values ($1)', ['x'.repeat(2000)]);
console.log('after inserts', calls, (await db.query("select pg_walfile_name(pg_current_wal_lsn()) as f")).rows, fs.readdirSync(dir + '/pg_wal'));
for (const k of Object.keys(calls)) delete calls[k];
await db.close();
console.log('after close', calls, fs.readdirSync(dir + '/pg_wal'));
