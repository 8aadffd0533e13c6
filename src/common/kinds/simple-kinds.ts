// Consent, statement, time, URL and date (docs/decisions/043-question-kinds.md).
import { z } from 'zod';
import { TEXT_ANSWER_MAX } from '../answer-limits.ts';
import { CONSENT_GIVEN } from './kind-hints.ts';

export const STATEMENT_TEXT_MAX = 5000;
export const CONSENT_TEXT_MAX = 1000;

/** A statement asks nothing: paragraphs, **bold** and links ([text](https://…)), drawn as text, never as markup. */
export const StatementSettingsSchema = z.strictObject({
  text: z
    .string()
    .trim()
    .min(1, 'Write the statement')
    .max(STATEMENT_TEXT_MAX, `At most ${STATEMENT_TEXT_MAX} characters`),
});

/** One checkbox; its text may hold a link (the terms it agrees to). Required: it must be ticked. */
export const ConsentSettingsSchema = z.strictObject({
  text: z
    .string()
    .trim()
    .min(1, 'Write what the customer agrees to')
    .max(CONSENT_TEXT_MAX, `At most ${CONSENT_TEXT_MAX} characters`),
});

export function consentAnswerSchema(required: boolean) {
  const ticked = z.literal(CONSENT_GIVEN, { error: 'Tick the box to agree' });
  return required
    ? z.string({ error: 'Tick the box to agree' }).pipe(ticked)
    : z.union([z.literal('').transform(() => undefined), ticked]).optional();
}

const optionalOr = <T extends z.ZodType<unknown, string>>(filled: T, required: boolean) =>
  required
    ? z.string({ error: 'This question is required' }).trim().min(1, 'This question is required').pipe(filled)
    : z.union([z.literal('').transform(() => undefined), filled]).optional();

/** A time of day, HH:MM on a 24-hour clock, as `<input type="time">` sends it. */
export const timeAnswerSchema = (required: boolean) =>
  optionalOr(
    z
      .string()
      .trim()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Enter a time such as 14:30'),
    required,
  );

/** A web address: http or https only (no javascript:, data: or file:), at most TEXT_ANSWER_MAX characters. */
export function isWebAddress(text: string): boolean {
  if (text.length > TEXT_ANSWER_MAX || /\s/.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
  } catch {
    return false;
  }
}
export const urlAnswerSchema = (required: boolean) =>
  optionalOr(z.string().trim().refine(isWebAddress, 'Enter a web address starting with https://'), required);

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** YYYY-MM-DD naming a day that exists (no 31 April, 29 February only in a leap year). */
export function isRealDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(text);
}

export const DateSettingsSchema = z
  .strictObject({
    earliest: z.string().refine(isRealDate, 'The earliest date must be a real date (YYYY-MM-DD)').optional(),
    latest: z.string().refine(isRealDate, 'The latest date must be a real date (YYYY-MM-DD)').optional(),
  })
  .refine((s) => !s.earliest || !s.latest || s.earliest <= s.latest, {
    message: 'The earliest date must not be after the latest',
  });
export type DateSettings = z.output<typeof DateSettingsSchema>;

export const dateAnswerSchema = (settings: DateSettings, required: boolean) =>
  optionalOr(
    z
      .string()
      .trim()
      .refine(isRealDate, 'Enter a real date')
      .refine(
        (d) => !settings.earliest || d >= settings.earliest,
        `Choose ${settings.earliest ?? ''} or later`,
      )
      .refine((d) => !settings.latest || d <= settings.latest, `Choose ${settings.latest ?? ''} or earlier`),
    required,
  );
