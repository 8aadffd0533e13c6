// What a failed statement's SQLSTATE says, on PostgreSQL and PGlite alike.

/**
 * A row whose foreign key names no row (23503): the row it names is gone, or never was. With `constraint`, only a
 * violation of that constraint.
 */
export const isForeignKeyViolation = (error: unknown, constraint?: string): boolean => {
  const { code, constraint: violated } = (error ?? {}) as { code?: unknown; constraint?: unknown };
  return code === '23503' && (constraint === undefined || violated === constraint);
};
