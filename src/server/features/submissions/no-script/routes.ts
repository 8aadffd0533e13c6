// POST /customer/{fid}/{ownerId}: the form page posted without JavaScript, answers and files in one multipart body
// (docs/decisions/024-form-without-javascript.md). The same submitter as POST /api/forms/{ownerId} validates and
// stores it; read-posted.ts reads the body, and this file draws the answer as a page.
import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HONEYPOT_FIELD } from '#common/answer-limits.ts';
import { closedLookOf } from '#common/closed-form.ts';
import { closedMessageOf, closedReasonOf } from '#common/form-gate.ts';
import type { Form } from '#common/forms.ts';
import { HttpError, logUnavailable, waitWords } from '../../../http/errors.ts';
import { UNAVAILABLE_RETRY_SECONDS, unavailableOf } from '../../../http/unavailable.ts';
import { PAGE_TOKEN_FIELD, type FormState } from '../../../pages/customer-form-html.ts';
import { renderClosedPage, renderMessagePage, withoutScripts } from '../../../pages/customer-page.ts';
import { PAGE_QUERY, pagesOfForm } from '../../../pages/form-pages.ts';
import { STEP_QUERY } from '../../../pages/form-steps.ts';
import { readCustomerTemplate, sendCustomerPage } from '../../../pages/html-reply.ts';
import { messageHtml, missingHtml } from '../../../pages/message-html.ts';
import type { FileIntake, SubmissionDeps } from '../deps.ts';
import { AnswersError, readAnswers } from '../ingest/answers.ts';
import type { SubmitInput } from '../ingest/submitter.ts';
import { draftPageRoutes, draftPath, sentPath } from './draft-pages.ts';
import { forgetDrafts, saveDraft, type DraftState } from './drafts.ts';
import { pageOfIssues, postPage, wholeFormRefusal } from './paged.ts';
import { bodyOf, discardAll, OUT_OF_DATE, readPosted, TOKEN, TOO_MUCH, type Posted } from './read-posted.ts';

const IdsSchema = z.object({ fid: z.uuid(), ownerId: z.uuid() });
/**
 * A post that only moves: between the steps of a form with files (form-steps.ts), Next or the files step's Back; or
 * between the pages of a form with page breaks (form-pages.ts), from the page it names.
 */
const MoveSchema = z.object({
  [STEP_QUERY]: z.enum(['files', 'answers', 'next', 'back']).optional(),
  [PAGE_QUERY]: z.string().min(1).max(100).optional(),
});
const moveOf = (request: FastifyRequest) => MoveSchema.safeParse(request.query).data?.[STEP_QUERY];
const FROM_ITS_PAGE = 'Send the form from its page.';
const SENT_BEFORE =
  'This page was sent before, with other answers, and those were kept. Submit to send these answers as a new response.';

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

/** What the form's checks say of the answers of a first step (its files are the next step's). */
function firstStepErrors(form: Form, posted: Posted): Record<string, string> {
  try {
    readAnswers(form, bodyOf(form, posted));
    return {};
  } catch (error) {
    if (!(error instanceof AnswersError)) throw error;
    const files = new Set(form.fileField.map((f) => f._id));
    return Object.fromEntries(Object.entries(error.issues).filter(([id]) => !files.has(id)));
  }
}

export async function htmlSubmissionRoutes(
  app: FastifyInstance,
  deps: SubmissionDeps & { submit: (input: SubmitInput) => Promise<string>; intake: FileIntake },
  limits: Record<'submit' | 'step', ReturnType<FastifyInstance['rateLimit']>>,
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
    {
      // A move between steps stores no response, so it does not use up the address's submissions; it keeps a draft,
      // and those have a limit of their own (the files that come with one still count against its uploads).
      onRequest: async function (request, reply) {
        return (moveOf(request) === undefined ? limits.submit : limits.step).call(this, request, reply);
      },
    },
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
      const sayClosed = (message: string) =>
        sendCustomerPage(request, reply, 410, renderClosedPage(template, closedLookOf(form), message));
      if (closed) return sayClosed(closedMessageOf(form.settings, closed, deps.timeZone));
      const self = `/customer/${form._id}/${form.ownerIdAsStructureId}`;
      const problem = (status: number, message: string) =>
        sendNotSent(request, reply, template, status, message, self);
      if (!request.isMultipart()) return problem(415, FROM_ITS_PAGE);
      const query = MoveSchema.safeParse(request.query);
      if (!query.success) return problem(400, FROM_ITS_PAGE);

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
      // Post/redirect/get: the page to fix or to go on with is kept as a draft and drawn by a GET of its own address
      // (draft-pages.ts), so Reload and Back never send the answers again.
      const keep = async (state: DraftState) => {
        const key = await saveDraft(deps.db, form, state);
        return reply.redirect(draftPath(self, key), 303);
      };
      const again = (state: Omit<FormState, 'token'>, pageToken = token) =>
        keep({ token: pageToken, values: posted.values, filesToChooseAgain: posted.sentFiles, ...state });
      /**
       * Stores the answers (`body`) as the JSON submit does; a refusal draws the page `drafted` says, and the
       * uploads `discard` names go either way (`kept`: those a draft keeps, not discarded on a refusal).
       */
      const store = async (
        body: SubmitInput['body'],
        drafted: (more: Omit<FormState, 'token'>, pageToken?: string) => Promise<unknown>,
        uploads: { discard: string[]; kept: string[] },
      ) => {
        try {
          await deps.submit({
            ownerId: form.ownerIdAsStructureId,
            body,
            idempotencyKey: token,
            isBot: Boolean(posted.values[HONEYPOT_FIELD]?.[0]?.trim()),
          });
        } catch (error) {
          await discardAll(deps.intake, uploads.discard);
          if (error instanceof AnswersError) return drafted({ errors: error.issues });
          if (!(error instanceof HttpError)) throw error;
          if (error.code === 'FORM_CLOSED') return sayClosed(error.message);
          if (error.statusCode === 404) return say(404, 'Form not found', missingHtml());
          // This page was sent before (Back after the thank-you page) and its answers changed since: the first ones
          // were kept. The page comes back with these answers and a fresh token, so Submit sends them as a new
          // response if the customer wants to.
          if (error.code === 'ALREADY_SENT') return drafted({ message: SENT_BEFORE }, randomUUID());
          if (error.statusCode >= 500) throw error;
          return drafted({ message: error.message });
        }
        // A retry (the same page sent again) was answered with the first response's id and claimed nothing. The
        // page's drafts go with its answers stored: Back to one of them draws an empty form, never the answers to
        // send again.
        await discardAll(deps.intake, [...uploads.discard, ...uploads.kept]);
        await forgetDrafts(deps.db, form._id, token);
        return reply.redirect(sentPath(self), 303);
      };

      const move = moveOf(request);
      const pageId = query.data[PAGE_QUERY];
      // A form with page breaks, one page at a time (paged.ts): the page's uploads are kept with its draft.
      if (pageId !== undefined && pagesOfForm(form) && move !== 'files' && move !== 'answers') {
        const outcome = await postPage(deps.db, form, posted, token, move, pageId);
        await discardAll(deps.intake, outcome.discard);
        if ('refuse' in outcome) return problem(400, outcome.refuse);
        if ('sent' in outcome) return reply.redirect(sentPath(self), 303);
        if ('draw' in outcome) return keep(outcome.draw);
        const { drafted } = outcome;
        const onPage = (more: Omit<FormState, 'token'>, pageToken = token) => {
          const state = drafted({ ...more, token: pageToken });
          return keep({ ...state, page: pageOfIssues(form, state, more.errors ?? {}) ?? state.page });
        };
        return store(outcome.submit, onPage, { discard: [], kept: outcome.kept });
      }
      // A form with files comes in two steps, as with the script (form-steps.ts): Next checks the first step's
      // answers and draws the files step, which carries them; its Back draws them again. Neither stores anything.
      const fileIds = new Set(form.fileField.map((f) => f._id));
      const onFirstStep = (errors: Record<string, string>) =>
        Object.keys(errors).some((id) => !fileIds.has(id));
      const stepOfErrors = (errors: Record<string, string>) => (onFirstStep(errors) ? 'answers' : 'files');
      if (move !== undefined) {
        await discardAll(deps.intake, posted.deleteIds);
        if (move !== 'files' || fileIds.size === 0) return again({ step: 'answers', filesToChooseAgain: [] });
        const errors = { ...firstStepErrors(form, posted), ...posted.questionErrors };
        if (onFirstStep(errors)) return again({ errors, step: 'answers' });
        return again({ step: 'files', filesToChooseAgain: [] });
      }
      if (Object.keys(posted.questionErrors).length > 0) {
        await discardAll(deps.intake, posted.deleteIds);
        return again({ errors: posted.questionErrors, step: stepOfErrors(posted.questionErrors) });
      }
      const whole = (more: Omit<FormState, 'token'>, pageToken = token) => {
        const errors = more.errors ?? {};
        const paged = wholeFormRefusal(form, posted.values, errors);
        return again({ step: more.errors ? stepOfErrors(errors) : 'files', ...paged, ...more }, pageToken);
      };
      return store(bodyOf(form, posted), whole, { discard: posted.deleteIds, kept: [] });
    },
  );
  draftPageRoutes(app, deps);
}
