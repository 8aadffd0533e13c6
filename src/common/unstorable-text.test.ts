import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findUnstorableText, truncateText, unstorableReason } from './unstorable-text.ts';

describe('findUnstorableText', () => {
  it('names the path of a NUL or an unpaired surrogate in a value or a key, and passes everything else', () => {
    expect(findUnstorableText({ a: ['ok', { b: 'x\u0000y' }] })).toMatchObject({ path: 'a.1.b' });
    expect(findUnstorableText({ a: 'lone \uD83D' })).toMatchObject({ path: 'a' });
    expect(findUnstorableText({ a: 'lone \uDE00 low' })).toMatchObject({ path: 'a' });
    expect(findUnstorableText({ textObject: { 'k\u0000': 'v' } })).toMatchObject({ path: 'textObject' });
    expect(findUnstorableText({ a: '😀 مرحبا é', n: 1, b: true, z: null })).toBeNull();
  });

  it('accepts every well-formed string without NUL, and refuses every string with one', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        const clean = s.replaceAll('\u0000', '');
        expect(unstorableReason(clean)).toBeNull();
        expect(unstorableReason(`${clean}\u0000`)).not.toBeNull();
      }),
    );
  });
});

describe('truncateText', () => {
  it('never leaves half an emoji, and keeps as much as fits', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.nat(50), (s, max) => {
        const cut = truncateText(s, max);
        expect(cut.isWellFormed()).toBe(true);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(s.startsWith(cut)).toBe(true);
        expect(cut.length).toBeGreaterThanOrEqual(Math.min(s.length, max) - 1);
      }),
    );
    expect(truncateText(`${'a'.repeat(119)}😀b`, 120)).toBe('a'.repeat(119));
  });
});
