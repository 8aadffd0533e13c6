import { z } from 'zod';
import { FILE_KEY } from '../../storage/storage.ts';

/**
 * A backup is one tar file (docs/decisions/029-backup-and-restore.md), entries in this order:
 * 1. `easy-form-backup.json`: the manifest (versions, schema, row counts, the number and bytes of files);
 * 2. `database.sql`: every row, as plain SQL statements PostgreSQL's own tools (psql) read; a restore reads them as
 *    data and runs none of them (load-rows.ts);
 * 3. `files/<key>`: each stored file an upload row names, under its storage key;
 * 4. `end.json`: the files actually copied and those the store had lost; its absence means the archive is cut short.
 */
export const MANIFEST_ENTRY = 'easy-form-backup.json';
export const DATABASE_ENTRY = 'database.sql';
export const FILES_PREFIX = 'files/';
export const END_ENTRY = 'end.json';
export const FORMAT = 1;

/** Storage keys are random tokens (storage.ts newFileKey): nothing else is ever read as a file name. */
export const STORAGE_KEY = FILE_KEY;

export const ManifestSchema = z.object({
  format: z.literal(FORMAT),
  app: z.literal('easy-form'),
  appVersion: z.string().max(50),
  /** The migrations applied to the database backed up, in order: the schema its rows fit. */
  schema: z.array(z.string().max(200)).min(1),
  engine: z.enum(['pglite', 'postgres']),
  createdAt: z.string().max(50),
  rows: z.record(z.string(), z.number().int().nonnegative()),
  files: z.number().int().nonnegative(),
  fileBytes: z.number().int().nonnegative(),
});
export type Manifest = z.infer<typeof ManifestSchema>;

export const EndingSchema = z.object({
  files: z.number().int().nonnegative(),
  /** Files an upload row names that the store no longer had when the backup ran (lost before it). */
  missing: z.array(z.object({ uploadId: z.string().max(100), key: z.string().max(200) })),
});
export type Ending = z.infer<typeof EndingSchema>;

/** An upload row's file: what the backup copies and the restore checks. */
export type FileRef = { uploadId: string; key: string; size: number };

/** Where a backup or a restore is: told every few hundred rows or files. */
export type Progress = {
  phase: 'database' | 'files';
  rows: number;
  files: number;
  fileBytes: number;
};

/** Why a backup cannot be written or restored, in words for the operator: the CLI prints it and exits 1. */
export class OperatorError extends Error {}

export const cutShort = (detail: string) =>
  new OperatorError(`The backup is incomplete or damaged (${detail}); nothing was restored.`);
