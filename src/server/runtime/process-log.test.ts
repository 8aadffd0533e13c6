// Node's own warnings, such as the one the AWS SDK gives through Node about its runtime, are lines of the service's
// JSON log, not Node's plain text among them (docs/decisions/040).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const processLogFile = fileURLToPath(new URL('./process-log.ts', import.meta.url));

describe('the process log', () => {
  it('writes a library’s warning as one JSON warning line', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { logProcessWarnings, processLog } = await import(${JSON.stringify(processLogFile)});
         logProcessWarnings(processLog('info'));
         process.emitWarning('The AWS SDK for JavaScript (v3) will no longer support this Node.js version', {
           type: 'NodeVersionWarning',
         });`,
      ],
      { encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      level: 40,
      warning: 'NodeVersionWarning',
      msg: 'The AWS SDK for JavaScript (v3) will no longer support this Node.js version',
    });
  });
});
