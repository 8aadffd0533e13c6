// A file question's own rules (docs/decisions/043-question-kinds.md): which of the accepted types it takes, how large
// a file may be (within the server's own limits) and how many files it takes (1 to FILES_MAX). Plain code without
// zod: the customer's file slot reads it.
import { UPLOAD_ACCEPT } from '../answer-limits.ts';

/** The kinds of file a question may take, each with its types. */
export const FILE_KINDS = {
  image: { mimes: ['image/jpeg', 'image/png'], accept: '.jpg,.jpeg,.png', words: 'JPEG or PNG' },
  pdf: { mimes: ['application/pdf'], accept: '.pdf', words: 'PDF' },
} as const;
export type FileKind = keyof typeof FILE_KINDS;

export type FileRules = { types?: FileKind[]; maxBytes?: number; maxFiles?: number };

/** The most files one question may take. */
export const FILES_MAX = 10;

/** A file question's answer as a list, whether it was sent as one file (the product's own shape) or a list. */
export const asFileList = <T extends object>(sent: T | readonly T[]): T[] =>
  Array.isArray(sent) ? [...(sent as readonly T[])] : [sent as T];

/** How many files the question takes: 1 unless its rules say more. */
export const maxFilesOf = (rules: FileRules | undefined): number => rules?.maxFiles ?? 1;

/** A size as people read it: "2 MB", "500 KB", "1.5 MB" (decimal units, as phones show file sizes). */
export function sizeWords(bytes: number): string {
  if (bytes >= 1_000_000) return `${Number((bytes / 1_000_000).toFixed(1))} MB`;
  return `${Math.max(1, Math.round(bytes / 1000))} KB`;
}

/** The picker's accept list for the question. */
export const acceptOf = (rules: FileRules | undefined) =>
  rules?.types?.length ? rules.types.map((t) => FILE_KINDS[t].accept).join(',') : UPLOAD_ACCEPT;

/**
 * What the question takes, said under it: "JPEG, PNG or PDF", "PDF, up to 2 MB", "Up to 3 files: JPEG or PNG, up
 * to 2 MB each".
 */
export function fileHint(rules: FileRules | undefined): string {
  const types = rules?.types?.length === 1 ? FILE_KINDS[rules.types[0] ?? 'image'].words : 'JPEG, PNG or PDF';
  const several = maxFilesOf(rules) > 1;
  const kinds = rules?.maxBytes
    ? `${types}, up to ${sizeWords(rules.maxBytes)}${several ? ' each' : ''}`
    : types;
  return several ? `Up to ${maxFilesOf(rules)} files: ${kinds}` : kinds;
}

/** Why a file of `mime` and `size` bytes does not fit the question's rules; null when it fits. */
export function fileRuleProblem(rules: FileRules | undefined, mime: string, size: number): string | null {
  if (
    rules?.types?.length &&
    !rules.types.some((t) => (FILE_KINDS[t].mimes as readonly string[]).includes(mime))
  )
    return `Choose ${rules.types.length === 1 && rules.types[0] === 'pdf' ? 'a PDF' : 'a JPEG or PNG image'}`;
  if (rules?.maxBytes && size > rules.maxBytes)
    return `Choose a file of ${sizeWords(rules.maxBytes)} or less`;
  return null;
}
