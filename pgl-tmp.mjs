import { PGlite } from '@electric-sql/pglite';
const t0 = performance.now();
const db = await PGlite.create({ dataDir: process.argv[2], startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=64MB'] });
const t1 = performance.now();
await db.transaction(async (tx) => { await tx.query('select 1'); await tx.query('select name from schema_migrations'); });
const t2 = performance.now();
await db.query('select count(*) from submissions');
console.log('create', (t1 - t0).toFixed(0), 'first tx', (t2 - t1).toFixed(0), 'next', (performance.now() - t2).toFixed(0));
await db.close();
