// The customer's side of submissions: each one validated against its form and written with others that arrive
// at the same moment (group commit), answered with its id once committed. docs/decisions/013-group-commit.md.
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { closedMessageOf, closedReasonOf } from '#common/form-gate.ts';
import type { Form } from '#common/forms.ts';
import type { Answers, SubmissionBody } from '#common/submissions.ts';
import { digest } from '../../../http/crypto.ts';
import { formClosed, HttpError, notFound } from '../../../http/errors.ts';
import type { SubmissionDeps } from '../deps.ts';
import * as repo from '../repository.ts';
import { acceptedRow } from './accepted-row.ts';
import { fileAnswersOf, judgeSubmission, sameAnswers, type Judged } from './answers.ts';
import { createBatcher, type Outcome } from './group-commit.ts';
import { storeAccepted, type Accepted } from './store.ts';

const formNotFound = () => notFound('This form does not exist or was deleted');

export type SubmitInput = {
  ownerId: string;
  body: SubmissionBody & { formStructureId: string };
  idempotencyKey: string | null;
  isBot: boolean;
};

/** The most submissions written in one transaction. */
const MAX_BATCH = 64;
/**
 * Batches written at once. Embedded: two. PGlite runs its queries one at a time on this thread, but a batch's WAL
 * flush (ADR 007) is a wait on the disk: a second writer fills its batch meanwhile. PostgreSQL: one. Every batch
 * updates the same rows (the form's count and its Results counters), so a second batch only waited for the first
 * one's row locks until its commit, flush included, and made the batches smaller: measured with durable commits,
 * 1,778 and 2,034 req/s with one writer against 1,154 and 1,196 with two (docs/decisions/013-group-commit.md,
 * addendum of 2026-11-25).
 */
const writersFor = (engine: SubmissionDeps['db']['kind']) => (engine === 'postgres' ? 1 : 2);

/**
 * Takes submissions and answers each with its id once it is committed. Submissions that arrive while a batch is
 * being written go together in the next transaction (docs/decisions/013-group-commit.md).
 */
export function createSubmitter(deps: SubmissionDeps): (input: SubmitInput) => Promise<string> {
  const cache: FormCache = new LRUCache({ max: FORM_CACHE_SIZE });
  const batcher = createBatcher<SubmitInput, string>((inputs) => writeBatch(deps, cache, inputs), {
    maxBatch: MAX_BATCH,
    writers: writersFor(deps.db.kind),
  });
  const track = deps.trackWait ?? ((work) => work);
  return (input) => track(batcher.add(input));
}

/** Forms kept in memory by the submission writer (the most recently used), each with the version it was read at. */
const FORM_CACHE_SIZE = 1000;
type VersionedForm = { form: Form; version: number };
type FormCache = LRUCache<string, VersionedForm>;

const failed = (error: unknown): Outcome<string> => ({ ok: false, error });
/** Answers sent under a key whose first answers, other ones, are stored. */
export const ALREADY_SENT_MESSAGE =
  'These answers were sent before with other ones, and the first ones were kept. Send again to send these as a new response.';
const alreadySent = () => new HttpError(409, 'ALREADY_SENT', ALREADY_SENT_MESSAGE);
const done = (value: string): Outcome<string> => ({ ok: true, value });

/**
 * Writes the batch together. If it fails as a whole (a file claimed by a concurrent submission, a database error),
 * nothing of it is kept and each submission is written again on its own, so one bad submission never fails the
 * others and each gets its own answer.
 */
async function writeBatch(
  deps: SubmissionDeps,
  cache: FormCache,
  inputs: SubmitInput[],
): Promise<Outcome<string>[]> {
  try {
    return await writeWithCache(deps, cache, inputs);
  } catch (error) {
    if (inputs.length === 1) return [failed(error)];
    deps.log.warn(
      { err: error, size: inputs.length },
      'batch of submissions failed as a whole; writing one by one',
    );
    const outcomes: Outcome<string>[] = [];
    for (const input of inputs) outcomes.push(...(await writeBatch(deps, cache, [input])));
    return outcomes;
  }
}

/**
 * First with the forms in memory: a row checked against a form that has changed since is not inserted (the insert
 * compares versions). Every submission whose answer a cached form decided other than by storing it (refused, or not
 * inserted) is written again against the form read afresh, so no answer ever comes from an out-of-date form.
 */
async function writeWithCache(
  deps: SubmissionDeps,
  cache: FormCache,
  inputs: SubmitInput[],
): Promise<Outcome<string>[]> {
  const first = await writeTogether(deps, cache, inputs, true);
  if (first.recheck.length === 0) return first.outcomes;
  for (const index of first.recheck) cache.delete(inputs[index]?.body.formStructureId ?? '');
  const again = await writeTogether(
    deps,
    cache,
    first.recheck.map((index) => inputs[index] as SubmitInput),
    false,
  );
  first.recheck.forEach((index, k) => {
    first.outcomes[index] = again.outcomes[k] ?? failed(new Error('submission left without an answer'));
  });
  return first.outcomes;
}

/** The batch's forms: from memory when `useCache` and known, else read (and remembered). */
async function loadForms(
  deps: SubmissionDeps,
  cache: FormCache,
  formIds: readonly string[],
  useCache: boolean,
): Promise<Map<string, VersionedForm & { cached: boolean }>> {
  const forms = new Map<string, VersionedForm & { cached: boolean }>();
  const missing: string[] = [];
  for (const id of formIds) {
    const hit = useCache ? cache.get(id) : undefined;
    if (hit) forms.set(id, { ...hit, cached: true });
    else missing.push(id);
  }
  if (missing.length > 0) {
    for (const read of await deps.forms.findVersioned(missing)) {
      cache.set(read.form._id, read);
      forms.set(read.form._id, { ...read, cached: false });
    }
  }
  return forms;
}

/**
 * A submission with an idempotency key that was not inserted: if its key is stored, it is a retry. `sent`: its
 * answers as read now, when they could be read, to tell a retry from other answers sent under the same key.
 */
type Unwritten = {
  index: number;
  formId: string;
  key: string;
  outcome: Outcome<string>;
  sent?: { form: Form; answers: Answers };
};

/**
 * Validates every submission against its form as it is now and stores the valid ones with one statement, which
 * also counts them on their forms; only a batch that claims uploads needs a transaction around its statements.
 * A submission's own mistake (unknown form, invalid answer) is its outcome, not the batch's failure.
 *
 * Idempotency needs no lookup before the insert: the unique (form, key) index skips a row whose key is stored,
 * and only submissions that were not inserted (a retry, or one refused now) are looked up, to answer the first
 * id: a retry gets it even if the form has changed or closed since.
 */
async function writeTogether(
  deps: SubmissionDeps,
  cache: FormCache,
  inputs: SubmitInput[],
  useCache: boolean,
): Promise<{ outcomes: Outcome<string>[]; recheck: number[] }> {
  const outcomes: (Outcome<string> | undefined)[] = new Array<Outcome<string> | undefined>(inputs.length);
  const formIds = [...new Set(inputs.map((i) => i.body.formStructureId))];
  const forms = await loadForms(deps, cache, formIds, useCache);
  const now = new Date();
  const closedMessage = (form: Form, reason: Parameters<typeof closedMessageOf>[1]) =>
    closedMessageOf(form.settings, reason, deps.timeZone);
  /** Answers decided by a cached form other than by storing the row: to be written again with the form read afresh. */
  const recheck = new Set<number>();

  /** The first submission of this batch with a key, which later ones with the same key follow. */
  const leaders = new Map<string, number>();
  const followers: { index: number; leader: number }[] = [];
  const unwritten: Unwritten[] = [];
  const refuse = (
    index: number,
    error: unknown,
    key: { formId: string; key: string } | null,
    sent?: Unwritten['sent'],
  ) => {
    outcomes[index] = failed(error);
    if (forms.get(inputs[index]?.body.formStructureId ?? '')?.cached) recheck.add(index);
    else if (key) unwritten.push({ index, ...key, outcome: failed(error), ...(sent ? { sent } : {}) });
  };

  const valid: {
    index: number;
    form: Form;
    version: number | null;
    answers: Answers;
    judged: Judged;
    files: ReturnType<typeof fileAnswersOf>;
    key: { formId: string; key: string } | null;
  }[] = [];
  inputs.forEach((input, index) => {
    const found = forms.get(input.body.formStructureId);
    if (!found) return refuse(index, formNotFound(), null);
    const { form } = found;
    if (input.isBot) {
      // Answer like a success so the bot learns nothing; store nothing (docs/decisions/009-submission-ingest.md).
      deps.log.info({ formId: form._id }, 'honeypot filled; submission dropped');
      outcomes[index] = done(randomUUID());
      return;
    }
    if (form.ownerIdAsStructureId !== input.ownerId) {
      return refuse(
        index,
        new HttpError(
          400,
          'VALIDATION_FAILED',
          'ownerId: This link does not match the form; ask the owner for a new link',
        ),
        null,
      );
    }
    const key = input.idempotencyKey ? { formId: form._id, key: input.idempotencyKey } : null;
    if (key) {
      const keyId = repo.idempotencyIdOf(key.formId, key.key);
      const leader = leaders.get(keyId);
      if (leader !== undefined) {
        followers.push({ index, leader });
        return;
      }
      leaders.set(keyId, index);
    }
    try {
      // The response limit is not checked here: it is counted under the form's lock as the rows are stored.
      const closed = closedReasonOf(form, now);
      if (closed) throw formClosed(closedMessage(form, closed));
      const judged = judgeSubmission(form, input.body);
      const { answers } = judged;
      // Only a row checked against a cached form needs the insert to confirm the form has not changed.
      const version = found.cached ? found.version : null;
      valid.push({ index, form, version, answers, judged, files: fileAnswersOf(form, answers), key });
    } catch (error) {
      refuse(index, error, key);
    }
  });

  const secrets = valid.flatMap((v) => v.files.map((f) => digest(f.answer.deleteId)));
  const uploads = secrets.length > 0 ? await deps.files.findBySecret(deps.db, secrets) : [];
  const bySecret = new Map(uploads.map((u) => [u.secretHash, u]));
  const accepted: Accepted[] = [];
  for (const { index, form, version, answers, judged, files, key } of valid) {
    try {
      accepted.push({
        index,
        ...acceptedRow(form, version, judged, files, bySecret, inputs[index]?.idempotencyKey),
      });
    } catch (error) {
      // A retry's files were claimed by its first send: refused here, answered by the key below.
      refuse(index, error, key, { form, answers });
    }
  }

  const limited = new Set(valid.filter((v) => v.form.settings.responseLimit !== null).map((v) => v.form._id));
  const { inserted, full } = await storeAccepted(deps, accepted, limited);
  if (inserted.size > 0) deps.onStored?.();

  const sentOf = new Map(valid.map((v) => [v.index, { form: v.form, answers: v.answers }]));
  for (const a of accepted) {
    if (inserted.has(a.row.id)) outcomes[a.index] = done(a.row.id);
    else if (full.has(a.index)) {
      const form = forms.get(a.row.formId)?.form;
      outcomes[a.index] = failed(formClosed(form ? closedMessage(form, 'full') : undefined));
    } else if (a.row.formVersion !== null) recheck.add(a.index);
    else
      unwritten.push({
        index: a.index,
        formId: a.row.formId,
        key: a.row.idempotencyKey ?? '',
        outcome: failed(new Error('idempotent insert found neither a new nor an old row')),
        sent: sentOf.get(a.index),
      });
  }
  // Skipped on insert, or refused now: a key already stored means a retry, which answers the first id.
  const stored = await repo.findByIdempotencyKeys(deps.db, unwritten);
  for (const u of unwritten) {
    const first = stored.get(repo.idempotencyIdOf(u.formId, u.key));
    if (!first) outcomes[u.index] = u.outcome;
    // Other answers under a stored key (a page sent, then changed after Back and sent again): saying "sent" would
    // drop the changes unseen. The first answers stay; the customer is told, and may send the new ones anew.
    else if (u.sent && !sameAnswers(u.sent.form, u.sent.answers, first.answers)) {
      outcomes[u.index] = failed(alreadySent());
    } else outcomes[u.index] = done(first.id);
  }
  for (const { index, leader } of followers) {
    if (recheck.has(leader)) recheck.add(index);
    else outcomes[index] = outcomes[leader];
  }
  return {
    outcomes: outcomes.map((o) => o ?? failed(new Error('submission left without an answer'))),
    recheck: [...recheck].sort((a, b) => a - b),
  };
}
