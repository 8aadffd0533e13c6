import { Fragment } from 'react';
import { statementParagraphs, type StatementPiece } from '#common/kinds/statement-text.ts';
import { NEW_TAB_NOTE, OWNER_LINK_REL } from '#common/text-links.ts';

function Pieces({ pieces }: { pieces: StatementPiece[] }) {
  return pieces.map((piece, i) => {
    const inner = piece.bold ? <strong>{piece.text}</strong> : piece.text;
    return piece.href === undefined ? (
      <Fragment key={i}>{inner}</Fragment>
    ) : (
      <a key={i} href={piece.href} rel={OWNER_LINK_REL} target="_blank">
        {inner}
        <span className="visually-hidden">{NEW_TAB_NOTE}</span>
      </a>
    );
  });
}

/**
 * A statement's text: paragraphs, bold runs and links, as text (server/pages/more-kinds-html.ts). `inline`, inside a
 * label (a consent's), where a paragraph may not go: the paragraphs separated by line breaks.
 */
export function StatementParagraphs({ text, inline = false }: { text: string; inline?: boolean }) {
  const paragraphs = statementParagraphs(text);
  if (inline)
    return paragraphs.map((pieces, p) => (
      <Fragment key={p}>
        {p > 0 ? <br /> : null}
        <Pieces pieces={pieces} />
      </Fragment>
    ));
  return paragraphs.map((pieces, p) => (
    <p key={p} dir="auto">
      <Pieces pieces={pieces} />
    </p>
  ));
}
