// A form's limits and schedule, its closed and thank-you messages and its redirect (issue 12 item 4).
// docs/decisions/019-form-limits.md.
import { z } from 'zod';

export const SETTINGS_MESSAGE_MAX = 1000;
export const REDIRECT_URL_MAX = 2000;
export const RESPONSE_LIMIT_MAX = 1_000_000;

/** The settings as stored and sent: instants in ISO 8601 UTC, null when unset. */
export const FormSettingsSchema = z.object({
  opensAt: z.string().nullable(),
  closesAt: z.string().nullable(),
  responseLimit: z.number().int().nullable(),
  closedMessage: z.string().nullable(),
  thankYouMessage: z.string().nullable(),
  redirectUrl: z.string().nullable(),
});
export type FormSettings = z.infer<typeof FormSettingsSchema>;

export const NO_SETTINGS: FormSettings = {
  opensAt: null,
  closesAt: null,
  responseLimit: null,
  closedMessage: null,
  thankYouMessage: null,
  redirectUrl: null,
};

const instant = (what: string) =>
  z.iso
    .datetime({
      offset: true,
      error: `${what} must be a date and time with its zone, such as 2026-12-01T09:00:00+05:30`,
    })
    // A year 0 with a +20:00 offset is a valid ISO string, but no instant PostgreSQL stores as this day.
    .refine((text) => {
      const year = new Date(text).getUTCFullYear();
      return year >= 2000 && year <= 9999;
    }, `${what} must be between the years 2000 and 9999`)
    .transform((text) => new Date(text).toISOString())
    .nullable();

/** Blank means no message; text past the bound is refused rather than cut. */
const message = (what: string) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .max(SETTINGS_MESSAGE_MAX, `${what} must be at most ${SETTINGS_MESSAGE_MAX} characters`)
    .transform((text) => text || null)
    .nullable();

/** True for an absolute http or https URL: never javascript:, data: or a path the page would resolve. */
export function isWebUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

const redirectUrl = z
  .string({ error: 'Redirect URL must be text' })
  .trim()
  .max(REDIRECT_URL_MAX, `Redirect URL must be at most ${REDIRECT_URL_MAX} characters`)
  .refine((text) => text === '' || isWebUrl(text), 'Redirect URL must start with http:// or https://')
  .transform((text) => text || null)
  .nullable();

/** PUT /api/formSettings/{fid}: every setting, null (or blank text) to clear it. */
export const FormSettingsBodySchema = z
  .object({
    opensAt: instant('Opens at'),
    closesAt: instant('Closes at'),
    responseLimit: z
      .int({ error: 'Response limit must be a whole number' })
      .min(1, 'Response limit must be at least 1')
      .max(RESPONSE_LIMIT_MAX, `Response limit must be at most ${RESPONSE_LIMIT_MAX.toLocaleString('en-US')}`)
      .nullable(),
    closedMessage: message('Closed message'),
    thankYouMessage: message('Thank-you message'),
    redirectUrl,
  })
  .superRefine((body, ctx) => {
    if (body.opensAt && body.closesAt && body.closesAt <= body.opensAt) {
      ctx.addIssue({ code: 'custom', path: ['closesAt'], message: 'Closes at must be after opens at' });
    }
  });
export type FormSettingsBody = z.input<typeof FormSettingsBodySchema>;

/** What the owner's settings page reads: the settings, the zone their times are shown in, and the count so far. */
export const FormSettingsViewSchema = FormSettingsSchema.extend({
  timeZone: z.string(),
  responseCount: z.number().int(),
});
export type FormSettingsView = z.infer<typeof FormSettingsViewSchema>;
