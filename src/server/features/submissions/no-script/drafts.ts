// The drafts of a form page posted without JavaScript (post/redirect/get, docs/decisions/024): every post answers
// 303 to a page drawn from the draft it kept, so Reload and Back fetch a page and never send the answers again. A
// draft is found by a random key only the customer's browser has (in the address it was sent to); the database
// keeps its digest. Migration 022.
import { createHash, randomBytes } from 'node:crypto';
import { LONG_TEXT_ANSWER_MAX } from '#common/answer-limits.ts';
import type { Form } from '#common/forms.ts';
import { asFileList } from '#common/kinds/file-rules.ts';
import { gridInputsOf } from '#common/kinds/grid-kind.ts';
import type { FileAnswer } from '#common/submissions.ts';
import type { Queryable } from '../../../db/database.ts';
import { deleteInBatches } from '../../../db/prune.ts';
import { hiddenInputName, type FormState, type SentValues } from '../../../pages/customer-form-html.ts';

/** How long a draft is kept: a customer who leaves the page for a day starts again from an empty form. */
export const DRAFT_TTL_MS = 24 * 60 * 60_000;
/** A draft's key as it appears in the address: 256 random bits, base64url. */
export const DRAFT_KEY = /^[\w-]{43}$/;

const digestOf = (key: string) => createHash('sha256').update(key).digest('base64url');

/** The answers a draft keeps: only the form's own questions, each as long as the longest answer the form takes. */
function keptValues(form: Form, values: SentValues): SentValues {
  const ids = [
    ...form.textField,
    ...form.selectField,
    ...form.radioField,
    ...form.checkField,
    ...form.moreField,
  ]
    .map((f) => f._id)
    .concat(gridInputsOf(form.moreField), form.hiddenFields.map(hiddenInputName));
  return Object.fromEntries(
    ids.flatMap((id) => {
      const sent = values[id];
      return sent ? [[id, sent.map((v) => v.slice(0, LONG_TEXT_ANSWER_MAX))]] : [];
    }),
  );
}

/** A page's state as a draft keeps it: with a form with pages, the files chosen so far, kept as uploads. */
export type DraftState = FormState & { files?: Readonly<Record<string, FileAnswer[]>> };

/** The files a draft keeps: only the form's own file questions'. */
const keptFiles = (form: Form, files: DraftState['files'] = {}) =>
  Object.fromEntries(form.fileField.flatMap((f) => (files[f._id] ? [[f._id, files[f._id]]] : [])));

/** Keeps the page `state` of `form` as a draft; the key its address carries. */
export async function saveDraft(db: Queryable, form: Form, state: DraftState): Promise<string> {
  const key = randomBytes(32).toString('base64url');
  const messages = {
    errors: state.errors ?? {},
    message: state.message,
    filesToChooseAgain: state.filesToChooseAgain ?? [],
  };
  await db.query(
    `insert into no_script_drafts (id, form_id, page_token, answers, messages, step, page, files)
     values ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7, $8::jsonb)`,
    [
      digestOf(key),
      form._id,
      state.token,
      JSON.stringify(keptValues(form, state.values ?? {})),
      JSON.stringify(messages),
      state.step ?? null,
      state.page ?? null,
      JSON.stringify(keptFiles(form, state.files)),
    ],
  );
  return key;
}

type DraftRow = {
  page_token: string;
  answers: SentValues;
  messages: { errors: Record<string, string>; message?: string; filesToChooseAgain: string[] };
  step: FormState['step'] | null;
  page: string | null;
  /** One file by question as drafts kept them before a question could take several, or a list. */
  files: Record<string, FileAnswer | FileAnswer[]>;
};

/** The page state a draft of this form keeps, or null: no such key, another form's, or older than a day. */
export async function readDraft(
  db: Queryable,
  formId: string,
  key: string,
): Promise<(DraftState & { files: Record<string, FileAnswer[]> }) | null> {
  if (!DRAFT_KEY.test(key)) return null;
  const [row] = await db.query<DraftRow>(
    `select page_token, answers, messages, step, page, files from no_script_drafts
     where id = $1 and form_id = $2 and created_at > now() - $3 * interval '1 millisecond'`,
    [digestOf(key), formId, DRAFT_TTL_MS],
  );
  if (!row) return null;
  const files = Object.fromEntries(Object.entries(row.files).map(([id, sent]) => [id, asFileList(sent)]));
  return {
    token: row.page_token,
    values: row.answers,
    errors: row.messages.errors,
    filesToChooseAgain: row.messages.filesToChooseAgain,
    ...(row.messages.message ? { message: row.messages.message } : {}),
    ...(row.step ? { step: row.step } : {}),
    ...(row.page ? { page: row.page } : {}),
    files,
    kept: Object.fromEntries(
      Object.entries(files).map(([id, list]) => [id, list.map((f) => f.name ?? 'a file').join(', ')]),
    ),
  };
}

/** Forgets every draft of one page (its token) once its answers are stored: Back then finds none. */
export async function forgetDrafts(db: Queryable, formId: string, pageToken: string): Promise<void> {
  await db.query('delete from no_script_drafts where form_id = $1 and page_token = $2', [formId, pageToken]);
}

/** Deletes the drafts older than a day (the hourly sweep); how many. */
export const pruneDrafts = (db: Queryable): Promise<number> =>
  deleteInBatches(db, 'no_script_drafts', `created_at < now() - $1 * interval '1 millisecond'`, [
    DRAFT_TTL_MS,
  ]);
