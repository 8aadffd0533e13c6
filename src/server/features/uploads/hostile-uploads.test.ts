import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseContentDisposition } from 'content-disposition';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import type { UploadResponse } from '#common/submissions.ts';
import { HOSTILE_STRINGS } from '../../testing/fuzz-values.ts';
import {
  createForm,
  createTestApp,
  FUZZ_SETTINGS,
  signUpOwner,
  storedKeys,
  TEST_ENGINE,
  type TestApp,
} from '../../testing/test-app.ts';
import { multipart, PDF, PNG } from '../../testing/test-files.ts';

// The hostile upload corpus of issue 10: each file refused with a 4xx (or, for names, made safe), nothing left on
// disk or in the database, and the server still healthy.
const MAX = 256 * 1024;
let t: TestApp;
let form: Form;
beforeAll(async () => {
  t = await createTestApp({ uploadMaxBytes: MAX, uploadMaxPixels: 40_000_000 });
  const owner = await signUpOwner(t);
  form = await createForm(t, owner.token, { template: 'travel' });
});
afterAll(async () => {
  await t?.close();
});

/**
 * Path separators, control characters (C0, DEL, C1) and the invisible ones that make a name show other than it is
 * (direction overrides, line separators, zero-width spaces), which a stored file name never holds.
 */
const UNSAFE_IN_NAME =
  // eslint-disable-next-line no-control-regex -- control characters are what is matched
  /[/\\\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]/;

const upload = (filename: string, content: Buffer) =>
  t.app.inject({ method: 'POST', url: `/api/profile?formId=${form._id}`, ...multipart(filename, content) });
const filesIn = async (dir: string) => readdir(join(t.app.config.dataDir, dir)).catch(() => []);
const uploadRows = async () =>
  Number((await t.app.db.query<{ n: string }>('select count(*) as n from uploads'))[0]?.n);

/** A PNG signature and an IHDR chunk claiming `width` × `height`, then an IDAT that is not real image data. */
function pngClaiming(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
  };
  return Buffer.concat([
    PNG.subarray(0, 8),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.alloc(64)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 256 × 256 JPEG of noise (about 30 KB), so that cutting it in half leaves a truncated image. */
const photo = () =>
  sharp({
    create: {
      width: 256,
      height: 256,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg()
    .toBuffer();

describe(`hostile uploads on ${TEST_ENGINE}`, () => {
  it.each<[string, string, () => Promise<Buffer>, number]>([
    ['HTML named .png', 'page.png', async () => Buffer.from('<html><script>alert(1)</script></html>'), 415],
    [
      'a PNG header followed by HTML',
      'trick.png',
      async () => Buffer.concat([PNG.subarray(0, 8), Buffer.from('<html><script>alert(1)</script>')]),
      422,
    ],
    [
      'an SVG with a script named .png',
      'logo.png',
      async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      415,
    ],
    [
      'a Windows executable named .pdf',
      'invoice.pdf',
      async () => Buffer.concat([Buffer.from('MZ\x90\x00'), Buffer.alloc(512)]),
      415,
    ],
    ['an empty file', 'empty.png', async () => Buffer.alloc(0), 400],
    [
      'a PNG whose header claims 30000 × 30000 pixels',
      'huge.png',
      async () => pngClaiming(30_000, 30_000),
      413,
    ],
    ['a truncated JPEG', 'cut.jpg', async () => (await photo()).subarray(0, 15_000), 422],
    [
      'a file one byte over the limit',
      'big.pdf',
      async () => Buffer.concat([PDF, Buffer.alloc(MAX + 1 - PDF.length, 0x20)]),
      413,
    ],
    ['a file name with a NUL', 'a\u0000.png', async () => PNG, 400],
  ])('refuses %s, keeping nothing', async (_label, name, content, status) => {
    const rows = await uploadRows();
    const keys = await storedKeys(t);
    const res = await upload(name, await content());
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().error.message).toBeTruthy();
    expect(await uploadRows()).toBe(rows);
    // Nothing stored, not even a partial file, on disk or in S3.
    expect(await storedKeys(t)).toEqual(keys);
    expect(await filesIn('staging')).toEqual([]);
  });

  it('says an empty file is empty, not of the wrong type', async () => {
    const res = await upload('empty.pdf', Buffer.alloc(0));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('The file is empty. Choose the file again');
  });

  it.each([
    ['PDF', 'cut.pdf', PDF],
    ['PNG', 'cut.png', PNG],
  ])(
    'answers 400 to a %s whose body ends before its closing boundary, keeping nothing',
    async (_kind, name, file) => {
      const rows = await uploadRows();
      const keys = await storedKeys(t);
      const whole = multipart(name, file);
      // Everything up to the file's last byte; the CRLF and closing boundary never come.
      const cut = whole.payload.subarray(0, whole.payload.lastIndexOf('\r\n--'));
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/profile?formId=${form._id}`,
        headers: whole.headers,
        payload: cut,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.message).toMatch(/^file: The multipart body is malformed/);
      expect(await uploadRows()).toBe(rows);
      expect(await storedKeys(t)).toEqual(keys);
      expect(await filesIn('staging')).toEqual([]);
    },
  );

  it("says what is wrong with a body of too many parts, in our words rather than the parser's", async () => {
    const boundary = 'XB';
    const fields = Array.from(
      { length: 6 },
      (_, i) => `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`,
    );
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/profile?formId=${form._id}`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `${fields.join('')}--${boundary}--\r\n`,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'The request has too many text fields: send the file alone, in the field "file"',
    });
  });

  it('keeps no direction override or invisible character in a name, so it shows as what it is', async () => {
    for (const [name, kept] of [
      ['invoice\u202Egnp.pdf', 'invoice_gnp.pdf'],
      ['report\u2066\u200b.pdf', 'report__.pdf'],
      ['x\u0085\u009b.pdf', 'x__.pdf'],
      // Joiners are part of emoji and of Persian words: kept.
      ['👩\u200d💻 نامه\u200cها.pdf', '👩\u200d💻 نامه\u200cها.pdf'],
    ] as const) {
      const res = await upload(name, PDF);
      expect(res.statusCode, name).toBe(200);
      expect(res.json<UploadResponse>().name).toBe(kept);
    }
  });

  it('keeps only the last part of a name with path separators, and cuts a 300-character name whole', async () => {
    for (const [name, kept] of [
      ['../../etc/passwd.png', 'passwd.png'],
      ['C:\\Users\\asha\\scan.png', 'scan.png'],
      [`${'😀'.repeat(150)}.png`, `${'😀'.repeat(125)}.png`],
    ] as const) {
      const res = await upload(name, PNG);
      expect(res.statusCode, name).toBe(200);
      const body = res.json<UploadResponse>();
      expect(body.name).toBe(kept);
      expect(body.name.isWellFormed()).toBe(true);
      const file = await t.app.inject({ method: 'GET', url: body.file });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-disposition']).not.toMatch(/[/\\]/);
    }
  });

  it('keeps any generated file name as sent, or made safe, and downloads it under the name it shows (generated)', async () => {
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 30 }),
      fc.string({ unit: 'binary', maxLength: 12 }),
      fc.constantFrom(
        ...HOSTILE_STRINGS.filter((h) => h.length < 1000),
        '..',
        '/',
        '\\',
        '"',
        '%22',
        ';',
        '*=',
      ),
    );
    const named = fc.tuple(
      fc.array(piece, { minLength: 1, maxLength: 4 }),
      fc.constantFrom('png', 'PNG', 'pdf'),
    );
    await fc.assert(
      fc.asyncProperty(named, async ([pieces, ext]) => {
        const sent = `${pieces.join('')}.${ext}`;
        const rows = await uploadRows();
        const res = await upload(sent, ext === 'pdf' ? PDF : PNG);
        expect(res.statusCode, res.body).toBeLessThan(500);
        if (res.statusCode !== 200) {
          expect(res.json().error.message).toBeTruthy();
          expect(await uploadRows()).toBe(rows);
          return;
        }
        const { name, file } = res.json<UploadResponse>();
        expect(name.isWellFormed()).toBe(true);
        expect(name).not.toMatch(UNSAFE_IN_NAME);
        expect(name.length).toBeGreaterThan(0);
        expect(name.length).toBeLessThanOrEqual(255);
        // A name a browser sends as it is (no quote, backslash, line break or path) is kept as it arrived.
        // Unsafe characters are looked for before the trim: a tab at an end becomes "_", it is not trimmed away.
        const onWire = Buffer.from(sent).toString();
        const asSent = onWire.trim();
        const plain = !UNSAFE_IN_NAME.test(onWire) && !asSent.includes('"') && asSent.length <= 255;
        if (plain) expect(name).toBe(asSent);
        const download = await t.app.inject({ method: 'GET', url: file });
        expect(download.statusCode).toBe(200);
        const disposition = String(download.headers['content-disposition']);
        expect(parseContentDisposition(disposition).parameters.filename).toBe(name);
      }),
      // FUZZ_RUNS=1000 for a deep run, as src/server/fuzz.test.ts.
      { numRuns: Number(FUZZ_SETTINGS.runs ?? 80) },
    );
  });

  it('stays healthy after the corpus: /api/health answers 200 and a valid upload works', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await upload('fine.jpg', await photo())).statusCode).toBe(200);
    expect(await filesIn('staging')).toEqual([]);
  });

  it('strips EXIF and GPS from a JPEG and applies its orientation', async () => {
    // 40 wide, 20 high, tagged "rotate 90° clockwise to show" (orientation 6): shown upright it is 20 × 40.
    const tagged = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#2a6' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({
        IFD0: { Make: 'PhoneCo' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '12/1 58/1 0/1' },
      })
      .toBuffer();
    const before = await sharp(tagged).metadata();
    expect(before.exif).toBeDefined();
    expect(before.orientation).toBe(6);

    const body = (await upload('holiday.jpg', tagged)).json<UploadResponse>();
    const file = await t.app.inject({ method: 'GET', url: body.file });
    const after = await sharp(file.rawPayload).metadata();
    expect(after.exif).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    expect(file.rawPayload.includes(Buffer.from('PhoneCo'))).toBe(false);
    expect([after.width, after.height]).toEqual([20, 40]);
    expect(body.size).toBe(file.rawPayload.length);
  });

  it('answers 404 (JSON) when the row exists but its file is gone from storage', async () => {
    const body = (await upload('gone.png', PNG)).json<UploadResponse>();
    const [row] = await t.app.db.query<{ storage_key: string }>(
      "select storage_key from uploads where original_name = 'gone.png'",
    );
    await t.app.storage.remove(row?.storage_key ?? '');
    const res = await t.app.inject({ method: 'GET', url: body.file });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
  });
});
