import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applicable, type LogicAnswer, type LogicPage } from './applies.ts';
import type { Condition } from './conditions.ts';
import { FORM_TRIES_MAX, logicWarnings } from './warnings.ts';

const stay = {
  id: 'stay',
  kind: 'radio',
  required: true,
  name: 'Need a room?',
  options: ['Yes', 'No'],
} as const;
const diet = {
  id: 'diet',
  kind: 'check',
  required: false,
  name: 'Diet',
  options: ['Vegan', 'Nuts'],
} as const;
const nights = { id: 'nights', kind: 'text', required: true, name: 'Nights' } as const;

const form = (roomCondition: Condition, extra: LogicPage[] = []): LogicPage[] => [
  { id: 'start', questions: [stay, diet] },
  { id: 'room', condition: roomCondition, questions: [nights] },
  ...extra,
];

describe('the logic check’s notes', () => {
  it('says nothing of a form whose conditions can hold and whose pages ask nothing required', () => {
    const pages = form({ question: 'stay', op: 'is', value: 'Yes' });
    pages[1] = { ...pages[1]!, questions: [{ ...nights, required: false }] };
    expect(logicWarnings(pages)).toEqual([]);
  });

  it('finds a page no answers reach, whatever the conditions combine', () => {
    for (const never of [
      {
        all: [
          { question: 'stay', op: 'is', value: 'Yes' },
          { question: 'stay', op: 'is', value: 'No' },
        ],
      },
      {
        all: [
          { question: 'diet', op: 'includes', value: 'Vegan' },
          { question: 'diet', op: 'empty' },
        ],
      },
      {
        not: {
          any: [
            { question: 'stay', op: 'answered' },
            { question: 'stay', op: 'empty' },
          ],
        },
      },
    ] satisfies Condition[])
      expect(logicWarnings(form(never))).toEqual([
        { where: 'room', message: 'No answers can reach page 2: its condition never holds' },
      ]);
    // Two tests of one checkbox question that only a choice of both satisfies can hold.
    const both: Condition = {
      all: [
        { question: 'diet', op: 'includes', value: 'Vegan' },
        { question: 'diet', op: 'includes', value: 'Nuts' },
      ],
    };
    expect(logicWarnings(form(both)).map((n) => n.message)).toEqual([
      'Required only when page 2 is shown: “Nights”',
    ]);
  });

  it('follows a chain: a page that tests a question on a page no answers reach is unreachable too', () => {
    const later: LogicPage = {
      id: 'end',
      condition: { question: 'nights', op: 'answered' },
      questions: [{ id: 'note', kind: 'text', required: false }],
    };
    const never: Condition = {
      all: [
        { question: 'stay', op: 'is', value: 'Yes' },
        { question: 'stay', op: 'empty' },
      ],
    };
    expect(logicWarnings(form(never, [later])).map((n) => n.where)).toEqual(['room', 'end']);
  });

  it('notes a required question asked only sometimes, on the page or on the question', () => {
    const pages = form({ question: 'stay', op: 'is', value: 'Yes' });
    expect(logicWarnings(pages)).toEqual([
      { where: 'room', message: 'Required only when page 2 is shown: “Nights”' },
    ]);
    // A condition on the first page tests no earlier page: that is a problem (check.ts), not a note.
    const onSecond: LogicPage[] = [
      { id: 'start', questions: [stay] },
      { id: 'more', questions: [{ ...nights, condition: { question: 'stay', op: 'is', value: 'No' } }] },
    ];
    expect(logicWarnings(onSecond)).toEqual([
      { where: 'nights', message: '“Nights” is required only when it is shown' },
    ]);
  });

  it('stops judging once the form has cost its budget of tries, leaving the rest unjudged', () => {
    const options = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
    const asked = ['q1', 'q2', 'q3'].map((id) => ({ id, kind: 'radio' as const, required: false, options }));
    // Each page's condition never holds, and proving it takes every one of 10 × 10 × 10 answers.
    const never: Condition = {
      all: [
        { question: 'q1', op: 'is', value: 'a' },
        { question: 'q1', op: 'is', value: 'b' },
        { question: 'q2', op: 'answered' },
        { question: 'q3', op: 'answered' },
      ],
    };
    const pages: LogicPage[] = [
      { id: 'start', questions: asked },
      ...Array.from({ length: 30 }, (_, i) => ({ id: `p${i}`, condition: never, questions: [] })),
    ];
    expect(logicWarnings(pages)).toHaveLength(Math.floor(FORM_TRIES_MAX / 1000));
  });

  it('calls a page unreachable only when no answers reach it (generated answers agree)', () => {
    const leaf = fc.oneof(
      fc.record({
        question: fc.constant('stay'),
        op: fc.constantFrom('is' as const, 'isNot' as const),
        value: fc.constantFrom('Yes', 'No'),
      }),
      fc.record({
        question: fc.constant('diet'),
        op: fc.constantFrom('includes' as const, 'excludes' as const),
        value: fc.constantFrom('Vegan', 'Nuts'),
      }),
      fc.record({
        question: fc.constantFrom('stay', 'diet'),
        op: fc.constantFrom('answered' as const, 'empty' as const),
      }),
    );
    const condition: fc.Arbitrary<Condition> = fc.oneof(
      leaf,
      fc.array(leaf, { minLength: 1, maxLength: 3 }).map((all) => ({ all })),
      fc.array(leaf, { minLength: 1, maxLength: 3 }).map((any) => ({ any })),
      leaf.map((not) => ({ not })),
    );
    const everyAnswer: Record<string, LogicAnswer>[] = [];
    for (const s of [undefined, 'Yes', 'No'])
      for (const d of [[], ['Vegan'], ['Nuts'], ['Vegan', 'Nuts']]) everyAnswer.push({ stay: s, diet: d });
    fc.assert(
      fc.property(condition, (c) => {
        const pages = form(c);
        const reached = everyAnswer.some((a) => applicable(pages, a).pages.includes('room'));
        const flagged = logicWarnings(pages).some(
          (n) => n.where === 'room' && n.message.startsWith('No answers'),
        );
        expect(flagged).toBe(!reached);
      }),
      { numRuns: 300 },
    );
  });
});
