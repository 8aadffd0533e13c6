import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  FormSettingsBodySchema,
  FormSettingsViewSchema,
  type FormSettingsView,
} from '#common/form-settings.ts';
import { FormParamsSchema, type Form } from '#common/forms.ts';
import { ownerOf } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import * as repo from './repository.ts';
import * as forms from './service.ts';

/** A form's schedule, limit and messages (issue 12): the owner's Settings page. Needs the owner's token. */
export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps: forms.FormDeps = { db: app.db, timeZone: app.config.formTimezone };
  const view = (form: Form): FormSettingsView => ({
    ...form.settings,
    timeZone: deps.timeZone,
    responseCount: form.responseCount,
  });

  api.get(
    '/formSettings/:fid',
    { schema: { params: FormParamsSchema, response: { 200: FormSettingsViewSchema } } },
    async (request) => view(await forms.findForm(deps, ownerOf(request).id, request.params.fid)),
  );

  api.put(
    '/formSettings/:fid',
    {
      schema: {
        params: FormParamsSchema,
        body: FormSettingsBodySchema,
        response: { 200: FormSettingsViewSchema },
      },
    },
    async (request) => {
      const ownerId = ownerOf(request).id;
      const { fid } = request.params;
      if (!(await repo.updateSettingsOfOwner(deps.db, ownerId, fid, request.body))) {
        throw notFound('Form not found');
      }
      return view(await forms.findForm(deps, ownerId, fid));
    },
  );
}
