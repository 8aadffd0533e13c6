import { replace, type LoaderFunctionArgs } from 'react-router';
import type { PublicForm } from '#common/forms.ts';
import { ApiError } from '../api/client.ts';
import { fetchPublicForm } from '../api/public-forms.ts';
import { paths } from '../paths.ts';
import { readContext, saveContext } from './fill-storage.ts';

export type Unavailable = 'gone' | 'missing' | 'offline';
export type FillLoad = { state: 'ready'; form: PublicForm; ownerId: string } | { state: Unavailable };

/** 404 (deleted or unknown) and 400 (not even a form id) both mean the link leads nowhere. */
const isGone = (error: unknown) =>
  error instanceof ApiError && (error.status === 404 || error.status === 400);

/** The id of the form this page fetched a moment ago from its link, so /preview need not fetch it again. */
let justFetched: string | null = null;

/** /customer/:fid/:id: fetch the form, remember it and its owner, and continue at /preview (spec §2). */
export async function loadCustomerLink({ params }: LoaderFunctionArgs): Promise<Response | FillLoad> {
  // /preview's code downloads while the form is fetched, instead of after it.
  void import('./preview-page.tsx').catch(() => undefined);
  try {
    const form = await fetchPublicForm(params.fid ?? '');
    saveContext(form, params.id ?? '');
    justFetched = form._id;
    return replace(paths.preview.href());
  } catch (error) {
    return { state: isGone(error) ? 'gone' : 'offline' };
  }
}

/**
 * /preview and /fileUpload: the remembered form, refreshed from the server so a deleted form or a changed question
 * shows at once; the remembered copy is used when the network is down. Right after the link's own fetch, that
 * copy is already fresh.
 */
export async function loadFillForm(): Promise<FillLoad> {
  const context = readContext();
  if (!context) return { state: 'missing' };
  if (context.form._id === justFetched) {
    justFetched = null;
    return { state: 'ready', ...context };
  }
  try {
    const form = await fetchPublicForm(context.form._id);
    saveContext(form, context.ownerId);
    return { state: 'ready', form, ownerId: context.ownerId };
  } catch (error) {
    return isGone(error) ? { state: 'gone' } : { state: 'ready', ...context };
  }
}
