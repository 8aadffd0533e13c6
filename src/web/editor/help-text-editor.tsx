import { useState } from 'react';
import { HELP_TEXT_MAX } from '#common/question-schemas.ts';

type Props = { help?: string; questionName: string; onSave: (help: string) => void };

/**
 * A question's help text in its card: shown with Edit, or Add help text where there is none. Editing opens a box
 * with Save and Cancel; saved empty, the help text is removed. Escape cancels.
 */
export function HelpTextEditor({ help, questionName, onSave }: Props) {
  const [draft, setDraft] = useState<string | null>(null);
  const close = () => setDraft(null);
  if (draft === null)
    return help ? (
      <div className="help-text-row">
        <p className="help-text" dir="auto">
          {help}
        </p>
        <button
          type="button"
          className="link-button"
          aria-label={`Edit help text of ${questionName}`}
          onClick={() => setDraft(help)}
        >
          Edit
        </button>
      </div>
    ) : (
      <button
        type="button"
        className="link-button help-text-add"
        aria-label={`Add help text to ${questionName}`}
        onClick={() => setDraft('')}
      >
        Add help text
      </button>
    );
  return (
    <div className="help-text-edit">
      <label className="help-text-label">
        <span>Help text</span>
        <textarea
          className="input"
          rows={2}
          // Opened by the owner's own click on Add or Edit: the box is where they are going.
          // eslint-disable-next-line jsx-a11y/no-autofocus
          autoFocus
          value={draft}
          maxLength={HELP_TEXT_MAX}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') close();
          }}
        />
      </label>
      <span className="help-text-actions">
        <button type="button" className="button button-small" onClick={close}>
          Cancel
        </button>
        <button
          type="button"
          className="button button-small button-primary"
          onClick={() => {
            onSave(draft.trim());
            close();
          }}
        >
          Save help text
        </button>
      </span>
    </div>
  );
}
