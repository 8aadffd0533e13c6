// The number question (docs/decisions/043-question-kinds.md): bounds, whole or decimal, a unit shown beside it.
import { z } from 'zod';

export const UNIT_MAX = 20;
/** Beyond this a number typed by a person is not one a form means (and floats stop being exact). */
export const NUMBER_ABS_MAX = 1e15;

export const NumberSettingsSchema = z
  .strictObject({
    min: z.number().finite().min(-NUMBER_ABS_MAX).max(NUMBER_ABS_MAX).optional(),
    max: z.number().finite().min(-NUMBER_ABS_MAX).max(NUMBER_ABS_MAX).optional(),
    /** False: whole numbers only. */
    decimals: z.boolean().default(false),
    unit: z.string().trim().max(UNIT_MAX, `A unit is at most ${UNIT_MAX} characters`).optional(),
  })
  .refine((s) => s.min === undefined || s.max === undefined || s.min <= s.max, {
    message: 'The smallest number allowed must not be above the largest',
  });
export type NumberSettings = z.output<typeof NumberSettingsSchema>;

/** A number as a person types it: optional sign, digits, one decimal point (a comma is taken for one). */
const NUMBER_TEXT = /^[-+]?(\d+([.,]\d*)?|[.,]\d+)$/;
export const isNumberText = (text: string): boolean => NUMBER_TEXT.test(text.trim());

/** The number in `text`, or why it is not an answer to this question. */
export function readNumber(text: string, settings: NumberSettings): { value: number } | { error: string } {
  const trimmed = text.trim();
  if (!isNumberText(trimmed)) return { error: 'Enter a number' };
  const value = Number(trimmed.replace(',', '.'));
  if (!Number.isFinite(value) || Math.abs(value) > NUMBER_ABS_MAX) return { error: 'Enter a smaller number' };
  if (!settings.decimals && !Number.isInteger(value)) return { error: 'Enter a whole number' };
  if (settings.min !== undefined && value < settings.min) return { error: `Enter ${settings.min} or more` };
  if (settings.max !== undefined && value > settings.max) return { error: `Enter ${settings.max} or less` };
  return { value };
}

/**
 * The answer's schema: the number as the customer typed it in, the number written plainly out ("2,50" → "2.5"), so
 * stored answers compare and count alike (read back with readNumber).
 */
export function numberAnswerSchema(settings: NumberSettings, required: boolean) {
  const filled = z.string().transform((text, ctx) => {
    const read = readNumber(text, settings);
    if ('value' in read) return String(read.value);
    ctx.addIssue({ code: 'custom', message: read.error });
    return z.NEVER;
  });
  return required
    ? z.string({ error: 'This question is required' }).trim().min(1, 'This question is required').pipe(filled)
    : z.union([z.literal('').transform(() => undefined), filled]).optional();
}
