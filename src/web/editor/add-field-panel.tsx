import { useId, useState } from 'react';
import {
  addOption,
  DUPLICATE_OPTION_MESSAGE,
  TEXT_TYPES,
  type AddFieldBody,
  type TextType,
} from '#common/forms.ts';
import { TextField } from '../ui/text-field.tsx';
import { TEXT_TYPE_LABELS } from './fields-in-order.ts';

const CHOICES = { 2: 'Dropdown', 3: 'Radio Button', 4: 'Checkbox' } as const;
type ChoiceId = keyof typeof CHOICES;

/**
 * The Add Field panel, titled 'Untitled Question'. Choices collect their options before saving
 * (docs/product.md, Editor).
 */
export function AddFieldPanel({ onAdd }: { onAdd: (body: AddFieldBody) => Promise<boolean> }) {
  const id = useId();
  const [name, setName] = useState('Untitled Question');
  const [textType, setTextType] = useState<TextType>('text');
  const [required, setRequired] = useState(false);
  const [choice, setChoice] = useState<ChoiceId | null>(null);
  const [options, setOptions] = useState<string[]>([]);
  const [draft, setDraft] = useState('');
  const [message, setMessage] = useState<string | null>(null);

  const add = async (body: AddFieldBody) => {
    if (name.trim() === '') return setMessage('Give the question a name first.');
    setMessage(null);
    if (await onAdd(body)) {
      setName('Untitled Question');
      setChoice(null);
      setOptions([]);
      setRequired(false);
      setTextType('text');
    }
  };
  const pushOption = () => {
    const result = addOption(options, draft);
    if (result.ok) {
      setOptions(result.options);
      setDraft('');
      setMessage(null);
    } else if (result.reason === 'duplicate') {
      setMessage(DUPLICATE_OPTION_MESSAGE);
    }
  };

  return (
    <section className="card add-field" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{name.trim() || 'Untitled Question'}</h2>
      <TextField
        id={`${id}-name`}
        label="New question"
        value={name}
        onChange={(e) => setName(e.target.value)}
        onFocus={(e) => e.target.select()}
      />
      <div className="add-field-options">
        <label className="inline-field">
          <span>Text type</span>
          <select
            className="input"
            value={textType}
            onChange={(e) => setTextType(e.target.value as TextType)}
          >
            {TEXT_TYPES.filter((t) => t !== 'textarea').map((t) => (
              <option key={t} value={t}>
                {TEXT_TYPE_LABELS[t]}
              </option>
            ))}
          </select>
        </label>
        <label className="checkbox switch">
          <input
            type="checkbox"
            role="switch"
            checked={required}
            onChange={(e) => setRequired(e.target.checked)}
          />
          <span>Required</span>
        </label>
      </div>
      {textType === 'password' ? (
        <p className="alert alert-info">
          Forms that ask for passwords are a common phishing pattern. Customers will be warned never to enter
          a password they use elsewhere.
        </p>
      ) : null}
      {choice ? (
        <div className="choice-builder">
          <h3>Options for this {CHOICES[choice].toLowerCase()}</h3>
          <ol>
            {options.map((o) => (
              <li key={o}>
                {o}{' '}
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Remove option ${o}`}
                  onClick={() => setOptions(options.filter((x) => x !== o))}
                >
                  ×
                </button>
              </li>
            ))}
          </ol>
          <div className="option-add">
            <input
              className="input"
              aria-label="New option"
              placeholder="Type an option and press Enter"
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  pushOption();
                }
              }}
            />
            <button type="button" className="button button-secondary button-small" onClick={pushOption}>
              Add option
            </button>
          </div>
          <div className="row-between">
            <button type="button" className="link-button" onClick={() => setChoice(null)}>
              Cancel
            </button>
            <button
              type="button"
              className="button button-primary"
              disabled={options.length === 0}
              onClick={() =>
                void add({ id: choice, name, required, options: options.map((value) => ({ value })) })
              }
            >
              Save {CHOICES[choice]}
            </button>
          </div>
        </div>
      ) : (
        <div className="add-field-buttons">
          <button
            type="button"
            className="button button-secondary"
            onClick={() => void add({ id: 1, name, type: textType, required })}
          >
            Add Text Field
          </button>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => void add({ id: 1, name, type: 'textarea', required })}
          >
            Paragraph
          </button>
          {([3, 4, 2] as const).map((n) => (
            <button key={n} type="button" className="button button-secondary" onClick={() => setChoice(n)}>
              {CHOICES[n]}
            </button>
          ))}
          <button
            type="button"
            className="button button-secondary"
            onClick={() => void add({ id: 5, name, required })}
          >
            File
          </button>
        </div>
      )}
      {message ? (
        <p className="field-error" role="alert">
          {message}
        </p>
      ) : null}
    </section>
  );
}
