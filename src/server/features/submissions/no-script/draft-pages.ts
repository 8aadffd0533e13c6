// The pages a form posted without JavaScript is redirected to (post/redirect/get, docs/decisions/024): the page drawn
// again from its draft (drafts.ts), with the answers and the messages, at GET /customer/{fid}/{ownerId}/draft/{key};
// and the thank-you at GET /customer/{fid}/{ownerId}/sent. Reload and Back fetch these; none sends answers again.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { closedLookOf } from '#common/closed-form.ts';
import { closedMessageOf, closedReasonOf } from '#common/form-gate.ts';
import { isWebUrl } from '#common/form-settings.ts';
import { toPublicForm } from '#common/forms.ts';
import {
  renderClosedPage,
  renderCustomerPage,
  renderMessagePage,
  renderOnFormColours,
  withoutScripts,
} from '../../../pages/customer-page.ts';
import { readCustomerTemplate, sendCustomerPage } from '../../../pages/html-reply.ts';
import { missingHtml, thankYouHtml } from '../../../pages/message-html.ts';
import type { SubmissionDeps } from '../deps.ts';
import { readDraft } from './drafts.ts';

/** The address of the page drawn from a draft, under the form's own (`formPath`). */
export const draftPath = (formPath: string, key: string) => `${formPath}/draft/${key}`;
/** The address of the thank-you for a response sent without JavaScript. */
export const sentPath = (formPath: string) => `${formPath}/sent`;

const IdsSchema = z.object({ fid: z.uuid(), ownerId: z.uuid() });
/** Any key the address may carry: one that is not a draft's is a draft not found, not a refusal. */
const DraftParamsSchema = z.object({ key: z.string().max(100) });

export function draftPageRoutes(app: FastifyInstance, deps: SubmissionDeps): void {
  /** The form of the address, or null once a 404 page is sent; the page template without scripts. */
  async function formOf(request: FastifyRequest, reply: FastifyReply) {
    const template = withoutScripts(await readCustomerTemplate(app.config.webDir));
    const ids = IdsSchema.safeParse(request.params);
    const form = ids.success ? await deps.forms.find(ids.data.fid) : null;
    if (!ids.success || !form || form.ownerIdAsStructureId !== ids.data.ownerId) {
      await sendCustomerPage(
        request,
        reply,
        404,
        renderMessagePage(template, 'Form not found', missingHtml()),
      );
      return null;
    }
    return { form, template, self: `/customer/${form._id}/${form.ownerIdAsStructureId}` };
  }

  app.get('/customer/:fid/:ownerId/draft/:key', async (request, reply) => {
    const found = await formOf(request, reply);
    if (!found) return reply;
    const { form, template, self } = found;
    const closed = closedReasonOf(form, new Date(), form.responseCount);
    if (closed) {
      const message = closedMessageOf(form.settings, closed, deps.timeZone);
      return sendCustomerPage(request, reply, 200, renderClosedPage(template, closedLookOf(form), message));
    }
    const key = DraftParamsSchema.safeParse(request.params).data?.key ?? '';
    const state = await readDraft(deps.db, form._id, key);
    // Gone (its answers were sent, a day passed), another form's, or made up: the form as its link opens it.
    if (!state) return reply.redirect(self, 303);
    // The page carries its draft's key, so that a form with pages goes on from the answers kept (the uploads'
    // claim secrets stay in the draft: the page shows only the files' names).
    const { files: _claims, ...shown } = state;
    const page = renderCustomerPage(template, toPublicForm(form), {
      action: self,
      state: { ...shown, draftKey: key },
      embed: false,
    });
    // Never kept, not even for Back: once the answers are stored, Back fetches it and finds the empty form.
    reply.header('cache-control', 'no-store');
    return sendCustomerPage(request, reply, 200, page);
  });

  app.get('/customer/:fid/:ownerId/sent', async (request, reply) => {
    const found = await formOf(request, reply);
    if (!found) return reply;
    const { form, template, self } = found;
    const redirect = form.settings.redirectUrl && isWebUrl(form.settings.redirectUrl);
    const publicForm = toPublicForm(form);
    const page = renderOnFormColours(
      template,
      publicForm,
      thankYouHtml(publicForm, self, redirect ? new URL(form.settings.redirectUrl ?? '') : null),
    );
    return sendCustomerPage(request, reply, 200, page);
  });
}
