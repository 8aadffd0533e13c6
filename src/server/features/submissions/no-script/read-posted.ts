// The body of a form page posted without JavaScript (routes.ts): read part by part within the form's own limits,
// each file kept as an upload as it arrives, and turned into the JSON submit's body.
import type { FastifyRequest } from 'fastify';
import { LONG_TEXT_ANSWER_MAX } from '#common/answer-limits.ts';
import type { Form } from '#common/forms.ts';
import { FILES_MAX, maxFilesOf } from '#common/kinds/file-rules.ts';
import { gridAnswerOfPosted, gridInputsOf } from '#common/kinds/grid-kind.ts';
import type { FileAnswer, SubmissionBody } from '#common/submissions.ts';
import { unstorableReason } from '#common/unstorable-text.ts';
import { HttpError } from '../../../http/errors.ts';
import {
  hiddenInputName,
  PAGE_TOKEN_FIELD,
  type QuestionErrors,
  type SentValues,
} from '../../../pages/customer-form-html.ts';
import type { FileIntake } from '../deps.ts';
import type { SubmitInput } from '../ingest/submitter.ts';

export const TOKEN = /^[\w-]{8,100}$/;
export const OUT_OF_DATE = 'This page is out of date. Open the form again and send your answers from there.';
export const TOO_MUCH = 'The form sent more than it asks for.';
/** Fields besides the answers: the page token, the honeypot, and a little room. */
const EXTRA_FIELDS = 4;

/** What came in the body: answers by question id, the files kept as uploads, and what went wrong with a file. */
export type Posted = {
  values: SentValues;
  files: Record<string, FileAnswer[]>;
  questionErrors: QuestionErrors;
  /** File questions a file was sent for: the page asks for them again if it comes back. */
  sentFiles: string[];
  deleteIds: string[];
};

const fail = (status: number, message: string) => new HttpError(status, 'VALIDATION_FAILED', message);
/** A failure of the database or storage while a file was kept: a 500 to log, never the customer's body. */
class OurFault extends Error {
  constructor(cause: unknown) {
    super('keeping a file failed', { cause });
  }
}

/**
 * Reads the body part by part. Limits come from the form: one value per question (one per option of a checkbox
 * question), as many files as each file question takes, an answer no longer than the longest the form takes; busboy holds no more.
 * Each file streams through the uploads feature as it arrives. On any error, the files kept so far are removed.
 */
export async function readPosted(request: FastifyRequest, form: Form, intake: FileIntake): Promise<Posted> {
  const gridInputs = gridInputsOf(form.moreField);
  const single =
    form.textField.length +
    form.selectField.length +
    form.radioField.length +
    form.moreField.length +
    gridInputs.length;
  const fields =
    single +
    form.checkField.reduce((n, f) => n + f.options.length, 0) +
    form.hiddenFields.length +
    EXTRA_FIELDS;
  const most = new Map(form.fileField.map((f) => [f._id, maxFilesOf(f.rules)]));
  // Room for a few files beyond what the questions take: a customer who picked too many is told so at the question
  // (those are read past, never kept), rather than given a page about a body too large.
  const files = [...most.values()].reduce((n, m) => n + m, 0) + (most.size > 0 ? FILES_MAX : 0);
  const answerIds = new Set(
    [...form.textField, ...form.selectField, ...form.radioField, ...form.checkField, ...form.moreField]
      .map((f) => f._id)
      .concat(gridInputs),
  );
  const posted: Posted = { values: {}, files: {}, questionErrors: {}, sentFiles: [], deleteIds: [] };
  try {
    const parts = request.parts({
      limits: { fields, files, parts: fields + files, fieldSize: 4 * LONG_TEXT_ANSWER_MAX, headerPairs: 100 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldnameTruncated) throw fail(400, 'A field name is too long');
        if (part.valueTruncated) throw fail(413, 'An answer is too long');
        const sent = typeof part.value === 'string' ? part.value : '';
        const unstorable = unstorableReason(sent);
        // Told at its question, the page sent back with every answer kept (this one with U+FFFD for what cannot
        // be stored), rather than a page of its own that loses them all.
        if (unstorable && answerIds.has(part.fieldname)) {
          posted.questionErrors[part.fieldname] = `This answer ${unstorable}. Remove it and send again.`;
        }
        const value = unstorable ? sent.replaceAll('\u0000', '\ufffd').toWellFormed() : sent;
        (posted.values[part.fieldname] ??= []).push(value);
        continue;
      }
      if (!most.has(part.fieldname) || part.filename === '') {
        // An empty file input (browsers send one with no name), or a part no question asked for.
        part.file.resume();
        continue;
      }
      if (!TOKEN.test(posted.values[PAGE_TOKEN_FIELD]?.[0] ?? '')) {
        part.file.resume();
        throw fail(400, OUT_OF_DATE);
      }
      if (!posted.sentFiles.includes(part.fieldname)) posted.sentFiles.push(part.fieldname);
      const allowed = most.get(part.fieldname) ?? 1;
      if ((posted.files[part.fieldname]?.length ?? 0) >= allowed) {
        // More files than the question takes: those beyond are not kept, and the question says so.
        part.file.resume();
        posted.questionErrors[part.fieldname] =
          allowed === 1 ? 'Choose one file' : `Choose at most ${allowed} files`;
        continue;
      }
      try {
        const upload = await intake.receive(part, request.ip, form._id);
        posted.deleteIds.push(upload.deleteId);
        (posted.files[part.fieldname] ??= []).push({
          deleteId: upload.deleteId,
          name: upload.name,
          value: upload.url,
        });
      } catch (error) {
        // The file's own fault (type, size, name, the address's allowance) is told at its question; a form
        // deleted while the file arrived (404), and a fault of ours, are not the customer's to mend there.
        if (!(error instanceof HttpError) || error.statusCode >= 500) throw new OurFault(error);
        if (error.statusCode === 404) throw error;
        posted.questionErrors[part.fieldname] = error.message;
      }
    }
    return posted;
  } catch (error) {
    await discardAll(intake, posted.deleteIds);
    if (error instanceof OurFault) throw error.cause;
    const status = (error as { statusCode?: number }).statusCode;
    if (error instanceof HttpError || (status && status < 500)) throw error;
    // Anything else busboy throws is about the client's body: a missing boundary, a broken header.
    throw fail(400, 'The form could not be read');
  }
}

export const discardAll = (intake: FileIntake, deleteIds: readonly string[]) =>
  Promise.all(deleteIds.map((id) => intake.discard(id)));

/**
 * The JSON submit's body (POST /api/forms/{ownerId}), from the posted answers: blanks left out, text trimmed,
 * as the React page does.
 */
export function bodyOf(form: Form, posted: Pick<Posted, 'values' | 'files'>): SubmitInput['body'] {
  const first = (id: string) => posted.values[id]?.[0]?.trim() || undefined;
  const body: Required<Pick<SubmissionBody, 'textObject' | 'selectedValues' | 'selectedRadio'>> &
    SubmitInput['body'] = {
    formStructureId: form._id,
    textObject: {},
    selectedValues: {},
    selectedRadio: {},
    selectedCheckboxes: [],
    fileObject: posted.files,
  };
  // The kinds beyond the product's five answer in text, as the JSON submit sends them; a grid, row by row.
  for (const f of [...form.textField, ...form.moreField.filter((m) => m.kind !== 'grid')])
    if (first(f._id)) body.textObject[f._id] = first(f._id) ?? '';
  for (const f of form.moreField) {
    const chosen = f.kind === 'grid' ? gridAnswerOfPosted(f, posted.values) : {};
    if (Object.keys(chosen).length > 0) (body.gridObject ??= {})[f._id] = chosen;
  }
  for (const f of form.selectField) if (first(f._id)) body.selectedValues[f._id] = first(f._id) ?? '';
  for (const f of form.radioField) if (first(f._id)) body.selectedRadio[f._id] = first(f._id) ?? '';
  const hidden = hiddenOf(form, posted.values);
  if (Object.keys(hidden).length > 0) body.hidden = hidden;
  body.selectedCheckboxes = form.checkField.flatMap((f) => {
    const values = posted.values[f._id] ?? [];
    return values.length > 0 ? [{ name: f._id, values }] : [];
  });
  return body;
}

/** The hidden fields a post (or a draft's values) carries, by name: only those the form declares. */
export function hiddenOf(form: Pick<Form, 'hiddenFields'>, values: SentValues): Record<string, string> {
  return Object.fromEntries(
    form.hiddenFields.flatMap((name) => {
      const value = values[hiddenInputName(name)]?.[0]?.trim();
      return value ? [[name, value]] : [];
    }),
  );
}
