// Whole requests for the fuzz tests: params, query string, headers and body of one route, from its own schemas,
// valid or mutated, with malformed JSON and wrong content types mixed in.
import fc from 'fast-check';
import type { RouteEntry } from '../http/route-table.ts';
import {
  HOSTILE_STRINGS,
  jsonSchemaOf,
  mutated,
  valueFor,
  type Hints,
  type JsonSchema,
} from './fuzz-values.ts';

export type FuzzRequest = {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
};

/** Path segments as they arrive on the wire: broken percent-escapes and encoded NUL or surrogates included. */
const RAW_SEGMENTS = [
  '%00',
  '%ED%A0%BD',
  '%F0%9F',
  '%',
  '%zz',
  '..',
  '%2e%2e',
  '%2F',
  'a'.repeat(120),
  '-1',
  'null',
];

/** Bodies that are not JSON, or not the JSON a parser expects. */
const RAW_BODIES = [
  '',
  '{',
  '{"a":1,}',
  "{'a':1}",
  'null',
  '[]',
  '"text"',
  '1e400',
  '{"a":1e400}',
  '{"a":-1e400,"b":123456789012345678901234567890}',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '{"a":"\\u0000"}',
  '{"a":"\\ud83d"}',
  '{"a":"\\udc00\\ud83d"}',
  '\uFEFF{}',
  '{"a":1}{"b":2}',
  '['.repeat(20_000),
  `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
  `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
  // Deep and poisoned at once: the parser's prototype scan then walks the whole depth.
  `${'['.repeat(20_000)}{"constructor":{"prototype":1}}${']'.repeat(20_000)}`,
  `${'['.repeat(20_000)}{"__proto__":{"a":1}}${']'.repeat(20_000)}`,
];
/** Bytes that are not UTF-8: a lone continuation byte, an emoji cut after two bytes, an encoded surrogate. */
const BAD_UTF8 = [Buffer.from([0x80]), Buffer.from([0xf0, 0x9f]), Buffer.from([0xed, 0xa0, 0x80])];

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/vnd.api+json',
  'application/jsonx',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'multipart/form-data',
  'application/octet-stream',
  '',
  ';;;',
];

const urlEncode = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    // An unpaired surrogate cannot be encoded as UTF-8: send what a broken client would, its CESU-8 bytes.
    return [...text]
      .map((c) => {
        const code = c.charCodeAt(0);
        if (code < 0xd800 || code > 0xdfff) return encodeURIComponent(c);
        return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`;
      })
      .join('');
  }
};

function paramArb(schema: JsonSchema | undefined, hints: Hints): fc.Arbitrary<string> {
  const valid = (schema ? valueFor(schema, hints) : fc.string()).map((v) => urlEncode(String(v)));
  return fc.oneof(
    { weight: 4, arbitrary: valid },
    fc.constantFrom(...RAW_SEGMENTS),
    fc.constantFrom(...HOSTILE_STRINGS.slice(0, 5)).map(urlEncode),
    fc.uuid().map((u) => u.toUpperCase()),
  );
}

const queryPairs = (value: unknown): string[] =>
  value && typeof value === 'object'
    ? Object.entries(value).map(
        ([k, v]) => `${urlEncode(k)}=${urlEncode(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`,
      )
    : [];

const QUERY_EXTRAS = [
  'limit=1&limit=2',
  '__proto__=x',
  'constructor[prototype][x]=1',
  'limit=1e400',
  'limit=-0',
  'limit=0x10',
  'a[]=1',
  '&&=&',
  '%00=%00',
];

function queryArb(schema: JsonSchema | undefined, hints: Hints): fc.Arbitrary<string> {
  const valid = schema ? valueFor(schema, hints) : fc.constant({});
  return fc
    .tuple(
      valid.chain((v) => fc.oneof({ weight: 2, arbitrary: fc.constant(v) }, mutated(v))),
      fc.subarray(QUERY_EXTRAS, { maxLength: 2 }),
    )
    .map(([value, extras]) => [...queryPairs(value), ...extras].join('&'));
}

type Body = { payload?: string | Buffer; contentType?: string };

function bodyArb(schema: JsonSchema | undefined, hints: Hints): fc.Arbitrary<Body> {
  const valid = schema ? valueFor(schema, hints) : fc.constant(undefined);
  const json = (payload: string | Buffer, contentType = 'application/json') => ({ payload, contentType });
  return fc.oneof(
    { weight: 5, arbitrary: valid.map((v) => json(JSON.stringify(v) ?? '')) },
    { weight: 5, arbitrary: valid.chain(mutated).map((v) => json(JSON.stringify(v) ?? 'null')) },
    fc.constantFrom(...RAW_BODIES).map((b) => json(b)),
    fc.tuple(valid, fc.constantFrom(...BAD_UTF8)).map(([v, bad]) => {
      const text = JSON.stringify(v) ?? '{}';
      const at = text.indexOf('"') + 1;
      return json(Buffer.concat([Buffer.from(text.slice(0, at)), bad, Buffer.from(text.slice(at))]));
    }),
    fc
      .tuple(valid, fc.constantFrom(...CONTENT_TYPES))
      .map(([v, type]) => json(JSON.stringify(v) ?? '', type)),
    // A truncated body: what a dropped connection or a buggy client sends.
    valid.chain((v) => {
      const text = JSON.stringify(v) ?? '{}';
      return fc.nat({ max: text.length }).map((n) => json(text.slice(0, n)));
    }),
    fc.constant({}),
  );
}

/** Every request the fuzz test may send to `route`, with `auth` (or none) as the Authorization header. */
export function requestArb(
  route: RouteEntry,
  hints: Hints,
  auth: fc.Arbitrary<string | null>,
): fc.Arbitrary<FuzzRequest> {
  const schema = route.schema ?? {};
  const params = jsonSchemaOf(schema.params);
  const names = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1] ?? '');
  const sets = hints.paramSets.filter((set) => names.every((n) => n in set));
  const independent = fc.tuple(...names.map((n) => paramArb(params?.properties?.[n], hints)));
  // Ids drawn one by one rarely belong together; a real form with its own question reaches the handler's rules.
  const paramValues =
    sets.length > 0 && names.length > 0
      ? fc.oneof(
          independent,
          fc.constantFrom(...sets).map((set) => names.map((n) => set[n] ?? '')),
        )
      : independent;
  const headerSchema = jsonSchemaOf(schema.headers);
  const headers = headerSchema ? valueFor(headerSchema, hints) : fc.constant({});
  return fc
    .record({
      params: paramValues,
      query: queryArb(jsonSchemaOf(schema.querystring), hints),
      body: bodyArb(jsonSchemaOf(schema.body), hints),
      headers,
      token: auth,
    })
    .map(({ params: values, query, body, headers: extra, token }) => {
      let i = 0;
      const path = route.url.replace(/:(\w+)/g, () => values[i++] ?? '');
      const all: Record<string, string> = {};
      for (const [k, v] of Object.entries((extra ?? {}) as Record<string, unknown>)) {
        // Header values cannot carry control characters at all; the transport would refuse them, not us.
        all[k] = String(v).replace(/[^\x20-\x7e]/g, '');
      }
      if (token !== null) all.authorization = `Bearer ${token}`;
      if (body.contentType) all['content-type'] = body.contentType;
      return {
        method: route.method,
        url: query ? `${path}?${query}` : path,
        headers: all,
        ...(body.payload === undefined ? {} : { payload: body.payload }),
      };
    });
}

/** A request as a reader can replay it: long strings cut, so a failure message stays readable. */
export function describeRequest(request: FuzzRequest): string {
  const payload =
    request.payload === undefined
      ? '(no body)'
      : Buffer.isBuffer(request.payload)
        ? `bytes(hex) ${request.payload.toString('hex').slice(0, 400)}`
        : JSON.stringify(
            request.payload.length > 400
              ? `${request.payload.slice(0, 400)}… (${request.payload.length} chars)`
              : request.payload,
          );
  const url = request.url.length > 400 ? `${request.url.slice(0, 400)}…` : request.url;
  return `${request.method} ${url}\nheaders: ${JSON.stringify(request.headers)}\nbody: ${payload}`;
}
