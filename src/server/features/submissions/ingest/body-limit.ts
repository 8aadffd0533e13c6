import { HONEYPOT_FIELD, LONG_TEXT_ANSWER_MAX, TEXT_ANSWER_MAX } from '#common/answer-limits.ts';
import * as limits from '#common/question-schemas.ts';

// The largest JSON body of a submission the schemas accept, so that no answer the page accepts is refused with 413
// (issue 10: seven full paragraphs were). docs/decisions/016-request-size-and-proxies.md has the figures.

/**
 * Bytes one character can take in a JSON body. zod counts string lengths in code points; the worst is an astral
 * character (an emoji) written as two `\uXXXX` escapes, 12 bytes. Raw UTF-8 takes at most 4, and JSON.stringify
 * writes control characters as one escape, 6.
 */
const BYTES_PER_CHARACTER = 12;
/** Quotes, colon, comma and the like around each string: generous, so the sum is an upper bound. */
const PUNCTUATION = 8;
const jsonString = (characters: number) => characters * BYTES_PER_CHARACTER + PUNCTUATION;

// The original client keys answers by question name (ours by id, shorter), so a key is up to a name long.
const KEY = jsonString(limits.FIELD_NAME_MAX);
const LONGEST_ANSWER = Math.max(
  jsonString(Math.max(LONG_TEXT_ANSWER_MAX, TEXT_ANSWER_MAX)),
  // Every option of a checkbox question ticked, under {"name": …, "values": [...]}.
  KEY + limits.OPTIONS_PER_FIELD_MAX * jsonString(limits.OPTION_VALUE_MAX) + 32,
  // A file slot: deleteId, name, value (the URL), originalName (FileAnswerSchema's bounds) and their keys.
  jsonString(100) + jsonString(500) + jsonString(2000) + jsonString(500) + 64,
);
// The form's own title, description and colours that the original client echoes back, the honeypot, the form id.
const ENVELOPE =
  jsonString(limits.FORM_TITLE_MAX) +
  jsonString(limits.FORM_DESCRIPTION_MAX) +
  jsonString(1000) +
  4096 +
  HONEYPOT_FIELD.length;

/** bodyLimit of POST /api/forms/:ownerId: every question of the largest form answered as long as allowed. */
export const SUBMISSION_BODY_LIMIT = ENVELOPE + limits.FIELDS_PER_FORM_MAX * (KEY + LONGEST_ANSWER);
