import { extname } from 'node:path';
import { UPLOAD_TYPES } from '#common/answer-limits.ts';

// Each fits in the first bytes storage shows `inspect` (HEAD_BYTES, storage/head-check.ts).
const SIGNATURES: { mime: string; bytes: number[] }[] = [
  { mime: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { mime: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { mime: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
];

/** The type the content says it is, from its first bytes; null when it is none we accept. */
export function sniffMime(head: Uint8Array): string | null {
  return SIGNATURES.find((s) => s.bytes.every((b, i) => head[i] === b))?.mime ?? null;
}

/** The type the file name claims; null when the extension is not accepted. */
export function mimeOfFileName(name: string): string | null {
  const ext = extname(name).toLowerCase();
  return UPLOAD_TYPES.find((t) => (t.extensions as readonly string[]).includes(ext))?.mime ?? null;
}
