import { queryOptions } from '@tanstack/react-query';
import { ErrorBodySchema } from '#common/errors.ts';
import type { JoiningForm, JoiningFormBody } from '#common/profile.ts';
import type { UploadResponse } from '#common/submissions.ts';
import { api, ApiError } from './client.ts';
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
    headers: { authorization: `Bearer ${readSession()?.token ?? ''}` },
  });
  const json: unknown = await response.json().catch(() => null);
  if (response.ok) return json as UploadResponse;
  const parsed = ErrorBodySchema.safeParse(json);
  throw new ApiError(
    response.status,
    parsed.success ? parsed.data.error.code : 'UNKNOWN',
    parsed.success ? parsed.data.error.message : 'Upload failed',
  );
}
