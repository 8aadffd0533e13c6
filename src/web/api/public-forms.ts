import { IDEMPOTENCY_HEADER } from '#common/answer-limits.ts';
import type { PublicForm } from '#common/forms.ts';
import type { SubmissionBody, UploadResponse } from '#common/submissions.ts';
import { answerError, api, ApiError, notReached } from './client.ts';
import { submissionUrl, uploadUrl } from './customer-urls.ts';
import { SUBMIT_TIMEOUT_MS, UPLOAD_STALL_MS } from './timeouts.ts';

/** The customer's calls (docs/api.md "Customers"): public, never with the owner's token. */
export const fetchPublicForm = (fid: string) => api<PublicForm>(`/api/publicForm/${encodeURIComponent(fid)}`);

export const submitAnswers = (ownerId: string, body: SubmissionBody, idempotencyKey: string) =>
  api<{ _id: string }>(submissionUrl(ownerId), {
    method: 'POST',
    body,
    headers: { [IDEMPOTENCY_HEADER]: idempotencyKey },
    timeoutMs: SUBMIT_TIMEOUT_MS,
    sent: 'answers',
    expects: ['_id'],
  });

export const deleteUpload = (deleteId: string) =>
  api<unknown>(`/api/profile/${encodeURIComponent(deleteId)}`, { method: 'DELETE' });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Checks an upload's answer with the shared schema, loaded with the first upload rather than with the page. A 2xx
 * that is not our answer (a captive portal's page, or its JSON) is not ours: the file did not get there, as with no
 * connection.
 */
async function toUploadResponse(text: string): Promise<UploadResponse> {
  const { UploadResponseSchema } = await import('#common/submissions.ts');
  const parsed = UploadResponseSchema.safeParse(parseJson(text));
  if (parsed.success) return parsed.data;
  throw notReached('offline');
}

/**
 * POST /api/profile?formId= with the file in the multipart field `file`. XMLHttpRequest rather than fetch because
 * only XHR reports upload progress; `onProgress` gets 0–100.
 */
export function uploadFile(
  formId: string,
  file: File,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<UploadResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', uploadUrl(formId));
    xhr.setRequestHeader('accept', 'application/json');
    // A stall (no progress, or no answer once the file is sent) ends the try as not reached, so it is tried again.
    let stalled = false;
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const watch = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        stalled = true;
        xhr.abort();
      }, UPLOAD_STALL_MS);
    };
    xhr.onloadend = () => clearTimeout(watchdog);
    xhr.upload.onprogress = (event) => {
      watch();
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        toUploadResponse(xhr.responseText).then(resolve, reject);
        return;
      }
      // A proxy or a dropped connection can answer 0 with no body: treat it like being offline.
      if (xhr.status === 0) reject(notReached('offline'));
      else answerError(xhr.status, parseJson(xhr.responseText), 'file').then(reject, reject);
    };
    xhr.onerror = () => reject(notReached('offline'));
    xhr.onabort = () =>
      reject(stalled ? notReached('stalled') : new ApiError(0, 'ABORTED', 'Upload cancelled'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const body = new FormData();
    body.append('file', file);
    xhr.send(body);
    watch();
  });
}
