import contentDisposition from 'content-disposition';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formExportFileName } from '#common/download-names.ts';
import { FieldOrderBodySchema } from '#common/field-calls.ts';
import {
  CreateFormBodySchema,
  FormDefinitionSchema,
  FormParamsSchema,
  FormSchema,
  UpdateFormBodySchema,
} from '#common/forms.ts';
import { SaveItemsBodySchema } from '#common/logic/item-list.ts';
import { authenticate, ownerOf } from '../../http/auth.ts';
import { fieldRoutes } from './field-routes.ts';
import { importForm } from './import.ts';
import { saveItems } from './items.ts';
import * as forms from './service.ts';
import { settingsRoutes } from './settings-routes.ts';

const ok = z.object({ ok: z.literal(true), message: z.string() });

/**
 * The owner's form routes (docs/api.md, Forms), and what owners expect beyond the original client's. Every
 * route needs the owner's token.
 */
export async function formRoutes(
  app: FastifyInstance,
  options: { files: forms.FormDeps['files'] },
): Promise<void> {
  app.addHook('onRequest', authenticate);
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps: forms.FormDeps = { db: app.db, timeZone: app.config.formTimezone, files: options.files };

  api.post(
    '/v1/length',
    { schema: { body: CreateFormBodySchema, response: { 201: FormSchema } } },
    async (request, reply) =>
      reply.code(201).send(await forms.createForm(deps, ownerOf(request).id, request.body)),
  );

  api.get('/v1/formStructure', { schema: { response: { 200: z.array(FormSchema) } } }, async (request) =>
    forms.listForms(deps, ownerOf(request).id),
  );

  api.get(
    '/singleFormForEdit/:fid',
    { schema: { params: FormParamsSchema, response: { 200: FormSchema } } },
    async (request) => forms.findForm(deps, ownerOf(request).id, request.params.fid),
  );

  api.put(
    '/updateFormEntry/:fid',
    { schema: { params: FormParamsSchema, body: UpdateFormBodySchema, response: { 200: FormSchema } } },
    async (request) => forms.updateForm(deps, ownerOf(request).id, request.params.fid, request.body),
  );

  api.put(
    '/fieldOrder/:fid',
    { schema: { params: FormParamsSchema, body: FieldOrderBodySchema, response: { 200: FormSchema } } },
    async (request) => forms.reorderFields(deps, ownerOf(request).id, request.params.fid, request.body.order),
  );

  api.put(
    '/v1/form/:fid/items',
    { schema: { params: FormParamsSchema, body: SaveItemsBodySchema, response: { 200: FormSchema } } },
    async (request) => saveItems(deps, ownerOf(request).id, request.params.fid, request.body),
  );

  api.delete(
    '/deleteForm/:fid',
    { schema: { params: FormParamsSchema, response: { 200: ok } } },
    async (request) => {
      await forms.deleteForm(deps, ownerOf(request).id, request.params.fid);
      return { ok: true as const, message: 'Form deleted' };
    },
  );

  api.post(
    '/duplicateForm/:fid',
    { schema: { params: FormParamsSchema, response: { 201: FormSchema } } },
    async (request, reply) =>
      reply.code(201).send(await forms.duplicateForm(deps, ownerOf(request).id, request.params.fid)),
  );

  api.get(
    '/exportForm/:fid',
    // No response schema: FormDefinitionSchema trims and upper-cases on input, which zod cannot run backwards.
    { schema: { params: FormParamsSchema } },
    async (request, reply) => {
      const form = await forms.findForm(deps, ownerOf(request).id, request.params.fid);
      return reply
        .header('content-disposition', contentDisposition(formExportFileName(form.formTitle)))
        .send(forms.toDefinition(form));
    },
  );

  api.post(
    '/importForm',
    { schema: { body: FormDefinitionSchema, response: { 201: FormSchema } } },
    async (request, reply) => reply.code(201).send(await importForm(deps, ownerOf(request).id, request.body)),
  );

  await app.register(fieldRoutes);
  await app.register(settingsRoutes);
}
