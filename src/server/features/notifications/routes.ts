import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { FormParamsSchema } from '#common/forms.ts';
import { FormNotificationsSchema, FormNotificationsViewSchema } from '#common/notifications.ts';
import { authenticate, ownerOf } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import type { NotificationSources } from './deps.ts';
import { findNotificationSettings, updateNotificationSettings } from './repository.ts';

const formNotFound = () => notFound('Form not found');

/** The owner's notification settings of one form (docs/decisions/021-response-notifications.md). */
export async function notificationRoutes(
  app: FastifyInstance,
  options: { sources: NotificationSources },
): Promise<void> {
  app.addHook('onRequest', authenticate);
  const api = app.withTypeProvider<ZodTypeProvider>();
  const hasEmailQuestion = async (fid: string) =>
    ((await options.sources.findForm(app.db, fid))?.emailQuestionIds.length ?? 0) > 0;

  api.get(
    '/api/formNotifications/:fid',
    { schema: { params: FormParamsSchema, response: { 200: FormNotificationsViewSchema } } },
    async (request) => {
      const settings = await findNotificationSettings(app.db, ownerOf(request).id, request.params.fid);
      if (!settings) throw formNotFound();
      return { ...settings, hasEmailQuestion: await hasEmailQuestion(request.params.fid) };
    },
  );

  api.put(
    '/api/formNotifications/:fid',
    {
      schema: {
        params: FormParamsSchema,
        body: FormNotificationsSchema,
        response: { 200: FormNotificationsViewSchema },
      },
    },
    async (request) => {
      const { fid } = request.params;
      const settings = await updateNotificationSettings(app.db, ownerOf(request).id, fid, request.body);
      if (!settings) throw formNotFound();
      return { ...settings, hasEmailQuestion: await hasEmailQuestion(fid) };
    },
  );
}
