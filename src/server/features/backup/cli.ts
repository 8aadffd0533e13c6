// `npm run backup -- FILE`, `npm run restore -- FILE` and `npm run move-to-postgres` (docs/operations.md). They read
// the same environment as the server (DATA_DIR, DATABASE_URL, STORAGE_URL); messages go to stderr, so `-` can stand
// for stdout or stdin.
import { resolve } from 'node:path';
import { DatabaseInUseError, openDatabase } from '../../db/database.ts';
import { SchemaTooNewError } from '../../db/migrate.ts';
import { unavailableOf } from '../../http/unavailable.ts';
import { ConfigError, loadConfig, StartupError, type Config } from '../../runtime/config.ts';
import { OperatorError } from './archive.ts';
import { backup } from './backup-command.ts';
import { openEmbedded } from './command-helpers.ts';
import { moveToPostgres, restore } from './restore-command.ts';
import { rotateSecrets } from './rotate-secrets.ts';

const USAGE = `Usage:
  npm run backup -- FILE              write a backup of this instance (FILE.gz: compressed; -: to stdout)
  npm run restore -- FILE             restore a backup into this empty instance (-: from stdin)
  npm run restore -- --keep-files FILE  restore the database into an empty one beside the files already stored
  npm run move-to-postgres            copy this embedded instance into the empty PostgreSQL of DATABASE_URL
  npm run rotate-secrets              new server keys, and every session, trusted device and reset link revoked
They use the server's settings: DATA_DIR, DATABASE_URL, STORAGE_URL (docs/operations.md).`;

async function rotate(config: Config): Promise<void> {
  const db = config.databaseUrl
    ? await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
    : await openEmbedded(config, 'Stop the server first: it keeps the old keys while it runs');
  try {
    const done = await rotateSecrets(db);
    console.error(
      `Rotated ${done.keys} server keys (file links, address digests, rate limits); revoked ${done.sessions} ` +
        `sessions, ${done.trusted_devices} trusted devices and ${done.password_reset_codes} reset links. ` +
        'Every owner signs in again. Start (or restart) every server process now: a running one keeps the old keys.',
    );
  } finally {
    await db.close();
  }
}

/** What stopped a command, in one line: the operator's mistake or a service away, never a stack; null for a bug. */
function oneLine(error: unknown): string | null {
  if (
    error instanceof OperatorError ||
    error instanceof ConfigError ||
    error instanceof SchemaTooNewError ||
    error instanceof StartupError ||
    error instanceof DatabaseInUseError
  )
    return error.message;
  const away = unavailableOf(error);
  return away ? `Stopped: ${away.service} unavailable: ${away.reason}. Nothing was changed.` : null;
}

async function main(): Promise<void> {
  const [command, ...given] = process.argv.slice(2);
  const keepFiles = command === 'restore' && given.includes('--keep-files');
  const [file, ...rest] = given.filter((arg) => !(keepFiles && arg === '--keep-files'));
  const needsFile = command === 'backup' || command === 'restore';
  if (
    !command ||
    (needsFile && (!file || rest.length > 0)) ||
    (!needsFile && command !== 'move-to-postgres' && command !== 'rotate-secrets')
  ) {
    console.error(USAGE);
    process.exit(2);
  }
  const config = loadConfig(process.env);
  // npm runs scripts in the project's folder; a file name is meant from where the command was typed.
  const path = file === '-' || file === undefined ? file : resolve(process.env.INIT_CWD ?? '.', file);
  if (command === 'backup') await backup(config, path!);
  else if (command === 'restore') await restore(config, path!, { keepFiles });
  else if (command === 'rotate-secrets') await rotate(config);
  else await moveToPostgres(config);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(oneLine(error) ?? error);
    process.exit(1);
  },
);
