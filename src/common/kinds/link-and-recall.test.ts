import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEXT_ANSWER_MAX } from '../answer-limits.ts';
import { logicProblems } from '../logic/check.ts';
import { pagesOf, type FormItem } from '../logic/items.ts';
import { unstorableReason } from '../unstorable-text.ts';
import { HiddenFieldsSchema, prefilledLink, readLinkValues } from './link-values.ts';
import { recalledField, recallText, recalledQuestions } from './recall.ts';

describe('hidden fields and prefilled answers from the link', () => {
  it('fill only what the form declares or asks, with storable text no longer than an answer', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('ref', 'utm_source', 'q_a1', 'q_zz', 'other'),
            fc.string({ unit: 'binary', maxLength: 1200 }),
          ),
        ),
        (pairs) => {
          const query = new URLSearchParams(pairs);
          const { hidden, prefill } = readLinkValues(query, ['ref', 'utm_source'], ['a1']);
          expect(Object.keys(hidden).every((k) => k === 'ref' || k === 'utm_source')).toBe(true);
          expect(Object.keys(prefill).every((k) => k === 'a1')).toBe(true);
          for (const value of [...Object.values(hidden), ...Object.values(prefill)]) {
            expect(value.length).toBeLessThanOrEqual(TEXT_ANSWER_MAX);
            expect(unstorableReason(value)).toBeNull();
            expect(value.trim()).toBe(value);
          }
          const first = pairs.find(([k, v]) => k === 'ref' && v.trim() !== '' && !unstorableReason(v.trim()));
          if (query.get('ref') !== null && first && query.get('ref') === first[1])
            expect(hidden.ref).toBe(first[1].trim().slice(0, TEXT_ANSWER_MAX));
        },
      ),
    );
  });

  it('build the share panel’s link, and read it back', () => {
    const link = prefilledLink('https://forms.example.com/preview?fid=f1', { a1: 'Asha & Ravi', b2: ' ' });
    expect(link).toBe('https://forms.example.com/preview?fid=f1&q_a1=Asha+%26+Ravi');
    expect(readLinkValues(new URL(link).searchParams, [], ['a1', 'b2']).prefill).toEqual({
      a1: 'Asha & Ravi',
    });
  });

  it('name hidden fields as a link can carry them', () => {
    expect(HiddenFieldsSchema.safeParse(['ref', 'utm_source', 'crm-id']).success).toBe(true);
    for (const bad of [['1ref'], ['a b'], ['q_x'], ['ref', 'ref'], ['']])
      expect(HiddenFieldsSchema.safeParse(bad).success).toBe(false);
  });
});

describe('recall', () => {
  it('inserts an earlier answer or a hidden field, its fallback when empty, and leaves what it does not know', () => {
    const source = {
      answers: { name: ' Asha ', rooms: ['Deluxe', 'Suite'], blank: '' },
      hidden: { ref: 'crm-42' },
    };
    expect(recallText('Thanks, {{answer:name|friend}}!', source)).toBe('Thanks, Asha!');
    expect(recallText('{{answer:rooms}} for {{hidden:ref}}', source)).toBe('Deluxe, Suite for crm-42');
    expect(recallText('Hi {{answer:blank|there}} {{answer:missing}}.', source)).toBe('Hi there .');
    expect(recallText('{{other:x}} {answer:name}', source)).toBe('{{other:x}} {answer:name}');
    expect(recalledQuestions('{{answer:a|x}} {{hidden:b}} {{answer:c}}')).toEqual(['a', 'c']);
  });

  it('keeps an answer as the text it is: nothing in it is read as a recall or as markup', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (typed) => {
        const out = recallText('[{{answer:q}}]', { answers: { q: typed }, hidden: {} });
        expect(out).toBe(typed.trim() === '' ? '[]' : `[${typed.trim()}]`);
      }),
    );
  });
});

describe('recall in a form', () => {
  it('redraws a question’s title and help text, and leaves a question without recalls as it is', () => {
    const field = { _id: 'q2', name: 'Thanks, {{answer:q1|friend}}!', help: 'Code {{hidden:ref|none}}' };
    expect(recalledField(field, { answers: { q1: 'Asha' }, hidden: {} })).toEqual({
      _id: 'q2',
      name: 'Thanks, Asha!',
      help: 'Code none',
    });
    const plain = { _id: 'q3', name: 'Email' };
    expect(recalledField(plain, { answers: {}, hidden: {} })).toBe(plain);
  });

  it('must recall a question of an earlier page, as a condition must test one', () => {
    const items: FormItem[] = [
      { kind: 'text', _id: 'name', name: 'Your name', type: 'text', required: true },
      { kind: 'text', _id: 'same', name: 'Hello {{answer:name}}', type: 'text', required: false },
      { kind: 'page', _id: 'p2', title: 'More' },
      { kind: 'text', _id: 'later', name: 'Thanks, {{answer:name}}', type: 'text', required: false },
      { kind: 'text', _id: 'gone', name: 'x', type: 'text', required: false, help: '{{answer:nope}}' },
    ];
    expect(logicProblems(pagesOf(items)).map((p) => [p.where, p.message])).toEqual([
      ['same', '“Hello {{answer:name}}” recalls the answer to “Your name”, which is not on an earlier page'],
      ['gone', '“x” recalls a question that is not on the form (nope)'],
    ]);
  });
});
