// POST /customer/{fid}/{ownerId}: the form page posted without JavaScript, answers and files in one multipart body
// (docs/decisions/024-form-without-javascript.md). The same submitter as POST /api/forms/{ownerId} validates and
// stores it; this file only reads the body and draws the answer as a page.
import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HONEYPOT_FIELD, LONG_TEXT_ANSWER_MAX } from '#common/answer-limits.ts';
import { closedMessageOf, closedReasonOf } from '#common/form-gate.ts';
import { isWebUrl } from '#common/form-settings.ts';
import { toPublicForm, type Form } from '#common/forms.ts';
import type { FileAnswer, SubmissionBody } from '#common/submissions.ts';
import { unstorableReason } from '#common/unstorable-text.ts';
import { HttpError, logUnavailable, waitWords } from '../../http/errors.ts';
import { UNAVAILABLE_RETRY_SECONDS, unavailableOf } from '../../http/unavailable.ts';
import {
  closedHtml,
  messageHtml,
  missingHtml,
  PAGE_TOKEN_FIELD,
  thankYouHtml,
  type FormState,
  type QuestionErrors,
  type SentValues,
} from '../../pages/customer-form-html.ts';
import {
  renderCustomerPage,
  renderMessagePage,
  renderOnFormColours,
  withoutScripts,
} from '../../pages/customer-page.ts';
import { readCustomerTemplate, sendCustomerPage } from '../../pages/html-reply.ts';
import { AnswersError } from './answers.ts';
import type { FileIntake, SubmissionDeps } from './deps.ts';
import type { SubmitInput } from './writer.ts';

const IdsSchema = z.object({ fid: z.uuid(), ownerId: z.uuid() });
const TOKEN = /^[\w-]{8,100}$/;
const OUT_OF_DATE = 'This page is out of date. Open the form again and send your answers from there.';
const TOO_MUCH = 'The form sent more than it asks for.';
const FROM_ITS_PAGE = 'Send the form from its page.';
const SENT_BEFORE =
  'This page was sent before, with other answers, and those were kept. Submit to send these answers as a new response.';
/** Fields besides the answers: the page token, the honeypot, and a little room. */
const EXTRA_FIELDS = 4;

/** What came in the body: answers by question id, the files kept as uploads, and what went wrong with a file. */
type Posted = {
  values: SentValues;
  files: Record<string, FileAnswer>;
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
 * question), one file per file question, an answer no longer than the longest the form takes; busboy holds no more.
 * Each file streams through the uploads feature as it arrives. On any error, the files kept so far are removed.
 */
async function readPosted(request: FastifyRequest, form: Form, intake: FileIntake): Promise<Posted> {
  const single = form.textField.length + form.selectField.length + form.radioField.length;
  const fields = single + form.checkField.reduce((n, f) => n + f.options.length, 0) + EXTRA_FIELDS;
  const files = form.fileField.length;
  const fileIds = new Set(form.fileField.map((f) => f._id));
  const answerIds = new Set(
    [...form.textField, ...form.selectField, ...form.radioField, ...form.checkField].map((f) => f._id),
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
      if (!fileIds.has(part.fieldname) || part.filename === '') {
        // An empty file input (browsers send one with no name), or a part no question asked for.
        part.file.resume();
        continue;
      }
      if (!TOKEN.test(posted.values[PAGE_TOKEN_FIELD]?.[0] ?? '')) {
        part.file.resume();
        throw fail(400, OUT_OF_DATE);
      }
      posted.sentFiles.push(part.fieldname);
      try {
        const upload = await intake.receive(part, request.ip, form._id);
        posted.deleteIds.push(upload.deleteId);
        posted.files[part.fieldname] = { deleteId: upload.deleteId, name: upload.name, value: upload.url };
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

/**
 * The page for answers that were not sent, with a way to the form when its address is known. `goBack`: the message
 * sends the customer back to the page they posted, where their answers still are; the link then opens an empty form,
 * and says so, in the quieter style, so that it is not taken for the way back.
 */
function sendNotSent(
  request: FastifyRequest,
  reply: FastifyReply,
  template: string,
  status: number,
  message: string,
  formPath: string | null,
  goBack = false,
) {
  const text = goBack ? 'Open an empty form' : 'Open the form again';
  const link = formPath ? { href: formPath, text, secondary: goBack } : undefined;
  const title = 'Your answers were not sent';
  return sendCustomerPage(
    request,
    reply,
    status,
    renderMessagePage(template, title, messageHtml('!', title, [message], link)),
  );
}

/** The start of the refusal at the address's submission limit, as a customer reads it: how long to wait. */
export const tooManyResponses = (retryAfterSeconds: number): string =>
  `Too many responses came from this connection in a short time. Wait ${waitWords(retryAfterSeconds)}`;

const discardAll = (intake: FileIntake, deleteIds: readonly string[]) =>
  Promise.all(deleteIds.map((id) => intake.discard(id)));

/**
 * The JSON submit's body (POST /api/forms/{ownerId}), from the posted answers: blanks left out, text trimmed,
 * as the React page does.
 */
function bodyOf(form: Form, posted: Posted): SubmitInput['body'] {
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
  for (const f of form.textField) if (first(f._id)) body.textObject[f._id] = first(f._id) ?? '';
  for (const f of form.selectField) if (first(f._id)) body.selectedValues[f._id] = first(f._id) ?? '';
  for (const f of form.radioField) if (first(f._id)) body.selectedRadio[f._id] = first(f._id) ?? '';
  body.selectedCheckboxes = form.checkField.flatMap((f) => {
    const values = posted.values[f._id] ?? [];
    return values.length > 0 ? [{ name: f._id, values }] : [];
  });
  return body;
}

export async function htmlSubmissionRoutes(
  app: FastifyInstance,
  deps: SubmissionDeps & { submit: (input: SubmitInput) => Promise<string>; intake: FileIntake },
  rateLimit: ReturnType<FastifyInstance['rateLimit']>,
): Promise<void> {
  // Limits per request, from the form (readPosted); the file size is the upload route's.
  await app.register(multipart, { limits: { fileSize: app.config.uploadMaxBytes } });
  // Any other body (a form sent url-encoded, plain text) reaches the handler, which answers it with a page.
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_request, _body, done) =>
    done(null, undefined),
  );
  // Without JavaScript every failure is a page too: a refusal made before the handler runs (the address's limit, a
  // body too large for its parser), and our own fault, logged as the app's handler logs it.
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    // Answered before the whole body arrived: close the connection, whose unread rest would hold a next request.
    if (!request.raw.complete) reply.header('connection', 'close');
    // The database or the storage away for a while: 503 with Retry-After, one log line naming it (unavailable.ts).
    const away = unavailableOf(error);
    const status = away ? 503 : error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (away) {
      logUnavailable(request, away);
      reply.header('retry-after', String(UNAVAILABLE_RETRY_SECONDS));
    } else if (status >= 500) request.log.error({ err: error }, 'unhandled error');
    const ids = IdsSchema.safeParse(request.params);
    const message = away
      ? 'We cannot take answers right now. Go back and send your answers again in a minute.'
      : status >= 500
        ? `Something went wrong on our side. Go back and send your answers again in a moment. Reference: ${request.id}`
        : status === 429
          ? `${tooManyResponses(Number(reply.getHeader('retry-after')) || 60)}, then go back and send your answers again.`
          : status === 413
            ? TOO_MUCH
            : FROM_ITS_PAGE;
    const template = withoutScripts(await readCustomerTemplate(app.config.webDir));
    const formPath = ids.success ? `/customer/${ids.data.fid}/${ids.data.ownerId}` : null;
    return sendNotSent(request, reply, template, status, message, formPath, status >= 500 || status === 429);
  });

  app.post<{ Params: { fid: string; ownerId: string } }>(
    '/customer/:fid/:ownerId',
    { onRequest: rateLimit },
    async (request, reply) => {
      const template = withoutScripts(await readCustomerTemplate(app.config.webDir));
      const say = (status: number, title: string, content: string) =>
        sendCustomerPage(request, reply, status, renderMessagePage(template, title, content));
      const ids = IdsSchema.safeParse(request.params);
      const form = ids.success ? await deps.forms.find(ids.data.fid) : null;
      if (!ids.success || !form || form.ownerIdAsStructureId !== ids.data.ownerId) {
        return say(404, 'Form not found', missingHtml());
      }
      const closed = closedReasonOf(form, new Date(), form.responseCount);
      if (closed)
        return say(410, 'Form closed', closedHtml(closedMessageOf(form.settings, closed, deps.timeZone)));
      const self = `/customer/${form._id}/${form.ownerIdAsStructureId}`;
      const problem = (status: number, message: string) =>
        sendNotSent(request, reply, template, status, message, self);
      if (!request.isMultipart()) return problem(415, FROM_ITS_PAGE);

      let posted: Posted;
      try {
        posted = await readPosted(request, form, deps.intake);
      } catch (error) {
        if (!(error instanceof HttpError) && !(error as { statusCode?: number }).statusCode) throw error;
        const status = (error as { statusCode: number }).statusCode;
        if (status === 404) return say(404, 'Form not found', missingHtml());
        return problem(status, status === 413 ? TOO_MUCH : (error as Error).message);
      }
      const token = posted.values[PAGE_TOKEN_FIELD]?.[0] ?? '';
      if (!TOKEN.test(token)) {
        await discardAll(deps.intake, posted.deleteIds);
        return problem(400, OUT_OF_DATE);
      }
      const publicForm = toPublicForm(form);
      const again = (status: number, state: Omit<FormState, 'token'>, pageToken = token) =>
        sendCustomerPage(
          request,
          reply,
          status,
          renderCustomerPage(template, publicForm, {
            action: self,
            state: {
              token: pageToken,
              values: posted.values,
              filesToChooseAgain: posted.sentFiles,
              ...state,
            },
            embed: false,
          }),
        );
      if (Object.keys(posted.questionErrors).length > 0) {
        await discardAll(deps.intake, posted.deleteIds);
        return again(422, { errors: posted.questionErrors });
      }
      try {
        await deps.submit({
          ownerId: form.ownerIdAsStructureId,
          body: bodyOf(form, posted),
          idempotencyKey: token,
          isBot: Boolean(posted.values[HONEYPOT_FIELD]?.[0]?.trim()),
        });
      } catch (error) {
        await discardAll(deps.intake, posted.deleteIds);
        if (error instanceof AnswersError) return again(422, { errors: error.issues });
        if (!(error instanceof HttpError)) throw error;
        if (error.code === 'FORM_CLOSED') return say(410, 'Form closed', closedHtml(error.message));
        if (error.statusCode === 404) return say(404, 'Form not found', missingHtml());
        // This page was sent before (Back after the thank-you page) and its answers changed since: the first ones
        // were kept. The page comes back with these answers and a fresh token, so Submit sends them as a new
        // response if the customer wants to.
        if (error.code === 'ALREADY_SENT') return again(409, { message: SENT_BEFORE }, randomUUID());
        if (error.statusCode >= 500) throw error;
        return again(422, { message: error.message });
      }
      // A retry (the same page sent again) was answered with the first response's id and claimed nothing.
      await discardAll(deps.intake, posted.deleteIds);
      const redirect = form.settings.redirectUrl && isWebUrl(form.settings.redirectUrl);
      const page = renderOnFormColours(
        template,
        publicForm,
        thankYouHtml(publicForm, self, redirect ? new URL(form.settings.redirectUrl ?? '') : null),
      );
      return sendCustomerPage(request, reply, 200, page);
    },
  );
}
