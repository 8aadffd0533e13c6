import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AddFieldBodySchema,
  AddOptionBodySchema,
  RenameFieldBodySchema,
  RenameOptionBodySchema,
  UpdateQuestionBodySchema,
} from '#common/field-calls.ts';
import {
  FieldParamsSchema,
  FormParamsSchema,
  FormSchema,
  MORE_KINDS,
  OptionParamsSchema,
  type QuestionKind,
} from '#common/forms.ts';
import { ownerOf } from '../../http/auth.ts';
import * as questions from './question-service.ts';
import * as forms from './service.ts';

const response = { 200: FormSchema };

/**
 * The per-kind field and option routes (docs/api.md, Forms). Each route reaches only fields of its own kinds;
 * updateSelectText also renames radio questions, as the original client's editor uses it.
 */
export async function fieldRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps: forms.FormDeps = {
    db: app.db,
    timeZone: app.config.formTimezone,
    uploadMaxBytes: app.config.uploadMaxBytes,
  };
  const target = (
    request: FastifyRequest,
    params: { fid: string; fieldId: string },
    kinds: readonly QuestionKind[],
  ) => ({
    ownerId: ownerOf(request).id,
    formId: params.fid,
    fieldId: params.fieldId,
    kinds,
  });

  api.post(
    '/text/:fid',
    { schema: { params: FormParamsSchema, body: AddFieldBodySchema, response } },
    async (request) => forms.addField(deps, ownerOf(request).id, request.params.fid, request.body),
  );

  const renames: [string, QuestionKind[]][] = [
    ['updateText', ['text']],
    ['updateFile', ['file']],
    ['updateSelectText', ['select', 'radio']],
    ['updatecheckText', ['check']],
  ];
  for (const [path, kinds] of renames) {
    api.put(
      `/${path}/:fid/:fieldId`,
      { schema: { params: FieldParamsSchema, body: RenameFieldBodySchema, response } },
      async (request) => questions.renameField(deps, target(request, request.params, kinds), request.body),
    );
  }

  api.put(
    '/updateQuestion/:fid/:fieldId',
    { schema: { params: FieldParamsSchema, body: UpdateQuestionBodySchema, response } },
    async (request) =>
      questions.updateQuestion(deps, target(request, request.params, MORE_KINDS), request.body),
  );

  const deletes: [string, readonly QuestionKind[]][] = [
    ['deleteQuestion', MORE_KINDS],
    ['deleteText', ['text']],
    ['deleteFile', ['file']],
    ['deleteSelectText', ['select']],
    ['deleteRadioText', ['radio']],
    ['deletecheckText', ['check']],
  ];
  for (const [path, kinds] of deletes) {
    api.delete(
      `/${path}/:fid/:fieldId`,
      { schema: { params: FieldParamsSchema, response } },
      async (request) => forms.deleteField(deps, target(request, request.params, kinds)),
    );
  }

  api.post(
    '/addOption/:fid/:fieldId',
    { schema: { params: FieldParamsSchema, body: AddOptionBodySchema, response } },
    async (request) =>
      forms.addOption(
        deps,
        target(request, request.params, ['select', 'radio', 'check']),
        request.body.value,
      ),
  );

  const optionRoutes: [string, string, QuestionKind][] = [
    ['updateOption', 'deleteOption', 'select'],
    ['updateRadioOption', 'deleteRadioOption', 'radio'],
    ['updatecheckOption', 'deletecheckOption', 'check'],
  ];
  for (const [updatePath, deletePath, kind] of optionRoutes) {
    api.put(
      `/${updatePath}/:fid/:fieldId/:optionId`,
      { schema: { params: OptionParamsSchema, body: RenameOptionBodySchema, response } },
      async (request) =>
        forms.renameOption(
          deps,
          target(request, request.params, [kind]),
          request.params.optionId,
          request.body.name,
        ),
    );
    api.delete(
      `/${deletePath}/:fid/:fieldId/:optionId`,
      { schema: { params: OptionParamsSchema, response } },
      async (request) =>
        forms.deleteOption(deps, target(request, request.params, [kind]), request.params.optionId),
    );
  }
}
