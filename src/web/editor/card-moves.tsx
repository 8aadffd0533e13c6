import type { DragEvent } from 'react';

type Move = (from: number, to: number) => void;

/** What makes a card of the question list draggable onto another: the one dropped on takes its place. */
export const dragMove = (position: number, onMove: Move) => ({
  draggable: true,
  onDragStart: (e: DragEvent) => e.dataTransfer.setData('text/plain', String(position)),
  onDragOver: (e: DragEvent) => e.preventDefault(),
  onDrop: (e: DragEvent) => {
    e.preventDefault();
    const from = Number(e.dataTransfer.getData('text/plain'));
    if (Number.isInteger(from) && from !== position) onMove(from, position);
  },
});

type Props = { name: string; position: number; count: number; onMove: Move };

/** A card's ↑ and ↓, named "Move <name> up/down"; the list moves focus between them (question-list.tsx). */
export function MoveButtons({ name, position, count, onMove }: Props) {
  return (
    <>
      <button
        type="button"
        className="icon-button"
        aria-label={`Move ${name} up`}
        data-control="up"
        disabled={position === 0}
        onClick={() => onMove(position, position - 1)}
      >
        ↑
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label={`Move ${name} down`}
        data-control="down"
        disabled={position === count - 1}
        onClick={() => onMove(position, position + 1)}
      >
        ↓
      </button>
    </>
  );
}
