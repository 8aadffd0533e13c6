// Ratings, linear scales and NPS (docs/decisions/043-question-kinds.md): a choice of one whole number in a range,
// drawn as a radio group (one tab stop, arrow keys), so the page without JavaScript posts it like any radio.
import { z } from 'zod';

export const SCALE_LABEL_MAX = 60;

export const RatingSettingsSchema = z.strictObject({
  /** 1 to `max`. */
  max: z.number().int().min(3, 'A rating goes up to 3 at least').max(10, 'A rating goes up to 10 at most'),
  style: z.enum(['stars', 'numbers']).default('stars'),
});
export type RatingSettings = z.output<typeof RatingSettingsSchema>;

const label = z
  .string()
  .trim()
  .max(SCALE_LABEL_MAX, `A label is at most ${SCALE_LABEL_MAX} characters`)
  .optional();

export const ScaleSettingsSchema = z.strictObject({
  from: z.union([z.literal(0), z.literal(1)]),
  to: z.number().int().min(5, 'A scale goes up to 5 at least').max(10, 'A scale goes up to 10 at most'),
  fromLabel: label,
  toLabel: label,
  /** Net Promoter Score: 0–10, and Results show the score with its three groups. */
  nps: z.boolean().default(false),
});
export type ScaleSettings = z.output<typeof ScaleSettingsSchema>;

/** The NPS preset the editor offers. */
export const NPS_PRESET: ScaleSettings = {
  from: 0,
  to: 10,
  fromLabel: 'Not at all likely',
  toLabel: 'Extremely likely',
  nps: true,
};
export const NPS_QUESTION = 'How likely are you to recommend us to a friend or colleague?';

/** One whole number in `from`..`to`, sent as text (a radio's value), as the page without JavaScript posts it. */
export function stepAnswerSchema(range: { from: number; to: number }, required: boolean) {
  const one = z
    .string()
    .trim()
    .refine((v) => /^\d{1,2}$/.test(v) && Number(v) >= range.from && Number(v) <= range.to, {
      message: `Choose a number from ${range.from} to ${range.to}`,
    });
  return required
    ? z.string({ error: 'Choose a number' }).trim().min(1, 'Choose a number').pipe(one)
    : z.union([z.literal('').transform(() => undefined), one]).optional();
}

/** NPS: the share of promoters (9–10) minus the share of detractors (0–6), from −100 to 100. */
export function npsOf(counts: Readonly<Record<number, number>>): {
  score: number | null;
  promoters: number;
  passives: number;
  detractors: number;
} {
  let promoters = 0;
  let passives = 0;
  let detractors = 0;
  for (const [step, n] of Object.entries(counts)) {
    const s = Number(step);
    if (s >= 9) promoters += n;
    else if (s >= 7) passives += n;
    else detractors += n;
  }
  const total = promoters + passives + detractors;
  const score = total === 0 ? null : Math.round(((promoters - detractors) / total) * 100);
  return { score, promoters, passives, detractors };
}
