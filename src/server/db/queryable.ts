// The data-access surface every engine satisfies (docs/decisions/001-plain-sql-data-access.md).

export type Row = Record<string, unknown>;

/** The one data-access surface both drivers satisfy: parameterised SQL in, rows out. */
export interface Queryable {
  /**
   * `options.prepare` names a hot statement: on PostgreSQL each connection then parses and plans it once and reuses
   * the plan (a named prepared statement); the embedded engine prepares it once for its one session, when every
   * parameter is text, a number or a boolean (src/server/db/embedded-prepared.ts). Give a name only to a fixed SQL text.
   */
  query<T extends Row = Row>(
    sql: string,
    params?: readonly unknown[],
    options?: { prepare?: string },
  ): Promise<T[]>;
  /**
   * Runs a text of several statements, without parameters (a migration file). Both drivers send it by the simple
   * query protocol, so PostgreSQL's own parser splits it: `;` or `--` inside a string or function body stay.
   */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** PostgreSQL's pool: connections open, idle, and requests waiting for one; null on the embedded engine. */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
