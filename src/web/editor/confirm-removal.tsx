import { useEffect, useId, useRef } from 'react';

type Props = {
  /** "Delete question “Do you need a room?”" */
  title: string;
  /** The conditions the deletion changes, each read out. */
  uses: readonly string[];
  /** What happens to them: "Deleting it removes its rules from these conditions." */
  consequence: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
};

/**
 * Asks before a deletion that changes conditions, naming each one. A modal alert dialog over the editor: focus
 * starts on Cancel (the safe choice), Tab stays between its two buttons, and Escape cancels.
 */
export function ConfirmRemoval({ title, uses, consequence, confirmLabel, onConfirm, onCancel }: Props) {
  const id = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const onCancelNow = useRef(onCancel);
  useEffect(() => {
    onCancelNow.current = onCancel;
  });
  useEffect(() => {
    cancel.current?.focus();
    const node = dialog.current;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        onCancelNow.current();
      } else if (event.key === 'Tab') {
        event.preventDefault();
        (document.activeElement === cancel.current ? confirm : cancel).current?.focus();
      }
    };
    node?.addEventListener('keydown', onKey);
    return () => node?.removeEventListener('keydown', onKey);
  }, []);
  return (
    <div className="confirm-backdrop">
      <div
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-body`}
        ref={dialog}
        className="confirm-dialog card"
      >
        <h2 id={`${id}-title`}>{title}</h2>
        <div id={`${id}-body`}>
          <p>A condition uses it:</p>
          <ul>
            {uses.map((use) => (
              <li key={use}>{use}</li>
            ))}
          </ul>
          <p>{consequence}</p>
        </div>
        <div className="confirm-actions">
          <button ref={cancel} type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
          <button ref={confirm} type="button" className="button button-danger" onClick={onConfirm}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
