import type { ReactNode } from 'react';
import { dragMove, MoveButtons } from './card-moves.tsx';
import { EditableText } from './editable-text.tsx';
import type { EditorPageBreak } from './editor-items.ts';

type Props = {
  item: EditorPageBreak;
  /** The page this break starts, as the customer counts them. */
  page: number;
  position: number;
  count: number;
  /** Its condition read out, the builder that changes it, and what the logic check found here. */
  logic?: ReactNode;
  onRename: (title: string) => void;
  onMove: (from: number, to: number) => void;
  onDelete: () => void;
};

/** A page break in the question list: the page it starts, its editable title, move and delete. */
export function PageBreakCard({ item, page, position, count, logic, onRename, onMove, onDelete }: Props) {
  const named = `page break '${item.title}'`;
  return (
    <li className="field-card card page-break-card" data-field-id={item._id} {...dragMove(position, onMove)}>
      <div className="field-card-head">
        <span className="drag-handle" aria-hidden="true" title="Drag to reorder">
          ⋮⋮
        </span>
        <h3 className="page-break-title">
          <span className="page-break-number">Page {page} ·</span>{' '}
          <EditableText dataControl="name" value={item.title} label="Title" onSave={onRename} />
        </h3>
        <div className="field-card-tools">
          <MoveButtons name={named} position={position} count={count} onMove={onMove} />
          <button
            type="button"
            className="icon-button is-danger"
            aria-label={`Delete ${named}`}
            onClick={onDelete}
          >
            Delete
          </button>
        </div>
      </div>
      {logic}
    </li>
  );
}
