// Random forms with pages and conditions, saved through the owner's call, and random paths through them, submitted
// through HTTP to a real app (docs/decisions/042-pages-and-conditions.md): what the customer's page would send is
// stored once with its path; an answer to a question that does not apply is refused and nothing stored; a required
// answer left out is refused where its question applies, and accepted where it does not.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import { applicable, applyingAnswers, type LogicAnswer } from '#common/logic/applies.ts';
import type { Condition } from '#common/logic/conditions.ts';
import { pagesOf, type FormItem } from '#common/logic/items.ts';
import { leafOn, OPTIONS } from '#common/logic/test-conditions.ts';
import { ownerRequests } from '../../../testing/owner-requests.ts';
import { createForm, setUpTestApp, signUpOwner, TEST_ENGINE } from '../../../testing/test-app.ts';
import { NO_RATE_LIMITS } from '../../../testing/test-population.ts';
import { NOT_APPLYING } from './answers.ts';

const t = setUpTestApp({ rateLimits: NO_RATE_LIMITS });
const as = ownerRequests(t);

const KINDS = ['text', 'select', 'radio', 'check'] as const;
type Kind = (typeof KINDS)[number];
type Question = { id: string; kind: Kind; required: boolean };

const conditionOn = (earlier: Question[]): fc.Arbitrary<Condition | undefined> =>
  earlier.length === 0
    ? fc.constant(undefined)
    : fc.option(
        fc.oneof(
          { weight: 2, arbitrary: leafOn(earlier) },
          fc.array(leafOn(earlier), { minLength: 1, maxLength: 2 }).map((any) => ({ any })),
          leafOn(earlier).map((not) => ({ not })),
        ),
        { nil: undefined },
      );

const itemOf = (q: Question, condition: Condition | undefined): FormItem => {
  const base = {
    _id: q.id,
    name: `Question ${q.id}`,
    required: q.required,
    ...(condition ? { condition } : {}),
  };
  if (q.kind === 'text') return { ...base, kind: 'text', type: 'text' };
  return { ...base, kind: q.kind, options: OPTIONS.map((value, i) => ({ _id: `o${i}`, value })) };
};

/** 1–3 pages of 1–3 questions; every page after the first may have a condition, and so may its questions. */
const itemsArb: fc.Arbitrary<FormItem[]> = fc
  .array(fc.array(fc.tuple(fc.constantFrom(...KINDS), fc.boolean()), { minLength: 1, maxLength: 3 }), {
    minLength: 1,
    maxLength: 3,
  })
  .chain((shape) => {
    const pages = shape.map((page, p) =>
      page.map(([kind, required], i): Question => ({ id: `q${p}-${i}`, kind, required })),
    );
    return fc.tuple(
      ...pages.map((questions, p) => {
        const earlier = pages.slice(0, p).flat();
        return fc
          .tuple(conditionOn(earlier), fc.tuple(...questions.map(() => conditionOn(earlier))))
          .map(([own, each]): FormItem[] => [
            ...(p === 0
              ? []
              : [{ kind: 'page' as const, _id: `p${p}`, title: `Page ${p + 1}`, condition: own }]),
            ...questions.map((q, i) => itemOf(q, each[i])),
          ]);
      }),
    );
  })
  .map((pages) => pages.flat());

const answerArb = (kind: Kind): fc.Arbitrary<LogicAnswer> =>
  kind === 'check'
    ? fc.subarray(OPTIONS, { minLength: 1 })
    : kind === 'text'
      ? fc.constantFrom('Yes', 'no thanks', 'maybe later')
      : fc.constantFrom(...OPTIONS);

/** A form and, for each question by position, what the customer would answer (optional ones maybe nothing). */
const caseArb = itemsArb.chain((items) => {
  const questions = items.filter((i) => i.kind !== 'page');
  return fc
    .tuple(
      ...questions.map((q) =>
        q.required ? answerArb(q.kind as Kind) : fc.option(answerArb(q.kind as Kind), { nil: undefined }),
      ),
    )
    .map((drawn) => ({ items, drawn }));
});

const bodyOf = (form: Form, answers: Record<string, LogicAnswer>) => {
  const kindOf = new Map(form.fieldOrder.map((f) => [f._id, f.kind]));
  const body = {
    formStructureId: form._id,
    textObject: {} as Record<string, string>,
    selectedValues: {} as Record<string, string>,
    selectedRadio: {} as Record<string, string>,
    selectedCheckboxes: [] as { name: string; values: string[] }[],
  };
  for (const [id, value] of Object.entries(answers)) {
    const kind = kindOf.get(id);
    if (kind === 'check') body.selectedCheckboxes.push({ name: id, values: value as string[] });
    else if (kind === 'select') body.selectedValues[id] = value as string;
    else if (kind === 'radio') body.selectedRadio[id] = value as string;
    else body.textObject[id] = value as string;
  }
  return body;
};

describe(`branching forms judged through HTTP on ${TEST_ENGINE}`, () => {
  it('stores what the page sends once with its path, refuses what does not apply and what is missing', async () => {
    const owner = await signUpOwner(t);
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ items, drawn }) => {
        const blank = await createForm(t, owner.token);
        const saved = await as(owner).put(`/api/v1/form/${blank._id}/items`, {
          items,
          version: blank.version,
        });
        expect(saved.statusCode, saved.body).toBe(200);
        const form = saved.json<Form>();
        const pages = pagesOf(form.items);
        const questions = form.items.filter((i) => i.kind !== 'page');
        const all: Record<string, LogicAnswer> = {};
        questions.forEach((q, i) => {
          if (drawn[i] !== undefined) all[q._id] = drawn[i];
        });
        const sent = applyingAnswers(pages, all);
        const applies = applicable(pages, sent);
        const submit = (answers: Record<string, LogicAnswer>) =>
          t.app.inject({
            method: 'POST',
            url: `/api/forms/${owner.id}`,
            payload: { ...bodyOf(form, answers), version: form.version },
          });
        const rows = () =>
          t.app.db.query<{ path: string[] }>('select path from submissions where form_id = $1', [form._id]);

        const skipped = questions.filter((q) => !applies.questions.has(q._id));
        const extra = skipped[0];
        if (extra) {
          const res = await submit({ ...sent, [extra._id]: extra.kind === 'check' ? ['Yes'] : 'Yes' });
          expect(res.statusCode).toBe(400);
          expect(res.json()).toMatchObject({ error: { message: `${extra.name}: ${NOT_APPLYING}` } });
        }
        const required = questions.find((q) => q.required && applies.questions.has(q._id));
        if (required) {
          const { [required._id]: _left, ...without } = sent;
          expect((await submit(without)).statusCode).toBe(400);
        }
        expect(await rows()).toEqual([]);

        // Required questions that do not apply are left out, and accepted so.
        expect(skipped.filter((q) => q.required).every((q) => !(q._id in sent))).toBe(true);
        const res = await submit(sent);
        expect(res.statusCode, res.body).toBe(200);
        expect(await rows()).toEqual([{ path: applies.pages }]);
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
