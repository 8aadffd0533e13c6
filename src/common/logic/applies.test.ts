import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applicable,
  applyingAnswers,
  holds,
  judgeAnswers,
  type LogicAnswer,
  type LogicPage,
} from './applies.ts';
import { logicProblems } from './check.ts';
import { ConditionSchema, type Condition, type LogicKind } from './conditions.ts';
import { leafOn, OPTIONS } from './test-conditions.ts';

const KINDS: LogicKind[] = ['text', 'select', 'radio', 'check', 'file'];

const conditionOn = (earlier: { id: string; kind: LogicKind }[]): fc.Arbitrary<Condition> =>
  fc.oneof(
    { weight: 3, arbitrary: leafOn(earlier) },
    fc.array(leafOn(earlier), { minLength: 1, maxLength: 3 }).map((all) => ({ all })),
    fc.array(leafOn(earlier), { minLength: 1, maxLength: 3 }).map((any) => ({ any })),
    leafOn(earlier).map((not) => ({ not })),
  );

/** A form of 1–4 pages, each of 1–4 questions; later pages and questions may carry conditions on earlier pages. */
const formArb: fc.Arbitrary<LogicPage[]> = fc
  .array(fc.array(fc.tuple(fc.constantFrom(...KINDS), fc.boolean()), { minLength: 1, maxLength: 4 }), {
    minLength: 1,
    maxLength: 4,
  })
  .chain((shape) => {
    const questions = shape.map((page, p) =>
      page.map(([kind, required], i) => ({ id: `q${p}-${i}`, kind, required })),
    );
    return fc.tuple(
      ...questions.map((page, p) => {
        const earlier = questions.slice(0, p).flat();
        const maybe = (): fc.Arbitrary<Condition | undefined> =>
          earlier.length === 0 ? fc.constant(undefined) : fc.option(conditionOn(earlier), { nil: undefined });
        return fc.tuple(maybe(), fc.tuple(...page.map(() => maybe()))).map(([condition, own]): LogicPage => ({
          id: `p${p}`,
          condition,
          questions: page.map((q, i) => ({
            ...q,
            condition: own[i],
            options: q.kind === 'select' || q.kind === 'radio' || q.kind === 'check' ? OPTIONS : undefined,
          })),
        }));
      }),
    );
  });

const answerArb = (kind: LogicKind, required: boolean): fc.Arbitrary<LogicAnswer> => {
  const given: fc.Arbitrary<LogicAnswer> =
    kind === 'check'
      ? fc.subarray(OPTIONS, { minLength: 1 })
      : kind === 'file'
        ? fc.constant({ deleteId: 'upload' })
        : kind === 'text'
          ? fc.constantFrom('Yes', 'no thanks', 'maybe later', 'x')
          : fc.constantFrom(...OPTIONS);
  return required ? given : fc.option(given, { nil: undefined });
};

/** What the customer's page sends: page by page, answers only where a question is shown, required ones filled. */
const pathArb = (pages: LogicPage[]) =>
  fc.tuple(...pages.flatMap((p) => p.questions.map((q) => answerArb(q.kind, q.required)))).map((drawn) => {
    const all = new Map(pages.flatMap((p) => p.questions).map((q, i) => [q.id, drawn[i]]));
    const sent: Record<string, LogicAnswer> = {};
    for (const page of pages) {
      if (page.condition && !holds(page.condition, sent)) continue;
      const shown = page.questions.filter((q) => !q.condition || holds(q.condition, sent));
      for (const q of shown) if (all.get(q.id) !== undefined) sent[q.id] = all.get(q.id);
    }
    return sent;
  });

const formAndPath = formArb.chain((pages) => pathArb(pages).map((sent) => ({ pages, sent })));

describe('branching: which questions apply', () => {
  it('accepts what the page sends, on every path through every form', () => {
    fc.assert(
      fc.property(formAndPath, ({ pages, sent }) => {
        const judged = judgeAnswers(pages, sent);
        expect(judged.missing).toEqual([]);
        expect(judged.notApplying).toEqual([]);
        expect(logicProblems(pages)).toEqual([]);
      }),
    );
  });

  it('refuses an answer to a question that does not apply, naming it', () => {
    fc.assert(
      fc.property(formAndPath, ({ pages, sent }) => {
        const skipped = pages
          .flatMap((p) => p.questions)
          .filter((q) => !applicable(pages, sent).questions.has(q.id));
        fc.pre(skipped.length > 0);
        const extra = skipped[0]!;
        const answer = extra.kind === 'check' ? ['Yes'] : extra.kind === 'file' ? { deleteId: 'u' } : 'Yes';
        // Answering a skipped question never makes it, or anything after it, apply: an answer that did not apply
        // counts as unanswered in every condition.
        const judged = judgeAnswers(pages, { ...sent, [extra.id]: answer });
        expect(judged.notApplying).toContain(extra.id);
        expect(judged.applicable).toEqual(applicable(pages, sent));
      }),
    );
  });

  it('refuses a required question left empty only where it applies', () => {
    fc.assert(
      fc.property(formAndPath, ({ pages, sent }) => {
        const { questions } = applicable(pages, sent);
        for (const q of pages.flatMap((p) => p.questions).filter((q) => q.required)) {
          const without = { ...sent, [q.id]: undefined };
          const judged = judgeAnswers(pages, without);
          if (questions.has(q.id)) expect(judged.missing).toContain(q.id);
          else expect(judged.missing).not.toContain(q.id);
        }
      }),
    );
  });

  it('leaves out answers a changed earlier answer stopped applying, and the rest are then accepted', () => {
    fc.assert(
      fc.property(
        formAndPath,
        fc.dictionary(fc.constantFrom('q1-0', 'q2-0', 'q3-1'), fc.constant('stale')),
        ({ pages, sent }, stale) => {
          const kept = applyingAnswers(pages, { ...stale, ...sent });
          const judged = judgeAnswers(pages, kept);
          expect(judged.notApplying).toEqual([]);
        },
      ),
    );
  });
});

describe('branching: a page skipped', () => {
  const pages: LogicPage[] = [
    { id: 'who', questions: [{ id: 'stay', kind: 'radio', required: true, options: ['Yes', 'No'] }] },
    {
      id: 'room',
      condition: { question: 'stay', op: 'is', value: 'Yes' },
      questions: [{ id: 'nights', kind: 'text', required: true }],
    },
    {
      id: 'end',
      questions: [
        { id: 'diet', kind: 'text', required: false, condition: { question: 'nights', op: 'answered' } },
      ],
    },
  ];

  it('follows the path the answers take, and what a skipped page held counts as unanswered', () => {
    expect(applicable(pages, { stay: 'Yes', nights: '2' }).pages).toEqual(['who', 'room', 'end']);
    expect([...applicable(pages, { stay: 'Yes', nights: '2' }).questions]).toEqual([
      'stay',
      'nights',
      'diet',
    ]);
    // "nights" was typed, then the customer went back and said No: the page is skipped, and so is "diet".
    expect(applicable(pages, { stay: 'No', nights: '2' })).toEqual({
      pages: ['who', 'end'],
      questions: new Set(['stay']),
    });
    expect(judgeAnswers(pages, { stay: 'No', nights: '2' }).notApplying).toEqual(['nights']);
    expect(judgeAnswers(pages, { stay: 'Yes' }).missing).toEqual(['nights']);
  });

  it('names what is wrong with conditions: a later question, a missing one, an unfit operator, a gone option', () => {
    const broken: LogicPage[] = [
      {
        id: 'a',
        condition: { question: 'later', op: 'answered' },
        questions: [{ id: 'pick', kind: 'radio', required: false, options: ['Yes'], name: 'Pick one' }],
      },
      {
        id: 'b',
        condition: {
          any: [
            { question: 'pick', op: 'includes', value: 'Yes' },
            { question: 'pick', op: 'is', value: 'Gone' },
          ],
        },
        questions: [
          {
            id: 'later',
            kind: 'text',
            required: false,
            name: 'Later',
            condition: { question: 'nowhere', op: 'empty' },
          },
        ],
      },
    ];
    expect(logicProblems(broken).map((p) => `${p.where}: ${p.message}`)).toEqual([
      'a: Page 1 depends on “Later”, which is not on an earlier page',
      'b: Page 2: “includes” does not fit “Pick one”',
      'b: Page 2 tests “Pick one” for “Gone”, which is not one of its options',
      'later: The condition of “Later” depends on a question that is not on the form (nowhere)',
    ]);
  });
});

describe('the condition schema', () => {
  it('takes what the evaluator understands and refuses values where none are asked, or missing where one is', () => {
    expect(
      ConditionSchema.safeParse({
        all: [{ question: 'a', op: 'is', value: 'x' }, { not: { question: 'b', op: 'empty' } }],
      }).success,
    ).toBe(true);
    expect(ConditionSchema.safeParse({ question: 'a', op: 'is' }).error?.issues[0]?.message).toBe(
      '“is” compares with a value: add one',
    );
    expect(
      ConditionSchema.safeParse({ question: 'a', op: 'empty', value: 'x' }).error?.issues[0]?.message,
    ).toBe('“empty” takes no value');
    expect(ConditionSchema.safeParse({ question: 'a', op: 'is', value: 'x', extra: 1 }).success).toBe(false);
    expect(ConditionSchema.safeParse({ all: [] }).success).toBe(false);
  });

  it('refuses a hostile nesting at once, and too many leaves', () => {
    let deep: unknown = { question: 'a', op: 'empty' };
    for (let i = 0; i < 100_000; i++) deep = { not: deep };
    expect(ConditionSchema.safeParse(deep).error?.issues[0]?.message).toBe(
      'A condition nests at most 4 levels',
    );
    const wide = {
      all: Array.from({ length: 5 }, () => ({
        any: Array.from({ length: 5 }, () => ({ question: 'a', op: 'empty' })),
      })),
    };
    expect(ConditionSchema.safeParse(wide).error?.issues.map((i) => i.message)).toContain(
      'A condition tests at most 20 answers',
    );
  });
});
