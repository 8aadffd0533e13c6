import type { Queryable } from '../../db/database.ts';

/** A table a backup holds: its columns in order, and those a sequence numbers (bigserial). */
export type TableShape = { name: string; columns: string[]; serial: string[] };

/**
 * Every table of the app's schema that holds data worth keeping, parents before children (a foreign key's target
 * first), so loading them in this order never breaks a reference. Left out: `schema_migrations` (a restore writes its
 * own) and unlogged tables (rate-limit counters, which are transient by design).
 */
export async function tablesInLoadOrder(db: Queryable): Promise<TableShape[]> {
  const tables = await db.query<{ name: string; columns: string[]; serial: string[] }>(
    `select c.relname as name,
            array_agg(a.attname::text order by a.attnum) as columns,
            array_agg(a.attname::text order by a.attnum)
              filter (where pg_get_serial_sequence(quote_ident(c.relname), a.attname) is not null) as serial
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = current_schema() and c.relkind = 'r' and c.relpersistence = 'p'
        and c.relname <> 'schema_migrations'
      group by c.relname
      order by c.relname`,
  );
  const references = await db.query<{ child: string; parent: string }>(
    `select child.relname as child, parent.relname as parent
       from pg_constraint k
       join pg_class child on child.oid = k.conrelid
       join pg_class parent on parent.oid = k.confrelid
       join pg_namespace n on n.oid = child.relnamespace
      where k.contype = 'f' and n.nspname = current_schema() and child.oid <> parent.oid`,
  );
  const byName = new Map(tables.map((t) => [t.name, { ...t, serial: t.serial ?? [] }]));
  const ordered: TableShape[] = [];
  const placed = new Set<string>();
  const place = (name: string, path: string[]) => {
    if (placed.has(name)) return;
    if (path.includes(name)) throw new Error(`foreign keys form a cycle: ${[...path, name].join(' → ')}`);
    for (const r of references)
      if (r.child === name && byName.has(r.parent)) place(r.parent, [...path, name]);
    const table = byName.get(name);
    if (table) ordered.push(table);
    placed.add(name);
  };
  for (const t of tables) place(t.name, []);
  return ordered;
}

/** A name as SQL writes it: always quoted, so no name is ever read as a keyword or another table's. */
export const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Rows in every table that a restore refuses to overwrite: all but the server's settings (created at any start). */
export async function rowsHeld(db: Queryable): Promise<Record<string, number>> {
  const held: Record<string, number> = {};
  for (const table of await tablesInLoadOrder(db)) {
    if (table.name === 'app_settings') continue;
    const [row] = await db.query<{ n: number }>(`select count(*)::int as n from ${ident(table.name)}`);
    if (row && row.n > 0) held[table.name] = row.n;
  }
  return held;
}
