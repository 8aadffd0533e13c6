// Part 4: the server's memory while a customer uploads a large PDF, streamed from disk by the bench.
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { PDF } from '../src/server/test-files.ts';
import { memoryOf, peakDuring } from './server.ts';
import { MiB } from './stats.ts';

export const UPLOAD_BYTES = 50 * MiB;

export type UploadResult = {
  fileBytes: number;
  status: number;
  rssBefore: number;
  peak: number;
  growth: number;
  seconds: number;
};

/** A valid PDF of `bytes` bytes on disk (a small document followed by a comment block), written in 1 MiB chunks. */
export async function writeBigPdf(dir: string, bytes: number): Promise<string> {
  const path = join(dir, 'big.pdf');
  const file = await open(path, 'w');
  await file.write(PDF);
  const chunk = Buffer.alloc(MiB, '%' + ' lorem ipsum dolor sit amet'.repeat(2) + '\n');
  let written = PDF.length;
  while (written < bytes) {
    const n = Math.min(chunk.length, bytes - written);
    await file.write(chunk, 0, n);
    written += n;
  }
  await file.close();
  return path;
}

/** POSTs the file as multipart/form-data, streaming it from disk; resolves with the status. */
export async function uploadFile(url: string, path: string, name: string): Promise<number> {
  const size = (await stat(path)).size;
  const boundary = `----easyformbench${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      'Content-Type: application/pdf\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + size + tail.length,
      },
    });
    req.once('error', reject);
    req.once('response', (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.write(head);
    const body = createReadStream(path);
    body.once('error', reject);
    body.once('end', () => req.end(tail));
    body.pipe(req, { end: false });
  });
}

export async function benchUpload(options: { url: string; pid: number; dir: string }): Promise<UploadResult> {
  // As the spec's customer page sends it: no form id, no token (the bench's form asks for no file anyway).
  const target = `${options.url}/api/profile`;
  const path = await writeBigPdf(options.dir, UPLOAD_BYTES);
  // A small upload first, so that the route's code is loaded before the measured one.
  const warm = await uploadFile(target, await writeSmall(options.dir), 'small.pdf');
  if (warm !== 200) throw new Error(`a small PDF upload answered ${warm}`);
  const rssBefore = memoryOf(options.pid).rss;
  const started = performance.now();
  const { value: status, peak } = await peakDuring(options.pid, () => uploadFile(target, path, 'scan.pdf'));
  return {
    fileBytes: UPLOAD_BYTES,
    status,
    rssBefore,
    peak,
    growth: peak - rssBefore,
    seconds: (performance.now() - started) / 1000,
  };
}

async function writeSmall(dir: string): Promise<string> {
  const path = join(dir, 'small.pdf');
  const file = await open(path, 'w');
  await file.write(PDF);
  await file.close();
  return path;
}
