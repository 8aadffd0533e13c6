import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELD_KINDS, type FieldKind } from '../forms.ts';
import { judgeAnswers } from './applies.ts';
import { logicProblems } from './check.ts';
import { arraysOf, FormItemSchema, itemsFromArrays, pagesOf, type FormItem } from './items.ts';

const questionItem = (kind: FieldKind, id: string, required: boolean): FormItem => {
  const base = { _id: id, name: `Question ${id}`, required };
  if (kind === 'text') return { ...base, kind, type: 'text' };
  if (kind === 'file') return { ...base, kind, type: 'file' };
  return { ...base, kind, options: [{ _id: `${id}-o`, value: 'Yes' }] };
};

/** A list of 0–12 items: questions of every kind with page breaks anywhere among them, ids unique. */
const itemsArb: fc.Arbitrary<FormItem[]> = fc
  .array(fc.tuple(fc.constantFrom(...FIELD_KINDS, 'page' as const), fc.boolean()), { maxLength: 12 })
  .map((shape) =>
    shape.map(([kind, required], i): FormItem =>
      kind === 'page' ? { kind, _id: `p${i}`, title: `Page ${i}` } : questionItem(kind, `q${i}`, required),
    ),
  );

const questionsOf = (items: readonly FormItem[]) => items.filter((item) => item.kind !== 'page');

describe("a form's items", () => {
  it('give the per-kind arrays and the order across them, and are read back from them without page breaks', () => {
    fc.assert(
      fc.property(itemsArb, (items) => {
        const arrays = arraysOf(items);
        expect(arrays.fieldOrder).toEqual(questionsOf(items).map((q) => ({ _id: q._id, kind: q.kind })));
        for (const kind of FIELD_KINDS)
          expect(arrays[`${kind}Field`].map((f) => f._id)).toEqual(
            questionsOf(items)
              .filter((q) => q.kind === kind)
              .map((q) => q._id),
          );
        expect(itemsFromArrays(arrays)).toEqual(questionsOf(items));
        expect(arraysOf(itemsFromArrays(arrays))).toEqual(arrays);
      }),
    );
  });

  it('make one page of a form without page breaks, and a page for each break after the first question', () => {
    fc.assert(
      fc.property(itemsArb, (items) => {
        const pages = pagesOf(items);
        const breaks = items.filter((item) => item.kind === 'page').length;
        expect(pages).toHaveLength(items[0]?.kind === 'page' ? breaks : breaks + 1);
        expect(pages.flatMap((p) => p.questions.map((q) => q.id))).toEqual(
          questionsOf(items).map((q) => q._id),
        );
        // Every question is asked when nothing has conditions: the evaluator sees the same form the arrays describe.
        const judged = judgeAnswers(pages, {});
        expect([...judged.applicable.questions]).toEqual(questionsOf(items).map((q) => q._id));
        expect(judged.missing).toEqual(
          questionsOf(items)
            .filter((q) => q.required)
            .map((q) => q._id),
        );
      }),
    );
  });

  it('let a page ask only when an earlier answer says so, and the logic check refuses a condition on the first page', () => {
    const items = FormItemSchema.array().parse([
      {
        kind: 'radio',
        _id: 'stay',
        name: 'Do you need a room?',
        required: true,
        options: [{ _id: 'y', value: 'Yes' }],
      },
      {
        kind: 'page',
        _id: 'rooms',
        title: 'Your room',
        condition: { question: 'stay', op: 'is', value: 'Yes' },
      },
      { kind: 'text', _id: 'nights', name: 'How many nights?', type: 'text', required: true },
    ]);
    const pages = pagesOf(items);
    expect(judgeAnswers(pages, { stay: 'No' }).missing).toEqual([]);
    expect(judgeAnswers(pages, { stay: 'Yes' }).missing).toEqual(['nights']);
    expect(judgeAnswers(pages, { stay: 'No', nights: '2' }).notApplying).toEqual(['nights']);
    expect(logicProblems(pages)).toEqual([]);

    const conditionedStart = pagesOf([
      { kind: 'page', _id: 'first', title: 'Welcome', condition: { question: 'stay', op: 'answered' } },
      ...items,
    ]);
    expect(conditionedStart[0]).toMatchObject({ id: 'first', title: 'Welcome' });
    expect(logicProblems(conditionedStart).length).toBeGreaterThan(0);
  });

  it('are refused when an item is of no known kind or a page title is too long', () => {
    expect(FormItemSchema.safeParse({ kind: 'slider', _id: 'x', name: 'x', required: false }).success).toBe(
      false,
    );
    expect(FormItemSchema.safeParse({ kind: 'page', _id: 'p', title: 'x'.repeat(201) }).success).toBe(false);
  });
});
