import contentDisposition from 'content-disposition';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { responsesCsvFileName } from '#common/download-names.ts';
import { formatSpecDate, FormParamsSchema } from '#common/forms.ts';
import {
  CsvQuerySchema,
  DeletedResponsesSchema,
  DeleteResponsesBodySchema,
  isFiltered,
  type ResponseFilter,
} from '#common/response-filter.ts';
import {
  FormPageQuerySchema,
  FormSummarySchema,
  PageQuerySchema,
  SubmissionPageSchema,
  SubmissionSchema,
} from '#common/submissions.ts';
import { authenticate, ownerOf } from '../../../http/auth.ts';
import { notFound } from '../../../http/errors.ts';
import type { SubmissionDeps } from '../deps.ts';
import * as repo from '../repository.ts';
import { CSV_FILE_LINK_SECONDS, streamFormCsv } from './csv.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import * as list from './list-repository.ts';
import { answerTexts, fieldsInOrder } from './list-texts.ts';
import * as submissions from './service.ts';

const SubmissionParamsSchema = z.object({ userFormId: z.uuid({ error: 'Not a valid submission id' }) });

/** The owner's side: submissions of the caller's forms only. */
export async function ownerSubmissionRoutes(app: FastifyInstance, deps: SubmissionDeps): Promise<void> {
  app.addHook('onRequest', authenticate);
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { timeZone } = deps;
  const ownFormOf = async (ownerId: string, formId: string) => {
    const form = await deps.forms.find(formId);
    if (!form || form.ownerIdAsStructureId !== ownerId) throw notFound('Form not found');
    return form;
  };
  const filterOf = (query: ResponseFilter): ResponseFilter => ({
    q: query.q || undefined,
    fromDate: query.fromDate,
    toDate: query.toDate,
  });

  const pageOf = (query: z.infer<typeof PageQuerySchema>) => ({
    limit: query.limit,
    after: query.after ? decodeCursor(query.after, 'after') : undefined,
    before: query.before ? decodeCursor(query.before, 'before') : undefined,
    oldest: query.from === 'oldest' && !query.after && !query.before,
  });

  // The original contract: 'GET forms → all submissions' (docs/product.md). Ours are the caller's only, newest first, a page at a time; the cursor of
  // the next page is in the X-Next-Cursor header so the body keeps the original contract's array shape (docs/api.md).
  api.get(
    '/api/forms',
    { schema: { querystring: PageQuerySchema, response: { 200: z.array(SubmissionSchema) } } },
    async (request, reply) => {
      const page = await list.listSubmissions(
        deps.db,
        { ownerId: ownerOf(request).id },
        pageOf(request.query),
      );
      const last = page.items.at(-1);
      if (page.hasMore && last) reply.header('x-next-cursor', encodeCursor(last));
      const questions = await submissions.questionsAnswered(deps, page.items);
      return Promise.all(page.items.map((s) => submissions.toSubmission(deps, s, questions)));
    },
  );

  api.get(
    '/api/forms/:userFormId',
    { schema: { params: SubmissionParamsSchema, response: { 200: SubmissionSchema } } },
    async (request) => submissions.findSubmission(deps, ownerOf(request).id, request.params.userFormId),
  );

  // Not in the original contract (issue 12 item 5): the owner deletes one response, its files with it.
  api.delete(
    '/api/forms/:userFormId',
    { schema: { params: SubmissionParamsSchema, response: { 200: DeletedResponsesSchema } } },
    async (request) => {
      const deleted = await submissions.deleteSubmissions(deps, ownerOf(request).id, [
        request.params.userFormId,
      ]);
      if (deleted === 0) throw notFound('Submission not found');
      return { deleted };
    },
  );

  // Several of one form's responses at once; ids that are not this form's (or not the caller's) are left alone,
  // and `deleted` says how many went.
  api.post(
    '/api/formSubmissions/:fid/delete',
    {
      schema: {
        params: FormParamsSchema,
        body: DeleteResponsesBodySchema,
        response: { 200: DeletedResponsesSchema },
      },
    },
    async (request) => {
      const form = await ownFormOf(ownerOf(request).id, request.params.fid);
      return {
        deleted: await submissions.deleteSubmissions(
          deps,
          form.ownerIdAsStructureId,
          request.body.ids,
          form._id,
        ),
      };
    },
  );

  api.get(
    '/api/formSummary',
    { schema: { response: { 200: z.array(FormSummarySchema) } } },
    async (request) => {
      const rows = await repo.summariseForms(deps.db, ownerOf(request).id);
      return rows.map((r) => ({
        _id: r.formId,
        formTitle: r.formTitle,
        count: r.count,
        Date: r.latestAt ? formatSpecDate(r.latestAt, timeZone) : null,
        latestAt: r.latestAt?.toISOString() ?? null,
      }));
    },
  );

  api.get(
    '/api/formSubmissions/:fid',
    {
      schema: {
        params: FormParamsSchema,
        querystring: FormPageQuerySchema,
        response: { 200: SubmissionPageSchema },
      },
    },
    async (request) => {
      const ownerId = ownerOf(request).id;
      const form = await ownFormOf(ownerId, request.params.fid);
      const query = { ...pageOf(request.query), oldestFirst: request.query.order === 'oldest' };
      const filter = filterOf(request.query);
      const scope = { ownerId, formId: form._id };
      // The filter's days are the owner's: read on their clock.
      const daysIn = request.query.tz ?? timeZone;
      const [page, total] = await Promise.all([
        list.listSubmissions(deps.db, { ...scope, filter, timeZone: daysIn }, query),
        // Unfiltered, the count kept by the insert; filtered, a count of the matching rows.
        isFiltered(filter)
          ? list.countFilteredSubmissions(deps.db, scope, filter, daysIn)
          : repo.countSubmissionsOfForm(deps.db, ownerId, form._id),
      ]);
      const first = page.items[0];
      const last = page.items.at(-1);
      const texts = await answerTexts(deps, page.items);
      // Going back (before / from the oldest) the extra row lies on the newer side; going forward, on the older.
      const isBackwards = Boolean(query.before) || query.oldest;
      const hasOlder = isBackwards ? Boolean(query.before) : page.hasMore;
      const hasNewer = isBackwards ? page.hasMore : Boolean(query.after);
      return {
        formTitle: form.formTitle,
        questions: fieldsInOrder(form).map((f) => ({
          _id: f._id,
          name: f.name,
          isDate: 'type' in f && f.type === 'date',
        })),
        total: total ?? 0,
        items: page.items.map((s) => ({
          _id: s.id,
          formStructureId: s.formId,
          contact: s.contact,
          Date: formatSpecDate(s.createdAt, timeZone),
          createdAt: s.createdAt.toISOString(),
          answers: texts.get(s.id) ?? {},
        })),
        nextCursor: hasOlder && last ? encodeCursor(last) : null,
        prevCursor: hasNewer && first ? encodeCursor(first) : null,
      };
    },
  );

  api.get(
    '/api/formSubmissions/:fid/csv',
    { schema: { params: FormParamsSchema, querystring: CsvQuerySchema } },
    async (request, reply) => {
      const form = await ownFormOf(ownerOf(request).id, request.params.fid);
      const fileLinks = (ids: string[]) => deps.files.links(ids, CSV_FILE_LINK_SECONDS);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', contentDisposition(responsesCsvFileName(form.formTitle)))
        .send(
          streamFormCsv(deps.db, form, await deps.forms.retiredFields(form._id), timeZone, fileLinks, {
            filter: filterOf(request.query),
            shownIn: request.query.tz,
          }),
        );
    },
  );
}
