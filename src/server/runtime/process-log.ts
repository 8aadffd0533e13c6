// The log lines a process writes outside a request: the cluster primary's, a wait before the app exists, Node's own
// warnings. JSON lines of the same shape as the app's (Fastify logs with the same library), so that a log reader
// parses every line of the service (docs/decisions/040).
import { pino, type Logger } from 'pino';

export type ProcessLog = Pick<Logger, 'info' | 'warn' | 'error'>;

export const processLog = (level: string): Logger => pino({ level });

/**
 * Node's warnings (a deprecation, a library's notice such as the AWS SDK's about Node versions) as warning lines of
 * `log`, instead of Node's own plain text on stderr: Node prints them through its one listener, replaced here.
 */
export function logProcessWarnings(log: ProcessLog): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning) => log.warn({ warning: warning.name }, warning.message));
}
