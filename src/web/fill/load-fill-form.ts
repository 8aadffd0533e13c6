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

/** /customer/:fid/:id: fetch the form, remember it and its owner, and continue at /preview (spec §2). */
export async function loadCustomerLink({ params }: LoaderFunctionArgs): Promise<Response | FillLoad> {
  try {
    const form = await fetchPublicForm(params.fid ?? '');
    saveContext(form, params.id ?? '');
    return replace(paths.preview.href());
  } catch (error) {
    return { state: isGone(error) ? 'gone' : 'offline' };
  }
}

/**
 * /preview and /fileUpload: the remembered form, refreshed from the server so a deleted form or a changed question
 * shows at once; the remembered copy is used when the network is down.
 */
export async function loadFillForm(): Promise<FillLoad> {
  const context = readContext();
  if (!context) return { state: 'missing' };
  try {
    const form = await fetchPublicForm(context.form._id);
    saveContext(form, context.ownerId);
    return { state: 'ready', form, ownerId: context.ownerId };
  } catch (error) {
    return isGone(error) ? { state: 'gone' } : { state: 'ready', ...context };
  }
}
