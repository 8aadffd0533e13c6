// Conditions of branching forms (docs/decisions/042-pages-and-conditions.md): a JSON tree of `all` / `any` / `not`
// whose leaves test one earlier question's answer. The same schema checks what the editor sends, what an import
// carries and what the server stores; `holds` (applies.ts) evaluates it.
import { z } from 'zod';

/** What a leaf can ask of an answer. Which fit a question depends on its kind (OPERATORS_BY_KIND). */
export const CONDITION_OPERATORS = [
  'is',
  'isNot',
  'includes',
  'excludes',
  'contains',
  'atLeast',
  'atMost',
  'answered',
  'empty',
] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** The kinds of question a condition can test, and the operators each takes. A file can only be answered or not. */
export const OPERATORS_BY_KIND = {
  text: ['is', 'isNot', 'contains', 'answered', 'empty'],
  /** A text question of type date: compared as days (on or after, on or before). */
  date: ['is', 'isNot', 'atLeast', 'atMost', 'answered', 'empty'],
  select: ['is', 'isNot', 'answered', 'empty'],
  radio: ['is', 'isNot', 'answered', 'empty'],
  check: ['includes', 'excludes', 'answered', 'empty'],
  file: ['answered', 'empty'],
  number: ['is', 'isNot', 'atLeast', 'atMost', 'answered', 'empty'],
  rating: ['is', 'isNot', 'atLeast', 'atMost', 'answered', 'empty'],
  scale: ['is', 'isNot', 'atLeast', 'atMost', 'answered', 'empty'],
  /** A statement asks nothing, so nothing can test it. */
  statement: [],
  consent: ['answered', 'empty'],
  time: ['is', 'isNot', 'answered', 'empty'],
  url: ['is', 'isNot', 'contains', 'answered', 'empty'],
  /** A grid's row: whether its choice is (`includes`) or is not (`excludes`) one column, named as a pair. */
  grid: ['includes', 'excludes', 'answered', 'empty'],
} as const satisfies Record<string, readonly ConditionOperator[]>;
export type LogicKind = keyof typeof OPERATORS_BY_KIND;

/** Operators that compare with a value; the others (answered, empty) take none. */
export const VALUE_OPERATORS: readonly ConditionOperator[] = [
  'is',
  'isNot',
  'includes',
  'excludes',
  'contains',
  'atLeast',
  'atMost',
];

/** Bounds that keep a condition cheap to check and to evaluate, whoever wrote it. */
export const CONDITION_DEPTH_MAX = 4;
export const CONDITION_LEAVES_MAX = 20;
export const CONDITION_VALUE_MAX = 500;

export type ConditionLeaf = { question: string; op: ConditionOperator; value?: string };
export type Condition = ConditionLeaf | { all: Condition[] } | { any: Condition[] } | { not: Condition };

const LeafSchema = z.strictObject({
  question: z.string().min(1, 'A condition names a question').max(100),
  op: z.enum(CONDITION_OPERATORS, { error: `The operator is one of ${CONDITION_OPERATORS.join(', ')}` }),
  value: z
    .string()
    .max(CONDITION_VALUE_MAX, `A condition's value is at most ${CONDITION_VALUE_MAX} characters`)
    .optional(),
});

const NodeSchema: z.ZodType<Condition> = z.lazy(() =>
  z.union([
    LeafSchema,
    z.strictObject({
      all: z.array(NodeSchema).min(1, '`all` lists at least one condition').max(CONDITION_LEAVES_MAX),
    }),
    z.strictObject({
      any: z.array(NodeSchema).min(1, '`any` lists at least one condition').max(CONDITION_LEAVES_MAX),
    }),
    z.strictObject({ not: NodeSchema }),
  ]),
);

/** Depth first, before the recursive schema runs: a hostile body nested 10,000 deep costs one walk, not a parse. */
function depthOf(node: unknown, depth = 1): number {
  if (depth > CONDITION_DEPTH_MAX || typeof node !== 'object' || node === null) return depth;
  const children = 'all' in node ? node.all : 'any' in node ? node.any : 'not' in node ? [node.not] : [];
  if (!Array.isArray(children)) return depth;
  let deepest = depth;
  for (const child of children) deepest = Math.max(deepest, depthOf(child, depth + 1));
  return deepest;
}

export const leavesOf = (condition: Condition): ConditionLeaf[] =>
  'all' in condition
    ? condition.all.flatMap(leavesOf)
    : 'any' in condition
      ? condition.any.flatMap(leavesOf)
      : 'not' in condition
        ? leavesOf(condition.not)
        : [condition];

export const ConditionSchema: z.ZodType<Condition> = z
  .unknown()
  .superRefine((value, ctx) => {
    if (depthOf(value) > CONDITION_DEPTH_MAX)
      ctx.addIssue({ code: 'custom', message: `A condition nests at most ${CONDITION_DEPTH_MAX} levels` });
  })
  .pipe(NodeSchema)
  .superRefine((condition, ctx) => {
    const leaves = leavesOf(condition);
    if (leaves.length > CONDITION_LEAVES_MAX)
      ctx.addIssue({ code: 'custom', message: `A condition tests at most ${CONDITION_LEAVES_MAX} answers` });
    for (const leaf of leaves) {
      const takesValue = VALUE_OPERATORS.includes(leaf.op);
      if (takesValue && leaf.value === undefined)
        ctx.addIssue({ code: 'custom', message: `“${leaf.op}” compares with a value: add one` });
      if (!takesValue && leaf.value !== undefined)
        ctx.addIssue({ code: 'custom', message: `“${leaf.op}” takes no value` });
    }
  });
