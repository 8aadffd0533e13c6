import { useEffect, useId, useRef, useState } from 'react';
import type { Condition } from '#common/logic/conditions.ts';
import { ConditionBuilder } from './condition-builder.tsx';
import { draftOf } from './condition-draft.ts';
import type { EditorField } from './fields-in-order.ts';

/** A finding of the logic check about one page or question: a problem the server refuses, or a note. */
export type LogicNote = { message: string; problem: boolean };

type Props = {
  /** What the condition shows, as the builder's legend says it: "page 2", "“Nights”". */
  subject: string;
  condition?: Condition;
  /** The condition read out: "Shown only if …". */
  line?: string;
  /** The questions a condition here may test; none on the first page, where no condition can be added. */
  questions: readonly EditorField[];
  notes: readonly LogicNote[];
  onSave: (condition: Condition | undefined) => Promise<boolean>;
};

/**
 * Under a page break's or a question's title: its condition read out, what the logic check found there, and the
 * button that opens the builder. Focus goes into the builder when it opens and back to the button when it closes.
 */
export function ConditionControl({ subject, condition, line, questions, notes, onSave }: Props) {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const replacing = useId();
  // Set by close: the button takes the focus once it is drawn again, in the commit that draws it (a frame later can
  // come before that commit on a busy machine, when a save's answer closes the builder).
  const refocus = useRef(false);
  useEffect(() => {
    if (open) box.current?.querySelector<HTMLElement>('select, input')?.focus();
    else if (refocus.current) toggle.current?.focus();
    refocus.current = false;
  }, [open]);
  const close = () => {
    refocus.current = true;
    setOpen(false);
  };
  const start = draftOf(condition);
  const canEdit = questions.length > 0;
  const verb = condition ? 'Edit condition' : 'Add condition';
  if (!line && notes.length === 0 && !canEdit) return null;
  return (
    <div className="condition-control">
      {line ? <p className="condition-line">{line}</p> : null}
      {notes.length > 0 ? (
        <ul className="logic-notes">
          {notes.map((note) => (
            <li key={note.message} className={note.problem ? 'logic-note is-problem' : 'logic-note'}>
              <strong>{note.problem ? 'Problem:' : 'Note:'}</strong> {note.message}
            </li>
          ))}
        </ul>
      ) : null}
      {open ? (
        <div ref={box} className="condition-builder-box">
          {start ? null : (
            <p id={replacing} className="muted">
              This condition was made outside the editor: saving here replaces it.
            </p>
          )}
          <ConditionBuilder
            subject={subject}
            start={start ?? { join: 'all', rules: [{ question: '', op: '', value: '' }] }}
            questions={questions}
            removable={condition !== undefined}
            describedBy={start ? undefined : replacing}
            onCancel={close}
            onSave={(next) => void onSave(next).then((ok) => ok && close())}
          />
        </div>
      ) : canEdit ? (
        <button
          ref={toggle}
          type="button"
          className="link-button"
          aria-label={`${verb} of ${subject}`}
          onClick={() => setOpen(true)}
        >
          {verb}
        </button>
      ) : null}
    </div>
  );
}
