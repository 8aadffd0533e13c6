import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { HttpError, MAX_JSON_DEPTH } from './errors.ts';

/**
 * A JSON body's cost to the server is bounded before anything parses it. A body of millions of empty arrays fits the
 * submission route's size limit (every question of the widest form answered as long as allowed, about 48 MiB), and
 * JSON.parse would build every one of them, freezing the process for seconds and growing it by gigabytes. So each
 * body's bytes are scanned as they arrive, and the body is refused as soon as it holds more values, deeper nesting
 * or a longer string than any of our bodies can (docs/security.md); the scan keeps a few counters, never the body.
 * And only a few large bodies are taken at once: beyond them, 503 with Retry-After before a byte is read.
 */

export type JsonShape = { values: number; depth: number; stringBytes: number };

/**
 * What no body of ours exceeds: the widest submission (body-limit.ts) holds about 22,000 values (200 questions, a
 * checkbox question's 100 options each), and no string is longer than a long answer written as escapes (10,000
 * characters × 12 bytes). A body under the default 64 KiB limit cannot hold many more values anyway.
 */
export const DEFAULT_JSON_SHAPE: JsonShape = {
  values: 32_768,
  depth: MAX_JSON_DEPTH,
  stringBytes: 128 * 1024,
};

/** A body over this many bytes counts as large. */
export const LARGE_BODY_BYTES = 1024 * 1024;
/** How many large bodies are taken at once; the rest are told to come back. */
export const LARGE_BODIES_AT_ONCE = 4;
export const LARGE_BODY_RETRY_SECONDS = 5;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Follows a JSON text byte by byte and says, at the first byte past `shape`, what it exceeded. */
export class JsonShapeScanner {
  private values = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private stringBytes = 0;

  constructor(private readonly shape: JsonShape) {}

  /** Null while the text stays within the shape; else the reason it is refused. */
  scan(chunk: Uint8Array): string | null {
    const { shape } = this;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i] as number;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) {
          this.inString = false;
          continue;
        }
        if (++this.stringBytes > shape.stringBytes)
          return `has a string longer than ${shape.stringBytes} bytes`;
        continue;
      }
      switch (byte) {
        case QUOTE:
          this.inString = true;
          this.stringBytes = 0;
          break;
        case 0x5b: // [
        case 0x7b: // {
          if (++this.depth > shape.depth) return `nested deeper than ${shape.depth} levels`;
          if (++this.values > shape.values) return `has more than ${shape.values} values`;
          break;
        case 0x5d: // ]
        case 0x7d: // }
          this.depth--;
          break;
        case 0x2c: // ,
          if (++this.values > shape.values) return `has more than ${shape.values} values`;
          break;
      }
    }
    return null;
  }
}

/**
 * The body as it arrives, passed on unchanged; an error (400) at the first byte past the shape. It counts the bytes
 * that came through, as Fastify asks of a stream that stands in for the request's.
 */
export function shapeCheckedStream(shape: JsonShape): Transform & { receivedEncodedLength: number } {
  const scanner = new JsonShapeScanner(shape);
  const counted = { receivedEncodedLength: 0 };
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      counted.receivedEncodedLength += chunk.length;
      const refused = scanner.scan(chunk);
      if (!refused) return callback(null, chunk);
      // The rest of the body is not read: the connection closes once the answer is sent.
      callback(new HttpError(400, 'VALIDATION_FAILED', `body: ${refused}`, { connection: 'close' }));
    },
  });
  return Object.defineProperty(stream, 'receivedEncodedLength', {
    get: () => counted.receivedEncodedLength,
  }) as Transform & { receivedEncodedLength: number };
}

const isJson = (contentType: string | undefined) =>
  contentType !== undefined && /^application\/([\w.+-]+\+)?json\b/i.test(contentType.trim());

/** Scans every JSON body on its way to the parser, and takes at most LARGE_BODIES_AT_ONCE large ones at a time. */
export function guardJsonBodies(app: FastifyInstance): void {
  let large = 0;
  app.addHook('preParsing', async (request, reply, payload) => {
    const { headers } = request;
    if (!isJson(headers['content-type'])) return payload;
    const length = headers['content-length'];
    // Sent in chunks, its length is known only at its end: large until then.
    if (
      length === undefined ? headers['transfer-encoding'] !== undefined : Number(length) > LARGE_BODY_BYTES
    ) {
      if (large >= LARGE_BODIES_AT_ONCE) {
        throw new HttpError(
          503,
          'UNAVAILABLE',
          'The server is taking in other large requests; try again in a few seconds.',
          { 'retry-after': String(LARGE_BODY_RETRY_SECONDS), connection: 'close' },
        );
      }
      large++;
      reply.raw.once('close', () => large--);
    }
    const checked = shapeCheckedStream(DEFAULT_JSON_SHAPE);
    payload.on('error', (error) => checked.destroy(error));
    // Fastify answers the refusal from its own listener; one emitted after it has stopped listening is the same.
    checked.on('error', () => undefined);
    return payload.pipe(checked);
  });
}
