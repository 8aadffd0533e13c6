import { describe, expect, it } from 'vitest';
import { contrastRatio, isHardToRead, textColorOn } from './contrast.ts';
import { BORDER_COLORS, FORM_COLORS } from './form-colors.ts';

describe('contrast', () => {
  it('matches the WCAG ratio of black on white', () => {
    expect(contrastRatio('#000000', '#FFFFFF')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#FFFFFF')).toBeCloseTo(4.48, 2);
  });

  it('picks white on dark colours and ink on light ones', () => {
    expect(textColorOn('#126180')).toBe('#FFFFFF');
    expect(textColorOn('#FFDAB9')).not.toBe('#FFFFFF');
  });

  it('flags mid-tones where neither ink nor white reaches AA for normal text', () => {
    const hard = [...FORM_COLORS, ...BORDER_COLORS].filter((c) => isHardToRead(c.hex)).map((c) => c.name);
    expect(hard).toEqual(['Grey', 'Dark Cyan']);
    expect(isHardToRead('#808080', 'large')).toBe(false);
    expect(isHardToRead('#EAEAEA')).toBe(false);
  });
});
