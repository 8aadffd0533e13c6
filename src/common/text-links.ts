/**
 * The web addresses in a text an owner wrote (a form's description), so the customer's page can link them, as Google
 * Forms and Typeform do. Only http and https: nothing else becomes a link. Punctuation that ends a sentence after an
 * address ("see https://example.org.") stays text, and so does a closing bracket.
 */
const ADDRESS = /\bhttps?:\/\/[^\s<>"]*[^\s<>".,;:!?'()[\]{}]/gi;

export type TextPart = { text: string; href?: string };

/** `text` cut into plain runs and addresses, in order; joined again, the parts' texts are `text`. */
export function linkParts(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const match of text.matchAll(ADDRESS)) {
    if (match.index > at) parts.push({ text: text.slice(at, match.index) });
    parts.push({ text: match[0], href: match[0] });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}

/** What a link the owner wrote carries: it opens beside the form (the answers stay), and vouches for nothing. */
export const OWNER_LINK_REL = 'noopener noreferrer nofollow ugc';
export const NEW_TAB_NOTE = ' (opens in a new tab)';
