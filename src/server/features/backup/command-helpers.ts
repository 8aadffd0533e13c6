// What the operator commands (cli.ts) share: their progress line, their summaries, and opening the embedded database.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseInUseError, openDatabase, type Database } from '../../db/database.ts';
import type { Config } from '../../runtime/config.ts';
import { OperatorError, type Manifest, type Progress } from './archive.ts';

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const count = (n: number) => n.toLocaleString('en');

/** One line on the terminal rewritten in place; on a pipe or a log, a line every few seconds. */
export function progressLine(): { show(text: string): void; done(): void } {
  let last = 0;
  const tty = process.stderr.isTTY;
  return {
    show(text) {
      const now = Date.now();
      if (now - last < (tty ? 200 : 5_000)) return;
      last = now;
      process.stderr.write(tty ? `\r\x1b[K${text}` : `${text}\n`);
    },
    done() {
      if (tty && last > 0) process.stderr.write('\r\x1b[K');
    },
  };
}

export const describeProgress = (
  verb: string,
  p: Progress,
  manifest: Pick<Manifest, 'files' | 'fileBytes'> | null,
) =>
  p.phase === 'database'
    ? `${verb}: database, ${count(p.rows)} rows…`
    : `${verb}: files, ${count(p.files)}${manifest ? ` of ${count(manifest.files)}` : ''} (${mb(p.fileBytes)}${
        manifest ? ` of ${mb(manifest.fileBytes)}` : ''
      })…`;

export const summary = (m: Manifest) =>
  `${count(m.rows.accounts ?? 0)} accounts, ${count(m.rows.forms ?? 0)} forms, ` +
  `${count(m.rows.submissions ?? 0)} submissions, ${count(m.files)} files (${mb(m.fileBytes)})`;

/** The embedded database of DATA_DIR; `existing`: refuse, rather than create one, where there is none. */
export async function openEmbedded(config: Config, why: string, existing = true): Promise<Database> {
  if (
    existing &&
    !(await access(join(config.dataDir, 'pgdata', 'PG_VERSION')).then(
      () => true,
      () => false,
    ))
  )
    throw new OperatorError(
      `There is no Easy Form database in ${config.dataDir} (DATA_DIR): nothing to copy.`,
    );
  try {
    return await openDatabase({ databaseUrl: undefined, dataDir: config.dataDir, lockRetries: 0 });
  } catch (error) {
    if (error instanceof DatabaseInUseError) throw new OperatorError(`${why}: ${error.message}`);
    throw error;
  }
}
