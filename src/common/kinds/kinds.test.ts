import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gridAnswerSchema, GridSettingsSchema } from './grid-kind.ts';
import { stepsOf } from './kind-hints.ts';
import { NumberSettingsSchema, readNumber } from './number-kind.ts';
import { summariseNumbers } from './number-summary.ts';
import { npsOf, RatingSettingsSchema, stepAnswerSchema } from './scale-kinds.ts';
import {
  consentAnswerSchema,
  dateAnswerSchema,
  isRealDate,
  timeAnswerSchema,
  urlAnswerSchema,
} from './simple-kinds.ts';

const messageOf = (result: { error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe('number questions', () => {
  it('read back every number in bounds as typed, with a comma for a point, and refuse those outside', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.double({ min: -2000, max: 2000, noNaN: true }),
        (min, span, typed) => {
          const settings = NumberSettingsSchema.parse({ min, max: min + span, decimals: true });
          const text = String(typed);
          fc.pre(/^-?\d+(\.\d+)?$/.test(text));
          const read = readNumber(text.replace('.', ','), settings);
          if (typed < min) expect(read).toEqual({ error: `Enter ${min} or more` });
          else if (typed > min + span) expect(read).toEqual({ error: `Enter ${min + span} or less` });
          else expect(read).toEqual({ value: Number(text) });
        },
      ),
    );
  });

  it('refuse a fraction where whole numbers are asked, and whatever is not a number', () => {
    const whole = NumberSettingsSchema.parse({});
    expect(readNumber('2.5', whole)).toEqual({ error: 'Enter a whole number' });
    for (const text of ['', '1e5', '0x10', 'Infinity', '1,000.5', '12 kg', '--1', '.'])
      expect(readNumber(text, whole)).toEqual({ error: 'Enter a number' });
    expect(readNumber('9'.repeat(17), whole)).toEqual({ error: 'Enter a smaller number' });
    expect(NumberSettingsSchema.safeParse({ min: 5, max: 1 }).success).toBe(false);
  });
});

describe('ratings, scales and NPS', () => {
  it('take every step of the range and nothing else', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0, 1),
        fc.integer({ min: 5, max: 10 }),
        fc.integer({ min: -5, max: 15 }),
        (from, to, n) => {
          const ok = stepAnswerSchema({ from, to }, true).safeParse(String(n)).success;
          expect(ok).toBe(stepsOf({ from, to }).includes(n));
        },
      ),
    );
    expect(messageOf(stepAnswerSchema({ from: 1, to: 5 }, true).safeParse(''))).toBe('Choose a number');
    expect(stepAnswerSchema({ from: 1, to: 5 }, false).safeParse('').data).toBeUndefined();
    expect(RatingSettingsSchema.safeParse({ max: 11 }).success).toBe(false);
  });

  it('score NPS as promoters minus detractors, in percent of all', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10 }), { minLength: 1, maxLength: 200 }), (answers) => {
        const counts: Record<number, number> = {};
        for (const a of answers) counts[a] = (counts[a] ?? 0) + 1;
        const nps = npsOf(counts);
        const promoters = answers.filter((a) => a >= 9).length;
        const detractors = answers.filter((a) => a <= 6).length;
        expect(nps.promoters + nps.passives + nps.detractors).toBe(answers.length);
        expect(nps.score).toBe(Math.round(((promoters - detractors) / answers.length) * 100));
      }),
    );
    expect(npsOf({ 10: 6, 8: 2, 3: 2 })).toEqual({ score: 40, promoters: 6, passives: 2, detractors: 2 });
    expect(npsOf({}).score).toBeNull();
  });
});

describe('choice grids', () => {
  const settings = GridSettingsSchema.parse({ rows: ['Food', ' Rooms '], columns: ['Poor', 'Good'] });

  it('need every row when required, one of the columns in each, and no row of their own', () => {
    expect(gridAnswerSchema(settings, true).safeParse({ Food: 'Good', Rooms: 'Poor' }).success).toBe(true);
    expect(messageOf(gridAnswerSchema(settings, true).safeParse({ Food: 'Good' }))).toBe(
      'Choose an answer for “Rooms”',
    );
    expect(messageOf(gridAnswerSchema(settings, false).safeParse({ Food: 'Great' }))).toBe(
      'Choose one of the columns for “Food”',
    );
    expect(messageOf(gridAnswerSchema(settings, false).safeParse({ Spa: 'Good' }))).toBe(
      '“Spa” is not a row of this grid',
    );
    // Rows in the grid's order, blanks left out; an optional grid left empty is no answer.
    expect(gridAnswerSchema(settings, false).parse({ Rooms: 'Poor', Food: 'Good' })).toEqual({
      Food: 'Good',
      Rooms: 'Poor',
    });
    expect(gridAnswerSchema(settings, false).parse({ Food: '' })).toBeUndefined();
    expect(settings.rows).toEqual(['Food', 'Rooms']);
    expect(GridSettingsSchema.safeParse({ rows: ['A', 'A'], columns: settings.columns }).success).toBe(false);
  });
});

describe('consent, time, web address and date', () => {
  it('consent: ticked when required', () => {
    expect(consentAnswerSchema(true).safeParse('yes').success).toBe(true);
    expect(messageOf(consentAnswerSchema(true).safeParse(''))).toBe('Tick the box to agree');
    expect(consentAnswerSchema(false).safeParse('').data).toBeUndefined();
  });

  it('time: every minute of the day, nothing else', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 70 }), (h, m) => {
        const text = `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
        expect(timeAnswerSchema(true).safeParse(text).success).toBe(h < 24 && m < 60);
      }),
    );
  });

  it('web address: http and https only', () => {
    fc.assert(
      fc.property(fc.webUrl({ validSchemes: ['http', 'https', 'ftp', 'javascript', 'file'] }), (url) => {
        if (urlAnswerSchema(true).safeParse(url).success) expect(url).toMatch(/^https?:\/\//);
      }),
      { numRuns: 200 },
    );
    expect(urlAnswerSchema(true).safeParse('https://example.com/a?b=c').success).toBe(true);
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,x',
      'example.com',
      'https://localhost',
      'http://a b.com',
    ])
      expect(urlAnswerSchema(true).safeParse(bad).success).toBe(false);
  });

  it('date: a day that exists, within the bounds', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-01-01'), max: new Date('2100-12-31'), noInvalidDate: true }),
        (d) => {
          expect(isRealDate(d.toISOString().slice(0, 10))).toBe(true);
        },
      ),
    );
    for (const bad of ['2026-02-29', '2026-04-31', '2026-13-01', '26-01-01', '2026-1-1'])
      expect(isRealDate(bad)).toBe(false);
    expect(isRealDate('2028-02-29')).toBe(true);
    const bounded = dateAnswerSchema({ earliest: '2026-12-01', latest: '2026-12-31' }, true);
    expect(bounded.safeParse('2026-12-22').success).toBe(true);
    expect(messageOf(bounded.safeParse('2026-11-30'))).toBe('Choose 2026-12-01 or later');
    expect(messageOf(bounded.safeParse('2027-01-01'))).toBe('Choose 2026-12-31 or earlier');
  });
});

describe('number results', () => {
  it('summarise counts as the list of numbers they stand for would be', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 300 }), (given) => {
        const counts = new Map<number, number>();
        for (const v of given) counts.set(v, (counts.get(v) ?? 0) + 1);
        const sorted = [...given].sort((a, b) => a - b);
        const mid = sorted.length / 2;
        const summary = summariseNumbers(counts)!;
        expect(summary.count).toBe(given.length);
        expect([summary.min, summary.max]).toEqual([sorted[0], sorted[sorted.length - 1]]);
        expect(summary.mean).toBeCloseTo(given.reduce((a, b) => a + b, 0) / given.length, 9);
        expect(summary.median).toBe(
          sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1]! + sorted[mid]!) / 2,
        );
        expect(summary.histogram.reduce((sum, bin) => sum + bin.count, 0)).toBe(given.length);
        // Whole numbers: at most 10 bins of whole numbers, each holding the numbers from its `from` to its `to`.
        expect(summary.histogram.length).toBeLessThanOrEqual(10);
        for (const bin of summary.histogram) {
          expect(Number.isInteger(bin.from) && Number.isInteger(bin.to)).toBe(true);
          expect(bin.count).toBe(given.filter((v) => v >= bin.from && v <= bin.to).length);
        }
      }),
    );
    expect(summariseNumbers(new Map())).toBeNull();
    // A few whole numbers get a bin each.
    expect(
      summariseNumbers(
        new Map([
          [2, 1],
          [3, 4],
        ]),
      )?.histogram,
    ).toEqual([
      { from: 2, to: 2, count: 1 },
      { from: 3, to: 3, count: 4 },
    ]);
  });

  it('bin decimals in ten equal bins, the last holding the largest', () => {
    // Numbers a few units in the last place apart (a shrunk failure of the property below) share one bin.
    expect(
      summariseNumbers(
        new Map([
          [0, 1],
          [3e-323, 1],
        ]),
      )?.histogram,
    ).toEqual([{ from: 0, to: 3e-323, count: 2 }]);
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -100, max: 100, noNaN: true }), { minLength: 2, maxLength: 200 }),
        (given) => {
          fc.pre(!given.every((v) => Number.isInteger(v)));
          const counts = new Map<number, number>();
          for (const v of given) counts.set(v, (counts.get(v) ?? 0) + 1);
          const summary = summariseNumbers(counts)!;
          expect(summary.histogram.length).toBeLessThanOrEqual(10);
          // Each bin starts where the one before it ended, and none starts past the largest number.
          summary.histogram.forEach((bin, i) => {
            expect(bin.from).toBeLessThanOrEqual(summary.max);
            if (i > 0) expect(bin.from).toBe(summary.histogram[i - 1]?.to);
          });
          expect(summary.histogram.reduce((sum, bin) => sum + bin.count, 0)).toBe(given.length);
          for (const bin of summary.histogram)
            expect(bin.count).toBe(
              given.filter((v) => v >= bin.from && (v < bin.to || (v === bin.to && bin.to === summary.max)))
                .length,
            );
        },
      ),
    );
  });
});
