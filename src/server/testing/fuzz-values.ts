// Values for the fuzz tests: a fast-check arbitrary built from a route's own zod schema (through its JSON Schema,
// zod's stable public form of it), and the hostile mutations applied to what it generates. Kept apart from the test
// so the generator can be read, and reused, on its own.
import fc from 'fast-check';
import { z } from 'zod';

export type JsonSchema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
};

/** Real values of the populated database, so generated requests reach past "not found" into the handlers. */
export type Hints = {
  ids: string[];
  names: string[];
  emails: string[];
  /** Path parameters that belong together (a form, one of its questions, one of its options), by param name. */
  paramSets: Record<string, string>[];
};

/** The input side of a zod schema as JSON Schema; refinements and transforms cannot be expressed and are skipped. */
export function jsonSchemaOf(schema: unknown): JsonSchema | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

const MAX_GENERATED_TEXT = 60;

function stringFor(schema: JsonSchema, hints: Hints, key: string): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? MAX_GENERATED_TEXT, MAX_GENERATED_TEXT));
  const text = fc.string({ minLength: min, maxLength: max, unit: 'grapheme' });
  if (schema.format === 'uuid') return fc.oneof(fc.constantFrom(...hints.ids), fc.uuid());
  // zod's email check sits behind a pipe, which JSON Schema's input side drops: the key says what it is.
  if (/email/i.test(key)) return fc.oneof(fc.constantFrom(...hints.emails), fc.emailAddress(), text);
  // A webhook's address: http(s) URLs, besides text the refinement refuses.
  if (/^url$/i.test(key)) return fc.oneof(fc.webUrl({ validSchemes: ['http', 'https'] }), text);
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
  return fc.oneof({ weight: 3, arbitrary: text }, fc.constantFrom(...hints.names, ...hints.ids));
}

/** A value that (refinements aside) satisfies `schema`. `key` is the property it is for, if any. */
export function valueFor(schema: JsonSchema, hints: Hints, key = '', depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((c) => valueFor(c, hints, key, depth)));
  if (schema.allOf?.[0]) return valueFor(schema.allOf[0], hints, key, depth);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringFor(schema, hints, key);
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const min = schema.minItems ?? 0;
      const max = Math.max(min, Math.min(schema.maxItems ?? 4, depth > 2 ? min : 4));
      return fc.array(valueFor(schema.items ?? {}, hints, key, depth + 1), {
        minLength: min,
        maxLength: max,
      });
    }
    case 'object':
      return objectFor(schema, hints, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectFor(schema: JsonSchema, hints: Hints, depth: number): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const known = fc.record(
    Object.fromEntries(
      Object.entries(properties).map(([k, v]) => [k, valueFor(v, hints, k, depth + 1)]),
    ) as Record<string, fc.Arbitrary<unknown>>,
    { requiredKeys: Object.keys(properties).filter((k) => required.has(k)) },
  );
  const extra = schema.additionalProperties;
  // A record (question id → answer): keys among the real ids and names, or anything.
  const rest =
    typeof extra === 'object'
      ? fc.dictionary(
          fc.oneof(fc.constantFrom(...hints.ids, ...hints.names), fc.string({ maxLength: 20 })),
          valueFor(extra, hints, '', depth + 1),
          { maxKeys: 4 },
        )
      : fc.constant({});
  return fc.tuple(known, rest).map(([k, r]) => matchPasswords({ ...r, ...(k as object) }));
}

/** Half the time a confirmation equals its password, so the refinement passes and the handler runs. */
function matchPasswords(value: Record<string, unknown>): Record<string, unknown> {
  if ('confirmPassword' in value && typeof value.password === 'string' && value.password.length % 2 === 0) {
    return { ...value, confirmPassword: value.password };
  }
  return value;
}

const HALF_EMOJI = '😀'.slice(0, 1);
/** Strings that have broken servers: storage, encoding, length, paths, SQL, scripts. */
export const HOSTILE_STRINGS = [
  'a\u0000b',
  '\u0000',
  `${'a'.repeat(119)}${HALF_EMOJI}`,
  '\uDE00 low surrogate first',
  '\uD83D',
  'a'.repeat(100_000),
  '😀'.repeat(5_000),
  'e\u0301\u0301\u0301 עברית مرحبا',
  ' \t\n ',
  '',
  '../../../etc/passwd',
  "'; drop table forms; --",
  '<script>alert(1)</script>',
  '%00%ff',
  '\uFEFF\u202E',
  '1e400',
  '-0',
];
export const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  -1e308,
  2 ** 53 + 1,
  5e-324,
  0.5,
  [],
  {},
  [null],
  { $gt: '' },
  ...HOSTILE_STRINGS,
];
const POISON_KEYS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', ''];

type Path = (string | number)[];

/**
 * Places a mutation may touch, down to 40 levels: an earlier mutation may have nested a value 1,000 deep, the
 * server refuses anything past 32 anyway, and walking it all overflowed the test's own stack.
 */
const MUTATION_DEPTH_MAX = 40;

function pathsOf(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  out.push(path);
  if (path.length >= MUTATION_DEPTH_MAX) return out;
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...path, i], out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) pathsOf(v, [...path, k], out);
  }
  return out;
}

function update(value: unknown, path: Path, change: (old: unknown, parent: unknown) => unknown): unknown {
  if (path.length === 0) return change(value, undefined);
  const [head, ...rest] = path as [string | number, ...Path];
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  copy[head] = rest.length === 0 ? change(copy[head], copy) : update(copy[head], rest, change);
  return copy;
}

/** Sets an own property, even `__proto__` (assignment would set the prototype instead), as JSON.parse does. */
function withOwnKey(target: unknown, key: string, value: unknown): unknown {
  const copy = target && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {};
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

function nest(value: unknown, depth: number, asArray: boolean): unknown {
  let out = value;
  for (let i = 0; i < depth; i++) out = asArray ? [out] : { a: out };
  return out;
}

type Mutation = (value: unknown, path: Path) => fc.Arbitrary<unknown>;
const MUTATIONS: Mutation[] = [
  // wrong type or out-of-range value
  (v, p) => fc.constantFrom(...HOSTILE_VALUES).map((x) => update(v, p, () => x)),
  // a missing key
  (v, p) =>
    fc.constant(
      p.length === 0
        ? undefined
        : update(v, p.slice(0, -1), (parent) => {
            if (Array.isArray(parent)) return parent.filter((_, i) => i !== p.at(-1));
            const { [String(p.at(-1))]: _gone, ...rest } = parent as Record<string, unknown>;
            return rest;
          }),
    ),
  // an extra key, prototype-poisoning ones included
  (v, p) =>
    fc
      .tuple(
        fc.oneof(fc.constantFrom(...POISON_KEYS), fc.string({ maxLength: 10 })),
        fc.constantFrom(...HOSTILE_VALUES, { isAdmin: true }, { prototype: { isAdmin: true } }),
      )
      .map(([key, x]) => update(v, p, (old) => withOwnKey(old, key, x))),
  // a hostile key
  (v, p) =>
    fc
      .constantFrom(...HOSTILE_STRINGS.slice(0, 7))
      .map((key) => update(v, p, (old) => withOwnKey(old, key, 'x'))),
  // deep nesting (deeper still as raw text in fuzz-requests.ts: JSON.stringify itself runs out of stack)
  (v, p) =>
    fc
      .tuple(fc.constantFrom(64, 1_000), fc.boolean())
      .map(([depth, asArray]) => update(v, p, (old) => nest(old, depth, asArray))),
];

/** `value` with one to three hostile changes at random places in it. */
export function mutated(value: unknown): fc.Arbitrary<unknown> {
  const paths = pathsOf(value);
  const once = (v: unknown) =>
    fc
      .tuple(fc.constantFrom(...MUTATIONS), fc.constantFrom(...pathsOf(v)))
      .chain(([mutation, path]) => mutation(v, path));
  return fc.integer({ min: 1, max: paths.length > 1 ? 3 : 1 }).chain((n) => {
    let arb: fc.Arbitrary<unknown> = fc.constant(value);
    for (let i = 0; i < n; i++) arb = arb.chain(once);
    return arb;
  });
}
