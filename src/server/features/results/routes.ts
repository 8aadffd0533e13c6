import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FormParamsSchema, type Form } from '#common/forms.ts';
import { OwnerZoneField } from '#common/response-filter.ts';
import { FormResultsSchema } from '#common/results.ts';
import type { Database } from '../../db/database.ts';
import { authenticate, ownerOf } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { assembleResults } from './assemble.ts';
import { findLatestTextAnswers, readResultCounters } from './repository.ts';

/** What Results needs from the rest of the server, lent in app.ts. */
export type ResultsDeps = {
  db: Database;
  timeZone: string;
  /** The owner's form, or null when it is not theirs or does not exist. */
  findFormOfOwner: (ownerId: string, formId: string) => Promise<Form | null>;
  /** Writes the public-form opens counted in memory so far. */
  flushViews: () => Promise<void>;
};

/**
 * GET /api/formResults/{fid}: the owner's summary of a form's answers, from counters (docs/decisions/020-results.md);
 * its days are counted in the owner's zone (`?tz=`), else the server's.
 */
export async function resultsRoutes(app: FastifyInstance, deps: ResultsDeps): Promise<void> {
  app.addHook('onRequest', authenticate);
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/formResults/:fid',
    {
      schema: {
        params: FormParamsSchema,
        querystring: z.object(OwnerZoneField),
        response: { 200: FormResultsSchema },
      },
    },
    async (request) => {
      const form = await deps.findFormOfOwner(ownerOf(request).id, request.params.fid);
      if (!form) throw notFound('Form not found');
      await deps.flushViews();
      const [counters, latest] = await Promise.all([
        readResultCounters(deps.db, form._id, request.query.tz ?? deps.timeZone),
        findLatestTextAnswers(deps.db, form._id),
      ]);
      return assembleResults(form, counters, latest, deps.timeZone);
    },
  );
}
