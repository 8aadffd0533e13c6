import { useRef, useState, type KeyboardEvent } from 'react';

/** Browsers that size a textarea to its text in CSS (`field-sizing: content`, editor-frame.css) need no script. */
const sizesItself = typeof CSS !== 'undefined' && CSS.supports?.('field-sizing', 'content') === true;

/** The box as it opens: sized to its text, focused, the caret after the text. */
function openBox(box: HTMLTextAreaElement | null) {
  if (!box) return;
  fitToText(box);
  box.focus();
  box.setSelectionRange(box.value.length, box.value.length);
}

/** Grows (or shrinks) a textarea to show all of its text, for browsers without `field-sizing`. */
function fitToText(box: HTMLTextAreaElement | null) {
  if (!box || sizesItself) return;
  box.style.height = 'auto';
  // scrollHeight is 0 where nothing is laid out (jsdom); then leave the height to CSS.
  if (box.scrollHeight > 0) box.style.height = `${box.scrollHeight + box.offsetHeight - box.clientHeight}px`;
}

type Props = {
  value: string;
  /** Names the control for screen readers, e.g. "Form title". */
  label: string;
  onSave: (value: string) => void;
  multiline?: boolean;
  className?: string;
  /** Marks the shown text for the code that moves focus to it (`data-control`). */
  dataControl?: string;
};

/**
 * Click-to-edit text (docs/product.md, Editor): shows the value as a button; clicking opens a text box; blur
 * or Enter saves, Escape cancels. An empty or unchanged value is not saved.
 *
 * The box is a textarea that grows with its text, so a 200-character title or a long description is seen whole
 * while it is edited. A single-line value (a title, a question, an option) takes no line break: Enter saves, and
 * line breaks pasted in become spaces. In a multiline one Enter starts a new line and Ctrl/Cmd+Enter saves.
 * Closed with the keyboard (Enter or Escape), the box gives focus back to the text it edited; closed by
 * clicking elsewhere, focus stays where the owner clicked.
 */
export function EditableText({ value, label, onSave, multiline = false, className, dataControl }: Props) {
  const [draft, setDraft] = useState<string | null>(null);
  const refocus = useRef(false);
  const focusIfClosedByKey = (button: HTMLButtonElement | null) => {
    if (!button || !refocus.current) return;
    refocus.current = false;
    button.focus();
  };

  const finish = () => {
    if (draft === null) return;
    const next = draft.trim();
    setDraft(null);
    if (next !== '' && next !== value) onSave(next);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      refocus.current = true;
      setDraft(null);
    }
    if (event.key === 'Enter' && (!multiline || event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      refocus.current = true;
      finish();
    }
  };

  if (draft === null) {
    return (
      <button
        ref={focusIfClosedByKey}
        type="button"
        data-control={dataControl}
        className={['editable', className].filter(Boolean).join(' ')}
        aria-label={`${label}: ${value}. Click to edit`}
        onClick={() => setDraft(value)}
      >
        {value || <span className="muted">Click to add</span>}
      </button>
    );
  }
  return (
    <textarea
      ref={openBox}
      className={['input', 'editable-input', className].filter(Boolean).join(' ')}
      aria-label={label}
      aria-multiline={multiline}
      rows={multiline ? 3 : 1}
      value={draft}
      onChange={(e) => {
        setDraft(multiline ? e.target.value : e.target.value.replace(/\s*[\r\n]+\s*/g, ' '));
        fitToText(e.target);
      }}
      onBlur={finish}
      onKeyDown={onKeyDown}
    />
  );
}
