// A statement's text as both customer pages draw it (docs/decisions/043-question-kinds.md): paragraphs split at a
// blank line, **bold** runs, [text](https://…) links and bare web addresses. The pieces are text, never markup: each
// page escapes them (the server) or draws them as text nodes (React), so nothing the owner writes becomes HTML.
import { linkParts } from '../text-links.ts';

export type StatementPiece = { text: string; bold?: true; href?: string };

const MARKS = /\*\*([^*\n]+)\*\*|\[([^\]\n]{1,200})\]\((https?:\/\/[^\s()<>"]{1,2000})\)/g;

/** One paragraph's pieces: bold runs, written links, and the addresses in the plain runs between them. */
function piecesOf(paragraph: string): StatementPiece[] {
  const pieces: StatementPiece[] = [];
  const plain = (text: string) => {
    for (const part of linkParts(text))
      pieces.push(part.href === undefined ? { text: part.text } : { text: part.text, href: part.href });
  };
  let at = 0;
  for (const match of paragraph.matchAll(MARKS)) {
    plain(paragraph.slice(at, match.index));
    if (match[1] !== undefined) pieces.push({ text: match[1], bold: true });
    else pieces.push({ text: match[2] ?? '', href: match[3] ?? '' });
    at = match.index + match[0].length;
  }
  plain(paragraph.slice(at));
  return pieces.filter((p) => p.text !== '');
}

/** The statement's paragraphs, each as its pieces; a single line break inside a paragraph stays as a space. */
export function statementParagraphs(text: string): StatementPiece[][] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s*\n\s*/g, ' ').trim())
    .filter((p) => p !== '')
    .map(piecesOf);
}
