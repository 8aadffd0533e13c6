// `npm run backup -- FILE`, `npm run restore -- FILE` and `npm run move-to-postgres` (docs/operations.md). They read
// the same environment as the server (DATA_DIR, DATABASE_URL, STORAGE_URL); messages go to stderr, so `-` can stand
// for stdout or stdin.
import { resolve } from 'node:path';
import { ConfigError, loadConfig } from '../config.ts';
import { SchemaTooNewError } from '../db/migrate.ts';
import { OperatorError } from './archive.ts';
import { backup } from './backup-command.ts';
import { moveToPostgres, restore } from './restore-command.ts';

const USAGE = `Usage:
  npm run backup -- FILE              write a backup of this instance (FILE.gz: compressed; -: to stdout)
  npm run restore -- FILE             restore a backup into this empty instance (-: from stdin)
  npm run restore -- --keep-files FILE  restore the database into an empty one beside the files already stored
  npm run move-to-postgres            copy this embedded instance into the empty PostgreSQL of DATABASE_URL
They use the server's settings: DATA_DIR, DATABASE_URL, STORAGE_URL (docs/operations.md).`;

async function main(): Promise<void> {
  const [command, ...given] = process.argv.slice(2);
  const keepFiles = command === 'restore' && given.includes('--keep-files');
  const [file, ...rest] = given.filter((arg) => !(keepFiles && arg === '--keep-files'));
  const needsFile = command === 'backup' || command === 'restore';
  if (
    !command ||
    (needsFile && (!file || rest.length > 0)) ||
    (!needsFile && command !== 'move-to-postgres')
  ) {
    console.error(USAGE);
    process.exit(2);
  }
  const config = loadConfig(process.env);
  // npm runs scripts in the project's folder; a file name is meant from where the command was typed.
  const path = file === '-' || file === undefined ? file : resolve(process.env.INIT_CWD ?? '.', file);
  if (command === 'backup') await backup(config, path!);
  else if (command === 'restore') await restore(config, path!, { keepFiles });
  else await moveToPostgres(config);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const known =
      error instanceof OperatorError || error instanceof ConfigError || error instanceof SchemaTooNewError;
    console.error(known ? (error as Error).message : error);
    process.exit(1);
  },
);
