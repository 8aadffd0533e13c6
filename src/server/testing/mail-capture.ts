import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type CapturedMail = { from: string; to: string[]; subject: string; text: string; html: string };

/** A real SMTP server on 127.0.0.1 that keeps what it receives, for integration and browser tests. */
export type MailCapture = {
  url: string;
  mails: CapturedMail[];
  /** Resolves with the first mail to `to` (received after `since` mails were seen), or rejects after `timeoutMs`. */
  waitFor(to: string, options?: { since?: number; timeoutMs?: number }): Promise<CapturedMail>;
  /**
   * The next `count` messages are refused: with a temporary SMTP error (451), as a struggling mail server would, or
   * for good (`'permanent'`: 550, as for a mailbox that does not exist).
   */
  refuseNext(count: number, kind?: 'temporary' | 'permanent'): void;
  close(): Promise<void>;
};

export async function startMailCapture(): Promise<MailCapture> {
  const mails: CapturedMail[] = [];
  const waiters = new Set<() => void>();
  let toRefuse = 0;
  let refusal = { message: 'mailbox busy, try later', responseCode: 451 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // close() ends what a sender's pooled connection still holds open at once (421), as a mail server going away
    // does, instead of waiting 30 s for the sender to hang up: a test that closes its capture is done with it.
    closeTimeout: 100,
    onData(stream, _session, callback) {
      if (toRefuse > 0) {
        toRefuse--;
        stream.resume();
        stream.on('end', () =>
          callback(Object.assign(new Error(refusal.message), { responseCode: refusal.responseCode })),
        );
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          const to = [parsed.to ?? []]
            .flat()
            .flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase()));
          mails.push({
            from: parsed.from?.text ?? '',
            to,
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: parsed.html || '',
          });
          for (const wake of waiters) wake();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('SMTP capture did not get a port');

  return {
    url: `smtp://127.0.0.1:${address.port}`,
    mails,
    waitFor(to, { since = 0, timeoutMs = 10_000 } = {}) {
      const want = to.toLowerCase();
      const find = () => mails.slice(since).find((m) => m.to.includes(want));
      return new Promise((resolve, reject) => {
        const check = () => {
          const mail = find();
          if (!mail) return false;
          clearTimeout(timer);
          waiters.delete(onMail);
          resolve(mail);
          return true;
        };
        const onMail = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(onMail);
          reject(new Error(`no mail to ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        if (!check()) waiters.add(onMail);
      });
    },
    refuseNext(count, kind = 'temporary') {
      toRefuse = count;
      refusal =
        kind === 'permanent'
          ? { message: 'mailbox unavailable', responseCode: 550 }
          : { message: 'mailbox busy, try later', responseCode: 451 };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
