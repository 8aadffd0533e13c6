import { z } from 'zod';

/** Days of responses and views the Results view shows, today included. */
export const RESULTS_DAYS = 30;
/** Newest submissions whose text answers the Results view shows. */
export const LATEST_TEXT_ANSWERS = 5;

const OptionCountSchema = z.object({
  value: z.string(),
  count: z.number(),
  /** Of the responses that answered the question, 0–100, one decimal. */
  percent: z.number(),
  /** False for an answer given to an option since renamed or removed: shown as "no longer offered". */
  offered: z.boolean(),
});
export type OptionCount = z.infer<typeof OptionCountSchema>;

const question = {
  fieldId: z.string(),
  name: z.string(),
  answered: z.number(),
  /** The responses the question was shown to: all of them, less those whose answers skipped it (branching). */
  shownTo: z.number(),
};

export const ChoiceResultSchema = z.object({
  ...question,
  kind: z.enum(['select', 'radio', 'check']),
  /** The form's options in its order (0 counts included), then any no longer offered, most chosen first. */
  options: z.array(OptionCountSchema),
});
export type ChoiceResult = z.infer<typeof ChoiceResultSchema>;

export const TextResultSchema = z.object({
  ...question,
  /** A time and a web address are shown as text answers are. */
  kind: z.enum(['text', 'time', 'url']),
  /** Answers among the form's newest submissions, newest first. */
  latest: z.array(
    z.object({ submissionId: z.string(), createdAt: z.string(), Date: z.string(), value: z.string() }),
  ),
});
export type TextResult = z.infer<typeof TextResultSchema>;

/** A file or a consent: how many answered is all there is to count. */
export const FileResultSchema = z.object({ ...question, kind: z.enum(['file', 'consent']) });

/** A number question: the summary of the numbers given (null before any), from the responses per number. */
export const NumberResultSchema = z.object({
  ...question,
  kind: z.literal('number'),
  summary: z
    .object({
      count: z.number(),
      min: z.number(),
      max: z.number(),
      mean: z.number(),
      median: z.number(),
      histogram: z.array(z.object({ from: z.number(), to: z.number(), count: z.number() })),
    })
    .nullable(),
});
export type NumberResult = z.infer<typeof NumberResultSchema>;

/** A rating or a scale: every step with how many chose it, the mean, and for an NPS scale its score and groups. */
export const StepResultSchema = z.object({
  ...question,
  kind: z.enum(['rating', 'scale']),
  steps: z.array(z.object({ value: z.number(), count: z.number(), percent: z.number() })),
  /** Null before any answer. */
  mean: z.number().nullable(),
  nps: z
    .object({
      score: z.number().nullable(),
      promoters: z.number(),
      passives: z.number(),
      detractors: z.number(),
    })
    .nullable(),
});
export type StepResult = z.infer<typeof StepResultSchema>;

/**
 * A choice grid: per row, the grid's columns with how many chose each (of the responses that answered that row),
 * then rows and columns no longer on the grid that answers still name.
 */
export const GridResultSchema = z.object({
  ...question,
  kind: z.literal('grid'),
  rows: z.array(
    z.object({
      row: z.string(),
      answered: z.number(),
      offered: z.boolean(),
      columns: z.array(OptionCountSchema),
    }),
  ),
});
export type GridResult = z.infer<typeof GridResultSchema>;

export const QuestionResultSchema = z.discriminatedUnion('kind', [
  ChoiceResultSchema,
  TextResultSchema,
  FileResultSchema,
  NumberResultSchema,
  StepResultSchema,
  GridResultSchema,
]);
export type QuestionResult = z.infer<typeof QuestionResultSchema>;

export const DayCountSchema = z.object({ day: z.string(), responses: z.number(), views: z.number() });
export type DayCount = z.infer<typeof DayCountSchema>;

/** GET /api/formResults/{fid}: the form's results, from counters kept as responses arrive. */
export const FormResultsSchema = z.object({
  formId: z.string(),
  formTitle: z.string(),
  responses: z.number(),
  views: z.number(),
  /** Responses since views were first counted ÷ views; null before the first view. */
  completionRate: z.number().nullable(),
  /** The last RESULTS_DAYS days (YYYY-MM-DD in the owner's zone, `?tz=`, else the server's), oldest first, zeros included. */
  days: z.array(DayCountSchema),
  /** The questions in the form's order. */
  questions: z.array(QuestionResultSchema),
});
export type FormResults = z.infer<typeof FormResultsSchema>;

/** Share of `total` as a percentage with one decimal; 0 when there is nothing to share. */
export const percentOf = (count: number, total: number) =>
  total > 0 ? Math.round((count / total) * 1000) / 10 : 0;
