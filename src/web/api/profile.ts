import { queryOptions } from '@tanstack/react-query';
import type { JoiningForm, JoiningFormBody } from '#common/profile.ts';
import type { UploadResponse } from '#common/submissions.ts';
import { api, notReached, toApiError } from './client.ts';
import { readAnswer } from './read-answer.ts';
import { readSession } from './session.ts';

export const joiningFormQuery = () =>
  queryOptions({ queryKey: ['userForm'], queryFn: () => api<JoiningForm>('/api/userForm', { owner: true }) });

export const saveJoiningForm = (body: JoiningFormBody) =>
  api<JoiningForm>('/api/userForm', { method: 'PUT', body, owner: true });

/** Uploads one of the owner's own documents (with their token, no form). */
export async function uploadOwnerDocument(file: File): Promise<UploadResponse> {
  const body = new FormData();
  body.append('file', file);
  const response = await fetch('/api/profile', {
    method: 'POST',
    body,
    headers: { accept: 'application/json', authorization: `Bearer ${readSession()?.token ?? ''}` },
  }).catch(() => {
    throw notReached('offline');
  });
  const answer = await readAnswer(response, 'file', ['file', '_id']);
  if ('body' in answer) return answer.body as UploadResponse;
  throw 'unreached' in answer ? notReached('offline') : toApiError(answer.failure);
}
