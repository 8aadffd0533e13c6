import { z } from 'zod';

export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'MALFORMED_JSON',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'NOT_FOUND',
  'FORM_CLOSED',
  'ALREADY_SENT',
  'EDITED_MEANWHILE',
  'IN_USE',
  'UNAUTHORIZED',
  'EMAIL_TAKEN',
  'EMAIL_NOT_FOUND',
  'PASSWORD_INVALID',
  'EMAIL_NOT_VERIFIED',
  'CODE_INVALID',
  'LINK_INVALID',
  'RATE_LIMITED',
  'INTERNAL',
  'UNAVAILABLE',
] as const;

export const ErrorCodeSchema = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** Every error the API sends has this body (docs/api.md). */
export const ErrorBodySchema = z.object({
  error: z.object({
    // A newer server may send codes an older page does not know yet; keep them as strings.
    code: z.string(),
    message: z.string(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
