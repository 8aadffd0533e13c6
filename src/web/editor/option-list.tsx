import { useState } from 'react';
import { addOption, DUPLICATE_OPTION_MESSAGE, type Option } from '#common/forms.ts';
import { AddRow } from './add-row.tsx';
import { EditableText } from './editable-text.tsx';

type Props = {
  questionName: string;
  options: Option[];
  onRename: (optionId: string, value: string) => void;
  onRemove: (optionId: string) => void;
  onAdd: (value: string) => void;
};

/** The options of a saved question: rename or remove each one, add another. */
export function OptionList({ questionName, options, onRename, onRemove, onAdd }: Props) {
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = () => {
    const result = addOption(
      options.map((o) => o.value),
      draft,
    );
    if (!result.ok) {
      setError(
        result.reason === 'duplicate'
          ? DUPLICATE_OPTION_MESSAGE
          : result.reason === 'too-many'
            ? 'That is the most options a question can have.'
            : null,
      );
      return;
    }
    setError(null);
    setDraft('');
    onAdd(draft.trim());
  };
  return (
    <div className="option-list">
      <ul>
        {options.map((option) => (
          <li key={option._id}>
            <EditableText
              value={option.value}
              label={`Option of ${questionName}`}
              onSave={(v) => onRename(option._id, v)}
            />
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove option ${option.value}`}
              disabled={options.length === 1}
              title={options.length === 1 ? 'A question needs at least one option' : undefined}
              onClick={() => onRemove(option._id)}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <AddRow
        aria-label={`New option for ${questionName}`}
        placeholder="Add an option"
        value={draft}
        onChange={setDraft}
        onAdd={add}
      />
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
