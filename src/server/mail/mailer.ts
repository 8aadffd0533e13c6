import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import { truncateText } from '#common/unstorable-text.ts';
import type { Database, Queryable } from '../db/database.ts';
import { deleteInBatches } from '../db/prune.ts';
import { logJobFailure } from '../http/unavailable.ts';
import { createDrainLoop } from '../runtime/drain-loop.ts';

export type Mail = { to: string; subject: string; text: string; html?: string };

export interface Mailer {
  /** Stores the mail in the outbox inside the caller's transaction, so it is sent exactly when that commits. */
  enqueue(tx: Queryable, mail: Mail): Promise<void>;
  /** Sends what is due now; call it after the enqueuing transaction committed. Never throws. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

type OutboxRow = {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  attempts: number;
};

const POLL_MS = 15_000;
/**
 * SMTP timeouts (nodemailer's defaults are 2 minutes to connect and 10 minutes of silence): together they bound one
 * send to well under a claim, so a mail is never sent by a second process while the first is still at it.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };
// A claimed mail is invisible to other senders this long; a process that dies mid-send leaves it to be retried.
const CLAIM_SECONDS = 120;
const MAX_BACKOFF_SECONDS = 3600;
/** A mail still not accepted this long after it was queued is given up. */
export const GIVE_UP_SECONDS = 24 * 3600;

type SmtpError = { code?: unknown; command?: unknown; responseCode?: unknown };

/**
 * What a failed send says. `refused`: the SMTP server refused this mail itself for good (5xx to its recipient or its
 * content, or nodemailer found the address unusable): sending again would get the same answer. `server`: the
 * connection, TLS, greeting, login or sender address failed — a setting (SMTP_URL, MAIL_FROM) or an outage, the same
 * for every mail, so the mail waits and is retried with backoff however long it takes, never given up. `temporary`:
 * the server refused this mail for now (4xx).
 */
export function classifySmtpError(error: unknown): 'refused' | 'server' | 'temporary' {
  const { code, command, responseCode } = (error ?? {}) as SmtpError;
  const permanent = typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600;
  if (command === 'RCPT TO' || command === 'DATA') return permanent ? 'refused' : 'temporary';
  // nodemailer's own checks of this mail (no recipient, an address it cannot use, an empty or too large message).
  if ((code === 'EENVELOPE' || code === 'EMESSAGE') && (command === 'API' || !responseCode)) return 'refused';
  return 'server';
}

/** SMTP_URL as the log may show it: scheme, user, host and port, never the password. */
export function describeSmtpUrl(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
    return `${url.protocol}//${user}${url.host}`;
  } catch {
    return 'SMTP_URL';
  }
}

/** One log line for a failure that is the server's or the setting's, not this mail's. */
function serverProblem(error: unknown, smtpUrl: string): string {
  const { code, command } = (error ?? {}) as SmtpError;
  const where = `SMTP_URL (${describeSmtpUrl(smtpUrl)})`;
  if (code === 'EAUTH' || (typeof command === 'string' && command.startsWith('AUTH')))
    return `the SMTP server refused the login: check the user and password in ${where}; mail waits and is retried`;
  if (command === 'MAIL FROM')
    return `the SMTP server refused the sender address (MAIL_FROM) from ${where}; mail waits and is retried`;
  if (code === 'ETLS' || code === 'EREQUIRETLS')
    return `TLS with the SMTP server failed (${where}); mail waits and is retried`;
  return `the SMTP server could not be reached or did not answer (${where}); mail waits and is retried`;
}

/**
 * The outbox (table mail_outbox) makes mail durable: a mail that fails to send is logged with the reason and retried
 * with backoff, never dropped, and its body is blanked once sent. Without SMTP_URL each mail is printed as one log
 * line, link or code included; with SMTP_URL no body is ever logged.
 */
export function createMailer(options: {
  db: Database;
  smtpUrl: string | undefined;
  from: string;
  log: FastifyBaseLogger;
}): Mailer {
  const { db, log } = options;
  const transport = options.smtpUrl
    ? nodemailer.createTransport({ url: options.smtpUrl, pool: true, maxConnections: 1, ...SMTP_TIMEOUTS })
    : undefined;

  /** Aborted by close(): a send under way then stops, and its mail is left due for the next start (or process). */
  const shutdown = new AbortController();

  async function deliver(row: OutboxRow): Promise<void> {
    if (!transport) {
      log.info(
        { mail: { to: row.to_address, subject: row.subject } },
        `mail: ${row.text_body.replace(/\s+/g, ' ').trim()}`,
      );
      return;
    }
    await transport.sendMail({
      from: options.from,
      to: row.to_address,
      subject: row.subject,
      text: row.text_body,
      ...(row.html_body ? { html: row.html_body } : {}),
      signal: shutdown.signal,
    });
  }

  /**
   * Claims the next due mail and sends it; true when there may be more. One mail per claim: its send is bounded by
   * SMTP_TIMEOUTS, far inside the claim, however slow the mails before it were. `skip locked` lets other processes
   * claim other mails at the same time, never this one.
   */
  async function sendNext(): Promise<boolean> {
    const [row] = await db.query<OutboxRow>(
      `update mail_outbox set next_attempt_at = now() + make_interval(secs => $1)
        where id = (select id from mail_outbox
                     where sent_at is null and failed_at is null and next_attempt_at <= now()
                     order by next_attempt_at limit 1 for update skip locked)
        returning id, to_address, subject, text_body, html_body, attempts`,
      [CLAIM_SECONDS],
    );
    if (!row) return false;
    try {
      await deliver(row);
      // The body carries the verification link or reset code; once it is out, the database keeps only who was
      // mailed what and when, so a copy of the database yields no usable secret (ADR 006, addendum in ADR 005).
      await db.query(
        `update mail_outbox set sent_at = now(), attempts = attempts + 1, last_error = null,
                text_body = '', html_body = null
          where id = $1`,
        [row.id],
      );
    } catch (error) {
      if (shutdown.signal.aborted) {
        // Stopped by the shutdown, not refused: due again at once, for whichever process runs next; no attempt counted.
        await db.query('update mail_outbox set next_attempt_at = now() where id = $1 and sent_at is null', [
          row.id,
        ]);
        log.info({ mailId: row.id }, 'mail send interrupted by the shutdown; it will be sent later');
        return false;
      }
      const reason = error instanceof Error ? error.message : String(error);
      const kind = classifySmtpError(error);
      const delay = Math.min(MAX_BACKOFF_SECONDS, 15 * 2 ** row.attempts);
      // Given up for its age by the database's clock, the one every process shares (not this process's): a mail
      // still refused for now whose next attempt would come more than GIVE_UP_SECONDS after it was queued. A login,
      // connection or TLS failure is the setting's, not this mail's: it is never given up for it.
      const [marked] = await db.query<{ given_up: boolean }>(
        `update mail_outbox m set attempts = m.attempts + 1, last_error = $2,
                next_attempt_at = now() + make_interval(secs => $3::double precision),
                failed_at = case when g.give_up then now() end,
                text_body = case when g.give_up then '' else m.text_body end,
                html_body = case when g.give_up then null else m.html_body end
           from (select id, $4::boolean or ($5::boolean and extract(epoch from now() - created_at)::double precision
                          + $3::double precision > $6::double precision) as give_up
                   from mail_outbox where id = $1) g
          where m.id = g.id
          returning g.give_up as given_up`,
        [
          row.id,
          truncateText(reason, 1000),
          delay,
          kind === 'refused',
          kind === 'temporary',
          GIVE_UP_SECONDS,
        ],
      );
      const giveUp = marked?.given_up ?? kind === 'refused';
      const context = { mailId: row.id, to: row.to_address, attempt: row.attempts + 1, reason };
      // A mail given up keeps who it was for and why, not its body (the same rule as a sent one).
      if (giveUp) log.error(context, 'mail given up: the SMTP server refused it for good, or for a day');
      else if (kind === 'server')
        log.error({ ...context, retryInSeconds: delay }, serverProblem(error, options.smtpUrl ?? ''));
      else log.warn({ ...context, retryInSeconds: delay }, 'mail not sent; will retry');
      // The next mail would meet the same login or connection failure: leave the rest of the outbox for the next poll.
      if (kind === 'server') return false;
    }
    return true;
  }

  const loop = createDrainLoop(sendNext, (error) =>
    logJobFailure(log, error, 'mail outbox could not be read; will retry'),
  );
  const flush = loop.run;

  const timer = setInterval(() => void flush(), POLL_MS);
  timer.unref();

  return {
    async enqueue(tx, mail) {
      await tx.query(
        'insert into mail_outbox (to_address, subject, text_body, html_body) values ($1, $2, $3, $4)',
        [mail.to, mail.subject, mail.text, mail.html ?? null],
      );
    },
    flush,
    async close() {
      clearInterval(timer);
      // A send under way (a slow or silent SMTP server can take its timeouts, 10 s and more) is stopped, not awaited:
      // its mail is left due, so the shutdown stays inside its 10 s.
      shutdown.abort();
      await loop.stop();
      transport?.close();
    },
  };
}

/**
 * Deletes mail sent more than `keepMs` ago by the database's clock (its body was blanked on sending; only the envelope
 * is left); how many.
 */
export const deleteSentMail = (db: Queryable, keepMs: number): Promise<number> =>
  deleteInBatches(db, 'mail_outbox', 'sent_at < now() - make_interval(secs => $1::double precision / 1000)', [
    keepMs,
  ]);
