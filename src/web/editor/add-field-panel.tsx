import { useEffect, useId, useRef, useState } from 'react';
import {
  addOption,
  DUPLICATE_OPTION_MESSAGE,
  TEXT_TYPES,
  type AddFieldBody,
  type TextType,
} from '#common/forms.ts';
import { TextField } from '../ui/text-field.tsx';
import { useAddFieldDraft, type ChoiceId } from './add-field-draft.ts';
import { AddMoreKinds } from './add-more-kinds.tsx';
import { AddRow } from './add-row.tsx';
import { TEXT_TYPE_LABELS } from './fields-in-order.ts';
import { UNTITLED } from './untitled.ts';

const CHOICES: Record<ChoiceId, string> = { 2: 'Dropdown', 3: 'Radio Button', 4: 'Checkbox' };

type Props = { fid: string; onAdd: (body: AddFieldBody) => Promise<boolean> };

/**
 * The Add Field panel, titled 'Untitled Question' until the owner types a name. Choices collect their options
 * before saving (docs/product.md, Editor); the half-built question is kept across a reload until saved or
 * cancelled. Focus stays in the panel: on the first option as the choice builder opens, back on the choice
 * button when it is cancelled, on the name box once a question is added.
 */
export function AddFieldPanel({ fid, onAdd }: Props) {
  const id = useId();
  const { draft: saved, change, clear } = useAddFieldDraft(fid);
  const { name, textType, required, choice, options } = saved;
  const [draft, setDraft] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const panel = useRef<HTMLElement>(null);
  // The control to focus once the panel has drawn its new state.
  const focusTarget = useRef<string | null>(null);
  const setFocusTarget = (selector: string) => (focusTarget.current = selector);
  useEffect(() => {
    if (!focusTarget.current) return;
    panel.current?.querySelector<HTMLElement>(focusTarget.current)?.focus();
    focusTarget.current = null;
  });

  const title = name.trim() || UNTITLED;
  const add = async (body: AddFieldBody) => {
    setMessage(null);
    if (await onAdd(body)) {
      clear();
      setDraft('');
      setFocusTarget(`#${CSS.escape(`${id}-name`)}`);
    }
  };
  const openChoice = (n: ChoiceId) => {
    change({ choice: n });
    setFocusTarget('[data-focus="new-option"]');
  };
  const cancelChoice = () => {
    const opener = choice;
    change({ choice: null, options: [] });
    setDraft('');
    setMessage(null);
    setFocusTarget(`[data-choice="${opener}"]`);
  };
  const setOptions = (next: string[]) => change({ options: next });
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
    <section ref={panel} className="card add-field" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <TextField
        id={`${id}-name`}
        label="New question"
        placeholder={UNTITLED}
        value={name}
        onChange={(e) => change({ name: e.target.value })}
      />
      <div className="add-field-options">
        {choice ? null : (
          <label className="inline-field">
            <span>Text type</span>
            <select
              className="input"
              value={textType}
              onChange={(e) => change({ textType: e.target.value as TextType })}
            >
              {TEXT_TYPES.filter((t) => t !== 'textarea').map((t) => (
                <option key={t} value={t}>
                  {TEXT_TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="checkbox switch">
          <input
            type="checkbox"
            role="switch"
            checked={required}
            onChange={(e) => change({ required: e.target.checked })}
          />
          <span>Required</span>
        </label>
      </div>
      {textType === 'password' && !choice ? (
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
          <AddRow
            aria-label="New option"
            data-focus="new-option"
            placeholder="Type an option and press Enter"
            value={draft}
            onChange={setDraft}
            onAdd={pushOption}
            button="Add option"
          />
          <div className="row-between">
            <button type="button" className="link-button" onClick={cancelChoice}>
              Cancel
            </button>
            <button
              type="button"
              className="button button-primary"
              disabled={options.length === 0}
              onClick={() =>
                void add({ id: choice, name: title, required, options: options.map((value) => ({ value })) })
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
            onClick={() => void add({ id: 1, name: title, type: textType, required })}
          >
            Add Text Field
          </button>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => void add({ id: 1, name: title, type: 'textarea', required })}
          >
            Paragraph
          </button>
          {([3, 4, 2] as const).map((n) => (
            <button
              key={n}
              type="button"
              className="button button-secondary"
              data-choice={n}
              onClick={() => openChoice(n)}
            >
              {CHOICES[n]}
            </button>
          ))}
          <button
            type="button"
            className="button button-secondary"
            onClick={() => void add({ id: 5, name: title, required })}
          >
            File
          </button>
        </div>
      )}
      {choice ? null : <AddMoreKinds title={title} required={required} onAdd={(body) => void add(body)} />}
      {message ? (
        <p className="field-error" role="alert">
          {message}
        </p>
      ) : null}
    </section>
  );
}
