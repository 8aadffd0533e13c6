import { UPLOAD_TYPES } from '#common/answer-limits.ts';
import { ApiError } from '../../api/client.ts';
import { FORM_CHANGED } from '../submit/use-submit.ts';

export const WRONG_TYPE_MESSAGE = 'Choose a JPEG, PNG or PDF file';

/** The same rule as the picker's accept list, for files dropped or chosen through "All files". */
export const hasAcceptedExtension = (fileName: string) =>
  UPLOAD_TYPES.some((type) => type.extensions.some((ext) => fileName.toLowerCase().endsWith(ext)));

/** The type a file's name says it is (the server checks its content). */
export const mimeOfName = (fileName: string): string =>
  UPLOAD_TYPES.find((type) => type.extensions.some((ext) => fileName.toLowerCase().endsWith(ext)))?.mime ??
  '';

/** The slot's words for a failed upload; `retry` when trying again with the same file may work. */
export function uploadFailure(error: unknown): { message: string; retry: boolean } {
  const failure = error instanceof ApiError ? error : new ApiError(0, 'OFFLINE', String(error));
  if (failure.status === 413) {
    const mb = /(\d+)\s*MB/.exec(failure.message)?.[1];
    return { message: mb ? `This file is larger than ${mb} MB` : failure.message, retry: false };
  }
  if (failure.status === 415) return { message: WRONG_TYPE_MESSAGE, retry: false };
  if (failure.status === 0 || failure.status >= 500 || failure.status === 429) {
    return { message: `Upload failed. ${failure.message}`, retry: true };
  }
  // The form asks for no file any more: the owner removed the question since the page loaded it.
  return { message: failure.field === 'formId' ? FORM_CHANGED : failure.detail, retry: false };
}

export const isPdf = (fileName: string | undefined) => /\.pdf$/i.test(fileName ?? '');
