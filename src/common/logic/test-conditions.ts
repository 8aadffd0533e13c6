// Random conditions for the property tests of pages and conditions, on both sides: the rules judged alone
// (applies.test.ts) and the same rules as the server applies them to a submission (branching-property.test.ts).
import fc from 'fast-check';
import { OPERATORS_BY_KIND, type Condition, type LogicKind } from './conditions.ts';

/** The options of every choice question the tests draw, and the values a condition may compare an answer with. */
export const OPTIONS = ['Yes', 'No', 'Maybe'];

/** A leaf on one of `earlier`'s questions, with an operator that fits its kind and a value it can take. */
export const leafOn = (earlier: readonly { id: string; kind: LogicKind }[]): fc.Arbitrary<Condition> =>
  fc
    .constantFrom(...earlier)
    .chain((q) =>
      fc
        .constantFrom(...OPERATORS_BY_KIND[q.kind])
        .chain((op) =>
          op === 'answered' || op === 'empty'
            ? fc.constant<Condition>({ question: q.id, op })
            : fc.constantFrom(...OPTIONS).map<Condition>((value) => ({ question: q.id, op, value })),
        ),
    );
