import { CLOSED_LOOK_ID, closedLookOf, type ClosedFormLook } from '#common/closed-form.ts';
import type { PublicForm } from '#common/forms.ts';
import { ApiError } from '../../api/client.ts';
import { fetchPublicForm } from '../../api/public-forms.ts';
import { emptyDraft, KEYS, saveContext, saveDraft, type Draft } from '../storage/fill-storage.ts';
import { linkValuesOf, withLinkValues, type LinkValues } from './link-values.ts';

export type Unavailable = 'gone' | 'closed' | 'missing' | 'offline';
export type FillLoad =
  | { state: 'ready'; form: PublicForm; ownerId: string; draft: Draft }
  /**
   * `message`: the server's words for a closed form (its owner's closed message, or when it opens); `look`, which
   * form it is (its title and colours), when known.
   */
  | { state: Unavailable; message?: string; look?: ClosedFormLook };

/** 404 (deleted or unknown) and 400 (not even a form id) mean the link leads nowhere; 410, that it was closed. */
const unavailable = (error: unknown): Unavailable | null =>
  error instanceof ApiError
    ? error.status === 410
      ? 'closed'
      : error.status === 404 || error.status === 400
        ? 'gone'
        : null
    : null;

/** The closed form's look the server put in its page, when it is this form's. */
function embeddedLook(fid: string): ClosedFormLook | undefined {
  try {
    const look = JSON.parse(
      document.getElementById(CLOSED_LOOK_ID)?.textContent ?? 'null',
    ) as ClosedFormLook | null;
    return look?._id === fid ? closedLookOf(look) : undefined;
  } catch {
    return undefined;
  }
}

const closedMessage = (error: unknown): string | undefined =>
  error instanceof ApiError && error.status === 410 ? error.message : undefined;

/**
 * The form this page loaded a moment ago from its link, so /preview need not fetch it again, with what the link's
 * query string filled (its hidden fields and prefilled answers).
 */
let justLoaded: { form: PublicForm; ownerId: string; link?: LinkValues } | null = null;

/** The saved answers for `formId` (zod loads only when there are some); answers saved for another form start over. */
const loadDraft = async (formId: string): Promise<Draft> =>
  localStorage.getItem(KEYS.draft) === null
    ? emptyDraft(formId)
    : (await import('../storage/saved-fill.ts')).readDraft(formId);

async function ready(form: PublicForm, ownerId: string, link?: LinkValues): Promise<FillLoad> {
  const saved = await loadDraft(form._id);
  const draft = withLinkValues(form, saved, link);
  // Kept at once: the address loses its query at /preview, and a reload there must still send the hidden fields.
  if (draft !== saved) saveDraft(draft);
  return { state: 'ready', form, ownerId, draft };
}

/**
 * /customer/:fid/:id: the form (the copy the server put in the page, else fetched), remembered with its owner;
 * 'preview' means continue at /preview (docs/product.md, Customer pages).
 */
export async function loadCustomerLink(
  fid: string,
  ownerId: string,
  embedded: PublicForm | null,
): Promise<'preview' | FillLoad> {
  try {
    const form = embedded?._id === fid ? embedded : await fetchPublicForm(fid);
    saveContext(form, ownerId);
    justLoaded = { form, ownerId, link: linkValuesOf(form, location.search) };
    return 'preview';
  } catch (error) {
    const reason = unavailable(error);
    // No network (the worker gave the bare page, without the form in it): the copy this device kept when the link
    // was opened before, if it is this form's.
    const kept = reason ? null : (await import('../storage/saved-fill.ts')).readContext();
    if (kept?.form._id === fid) {
      justLoaded = { form: kept.form, ownerId, link: linkValuesOf(kept.form, location.search) };
      return 'preview';
    }
    return reason === 'closed'
      ? { state: reason, message: closedMessage(error), look: embeddedLook(fid) }
      : { state: reason ?? 'offline', message: closedMessage(error) };
  }
}

/**
 * /preview and /fileUpload: the remembered form, refreshed from the server so a deleted form or a changed question
 * shows at once; the remembered copy is used when the network is down. Right after the link's own load, that copy
 * is already fresh.
 */
export async function loadFillForm(): Promise<FillLoad> {
  if (justLoaded) {
    const { form, ownerId, link } = justLoaded;
    justLoaded = null;
    return ready(form, ownerId, link);
  }
  // The stored copy is checked (zod, loaded now) while the fresh one is on its way.
  const storedId = localStorage.getItem(KEYS.formId);
  const [context, fetched] = await Promise.all([
    import('../storage/saved-fill.ts').then((m) => m.readContext()),
    storedId
      ? fetchPublicForm(storedId).then(
          (form) => ({ form }),
          (error: unknown) => ({ error }),
        )
      : null,
  ]);
  if (!context) return { state: 'missing' };
  if (fetched && 'form' in fetched) {
    saveContext(fetched.form, context.ownerId);
    return ready(fetched.form, context.ownerId);
  }
  const reason = fetched && unavailable(fetched.error);
  return reason
    ? {
        state: reason,
        message: closedMessage(fetched.error),
        look: reason === 'closed' ? closedLookOf(context.form) : undefined,
      }
    : ready(context.form, context.ownerId);
}
