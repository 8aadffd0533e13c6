// PostgreSQL cannot store U+0000 in text or jsonb, and a lone UTF-16 surrogate is not Unicode at all (it becomes
// U+FFFD or an invalid JSON escape on the way in). Both are refused where they enter, with the field named, instead
// of failing deep in a query (issue 10).

const NUL = '\u0000';

/** Why a string cannot be stored, or null when it can. */
export function unstorableReason(text: string): string | null {
  if (text.includes(NUL)) return 'contains a NUL character (U+0000), which cannot be stored';
  if (!text.isWellFormed()) return 'contains a broken character (an unpaired UTF-16 surrogate)';
  return null;
}

export type UnstorableText = { path: string; reason: string };

/**
 * The first string (value or object key) anywhere in `value` that cannot be stored, with its dotted path, or null.
 * Walks arrays and plain objects recursively: callers bound the depth first (the server's MAX_JSON_DEPTH).
 */
export function findUnstorableText(value: unknown, path = ''): UnstorableText | null {
  if (typeof value === 'string') {
    const reason = unstorableReason(value);
    return reason ? { path, reason } : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], path ? `${path}.${i}` : String(i));
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const keyPath = path ? `${path}.${key}` : key;
      const keyReason = unstorableReason(key);
      // The key itself is what is wrong: name it without the bad character.
      if (keyReason) return { path: path || 'key', reason: `has a key that ${keyReason}` };
      const found = findUnstorableText(child, keyPath);
      if (found) return found;
    }
  }
  return null;
}

/** Cuts `text` to at most `max` UTF-16 units without splitting a surrogate pair. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  // A high surrogate as the last unit kept would be left without its pair.
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return text.slice(0, end);
}
