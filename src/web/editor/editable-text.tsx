import { useState, type KeyboardEvent } from 'react';

type Props = {
  value: string;
  /** Names the control for screen readers, e.g. "Form title". */
  label: string;
  onSave: (value: string) => void;
  multiline?: boolean;
  className?: string;
};

/**
 * Click-to-edit text (spec §4): shows the value as a button; clicking opens an input; blur or Enter saves,
 * Escape cancels. An empty or unchanged value is not saved.
 */
export function EditableText({ value, label, onSave, multiline = false, className }: Props) {
  const [draft, setDraft] = useState<string | null>(null);

  const finish = () => {
    if (draft === null) return;
    const next = draft.trim();
    setDraft(null);
    if (next !== '' && next !== value) onSave(next);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') setDraft(null);
    if (event.key === 'Enter' && (!multiline || event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      finish();
    }
  };

  if (draft === null) {
    return (
      <button
        type="button"
        className={['editable', className].filter(Boolean).join(' ')}
        aria-label={`${label}: ${value}. Click to edit`}
        onClick={() => setDraft(value)}
      >
        {value || <span className="muted">Click to add</span>}
      </button>
    );
  }
  const shared = {
    className: ['input', 'editable-input', className].filter(Boolean).join(' '),
    'aria-label': label,
    value: draft,
    autoFocus: true,
    onChange: (e: { target: { value: string } }) => setDraft(e.target.value),
    onBlur: finish,
    onKeyDown,
  };
  return multiline ? <textarea rows={3} {...shared} /> : <input {...shared} />;
}
