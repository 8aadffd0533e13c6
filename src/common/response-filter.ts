import { z } from 'zod';
import { isTimeZone } from './zoned-time.ts';

/** Longest search text the owner's responses list accepts. */
export const RESPONSE_SEARCH_MAX = 200;
/** Most responses one bulk delete may name. */
export const BULK_DELETE_MAX = 500;

// Year 0000 is a valid ISO date but not a PostgreSQL one (it has no year 0): refused here rather than answered 500.
const DaySchema = (field: string) =>
  z.iso
    .date({ error: `${field} must be a date written YYYY-MM-DD` })
    .refine((day) => !day.startsWith('0000'), { error: `${field} must be in year 1 or later` })
    .optional();

/**
 * Which of a form's responses the owner's list and its CSV show: answer text containing `q` (any case), sent on or
 * after `fromDate` and on or before `toDate`, both days on the owner's clock (`tz` beside them; the server's
 * FORM_TIMEZONE without it). (`from` already names the
 * list's starting end, newest or oldest, so the dates are `fromDate`/`toDate`.)
 */
export const ResponseFilterFields = {
  q: z.string().trim().max(RESPONSE_SEARCH_MAX).optional(),
  fromDate: DaySchema('fromDate'),
  toDate: DaySchema('toDate'),
};
type Days = { fromDate?: string | undefined; toDate?: string | undefined };
/** The refinement every schema with the filter's fields gets: the range may not end before it starts. */
export const endsAfterStart: [(f: Days) => boolean, { path: string[]; error: string }] = [
  (f) => !f.fromDate || !f.toDate || f.toDate >= f.fromDate,
  { path: ['toDate'], error: 'toDate must be on or after fromDate' },
];
export const ResponseFilterSchema = z.object(ResponseFilterFields).refine(...endsAfterStart);
export type ResponseFilter = z.infer<typeof ResponseFilterSchema>;

/** `tz`: the owner's zone, which the filter's days are read in (and the CSV's times written and named in). */
export const OwnerZoneField = {
  tz: z
    .string()
    .refine(isTimeZone, { error: 'tz must be a time zone name, such as Europe/Berlin' })
    .optional(),
};

/** The CSV export's query: the filter, and the owner's zone. */
export const CsvQuerySchema = z
  .object({ ...ResponseFilterFields, ...OwnerZoneField })
  .refine(...endsAfterStart);

export const isFiltered = (f: ResponseFilter): boolean => Boolean(f.q || f.fromDate || f.toDate);

/** A LIKE pattern matching `text` anywhere, its own `%`, `_` and `\` taken literally (escape character `\`). */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const DeleteResponsesBodySchema = z.object({
  ids: z
    .array(z.uuid({ error: 'Not a valid submission id' }))
    .min(1)
    .max(BULK_DELETE_MAX),
});
export const DeletedResponsesSchema = z.object({ deleted: z.number() });
