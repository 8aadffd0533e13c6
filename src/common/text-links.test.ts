import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkParts } from './text-links.ts';

describe('linkParts', () => {
  it('links http and https addresses and leaves the sentence around them as text', () => {
    expect(linkParts('Directions: https://example.org/map?x=1&y=2. Or call us.')).toEqual([
      { text: 'Directions: ' },
      { text: 'https://example.org/map?x=1&y=2', href: 'https://example.org/map?x=1&y=2' },
      { text: '. Or call us.' },
    ]);
    expect(linkParts('(see http://a.example/b)')).toEqual([
      { text: '(see ' },
      { text: 'http://a.example/b', href: 'http://a.example/b' },
      { text: ')' },
    ]);
    expect(linkParts('javascript:alert(1) ftp://x.example mailto:a@b.example www.example.org')).toEqual([
      { text: 'javascript:alert(1) ftp://x.example mailto:a@b.example www.example.org' },
    ]);
    expect(linkParts('https://x.example/"><img src=x>')).toEqual([
      { text: 'https://x.example/', href: 'https://x.example/' },
      { text: '"><img src=x>' },
    ]);
  });

  it('keeps every character of any text, and every link is an http(s) address with no quote or angle bracket', () => {
    const text = fc.array(
      fc.oneof(
        fc.string({ unit: 'grapheme' }),
        fc.webUrl({ withQueryParameters: true, withFragments: true }),
        fc.constantFrom('https://', 'http://x', '. ', ')', '"', '<', '\n', 'HTTPS://EXAMPLE.ORG/'),
      ),
      { maxLength: 8 },
    );
    fc.assert(
      fc.property(text, (pieces) => {
        const input = pieces.join('');
        const parts = linkParts(input);
        expect(parts.map((p) => p.text).join('')).toBe(input);
        for (const part of parts) {
          if (part.href === undefined) continue;
          expect(part.href).toBe(part.text);
          expect(part.href).toMatch(/^https?:\/\/[^\s<>"]+$/i);
          expect(part.href).not.toMatch(/[.,;:!?)]$/);
        }
      }),
    );
  });
});
