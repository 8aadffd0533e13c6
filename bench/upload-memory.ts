// Part 4: the server's memory while a customer uploads a large PDF. The body is made by a generator as it is sent,
// so the bench process never holds more than one chunk of it, whatever the file size.
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MailCapture } from '../src/server/testing/mail-capture.ts';
import { PDF } from '../src/server/testing/test-files.ts';
import { memoryOf, peakDuring, startBenchServer } from './server.ts';
import { median, MiB } from './stats.ts';

export const SMALL_UPLOAD = 50 * MiB;
export const LARGE_UPLOAD = 500 * MiB;
/** Each size is uploaded this many times, alternating, on one server. */
export const UPLOAD_ROUNDS = 3;

export type UploadMeasure = {
  fileBytes: number;
  status: number;
  rssBefore: number;
  peak: number;
  growth: number;
  seconds: number;
};
/**
 * Growth below this is not resolved by the measure: two identical uploads on one server differ by up to a couple of
 * MiB (allocator and collector timing, 4 KiB pages, the 20 ms sampling fallback), so a ratio of two growths under it
 * would compare noise. Growths are counted as at least this much in the ratio; the raw figures are reported too.
 */
export const GROWTH_RESOLUTION = 1 * MiB;

export type UploadResult = {
  small: UploadMeasure[];
  large: UploadMeasure[];
  /** Median growth of the large uploads over that of the small ones, each at least GROWTH_RESOLUTION. */
  ratio: number;
  /** The same without the resolution floor. */
  rawRatio: number;
};

const CHUNK = Buffer.alloc(MiB, '%' + ' lorem ipsum dolor sit amet'.repeat(2) + '\n');

/** A valid PDF of `bytes` bytes (a small document followed by a comment block), one MiB chunk at a time. */
function* pdfOf(bytes: number): Generator<Buffer> {
  yield PDF;
  for (let left = bytes - PDF.length; left > 0; left -= CHUNK.length) {
    yield left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
  }
}

/** POSTs a generated PDF of `bytes` bytes as multipart/form-data, with back-pressure; resolves with the status. */
export async function uploadGenerated(url: string, bytes: number, name: string): Promise<number> {
  const boundary = `----easyformbench${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      'Content-Type: application/pdf\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const req = request(url, {
    method: 'POST',
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': head.length + bytes + tail.length,
    },
  });
  const answered = new Promise<number>((resolve, reject) => {
    req.once('error', reject);
    req.once('response', (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
  });
  const body = Readable.from(
    (function* () {
      yield head;
      yield* pdfOf(bytes);
      yield tail;
    })(),
    { objectMode: false },
  );
  // A server that refuses early may close the socket before the body is sent: its status is the answer then.
  await pipeline(body, req).catch(() => undefined);
  return answered;
}

async function measure(url: string, pid: number, bytes: number): Promise<UploadMeasure> {
  const rssBefore = memoryOf(pid).rss;
  const started = performance.now();
  const { value: status, peak } = await peakDuring(pid, () => uploadGenerated(url, bytes, 'scan.pdf'));
  return {
    fileBytes: bytes,
    status,
    rssBefore,
    peak,
    growth: peak - rssBefore,
    seconds: (performance.now() - started) / 1000,
  };
}

export async function benchUpload(options: {
  dataDir: string;
  mail: MailCapture;
  log: (line: string) => void;
}): Promise<UploadResult> {
  // The limit is raised for this server only, just above the large file.
  const env = { UPLOAD_MAX_BYTES: String(LARGE_UPLOAD + MiB) };
  const server = await startBenchServer({
    dataDir: options.dataDir,
    databaseUrl: undefined,
    mail: options.mail,
    env,
  });
  try {
    // As the original customer page sends it: no form id, no token.
    const target = `${server.url}/api/profile`;
    // A small upload first, so that the route's code is loaded before the measured ones.
    const warm = await uploadGenerated(target, PDF.length, 'small.pdf');
    if (warm !== 200) throw new Error(`a small PDF upload answered ${warm}`);
    const small: UploadMeasure[] = [];
    const large: UploadMeasure[] = [];
    for (let i = 0; i < UPLOAD_ROUNDS; i++) {
      for (const [bytes, into] of [
        [SMALL_UPLOAD, small],
        [LARGE_UPLOAD, large],
      ] as const) {
        const m = await measure(target, server.pid, bytes);
        into.push(m);
        options.log(
          `  upload ${bytes / MiB} MiB: ${m.status}, RSS ${(m.rssBefore / MiB).toFixed(1)} → ` +
            `${(m.peak / MiB).toFixed(1)} MiB (+${(m.growth / MiB).toFixed(1)}) in ${m.seconds.toFixed(2)} s`,
        );
      }
    }
    const growth = (ms: UploadMeasure[]) => median(ms.map((m) => m.growth));
    const resolved = (ms: UploadMeasure[]) => Math.max(GROWTH_RESOLUTION, growth(ms));
    return {
      small,
      large,
      ratio: resolved(large) / resolved(small),
      rawRatio: growth(large) / growth(small),
    };
  } finally {
    await server.stop();
  }
}
