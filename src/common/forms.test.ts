import { describe, expect, it } from 'vitest';
import { formatSpecDate } from './forms.ts';

describe('formatSpecDate', () => {
  it("writes a date as toLocaleString('en-US') does, in the given time zone", () => {
    const dates = [new Date('2026-11-22T22:45:09Z'), new Date('2025-01-01T00:00:00Z'), new Date(0)];
    for (const timeZone of ['UTC', 'Asia/Kolkata', 'America/New_York'])
      for (const date of dates)
        expect(formatSpecDate(date, timeZone)).toBe(date.toLocaleString('en-US', { timeZone }));
    expect(formatSpecDate(new Date('2026-11-22T22:45:09Z'), 'Asia/Kolkata')).toBe('11/23/2026, 4:15:09 AM');
  });
});
