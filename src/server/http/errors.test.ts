import { describe, expect, it } from 'vitest';
import { waitWords } from './errors.ts';

describe('how long to wait, as a refused customer reads it', () => {
  it('rounds up to minutes, says an hour for an hour, and whole hours from two on', () => {
    const seconds = [0, 30, 60, 61, 3000, 3599, 3600, 3601, 7199, 7200, 7201, 86_400];
    expect(seconds.map(waitWords)).toEqual([
      'a minute',
      'a minute',
      'a minute',
      '2 minutes',
      '50 minutes',
      'an hour',
      'an hour',
      '61 minutes',
      '2 hours',
      '2 hours',
      '3 hours',
      '24 hours',
    ]);
  });
});
