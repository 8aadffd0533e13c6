import { useId, useState } from 'react';
import type { Form } from '#common/forms.ts';
import {
  HIDDEN_FIELDS_MAX,
  HiddenFieldNameSchema,
  isPrefillable,
  prefilledLink,
} from '#common/kinds/link-values.ts';
import { orderedQuestions } from '#common/question-order.ts';
import { AddRow } from './add-row.tsx';
import { publicLink } from './share-bar.tsx';

type Props = { form: Form; onSave: (hiddenFields: string[]) => void };

/**
 * What the form's link can carry (docs/decisions/043-question-kinds.md): the hidden fields it fills (`?ref=…`, never
 * shown to the customer, kept with each response), and a link that prefills a question the customer sees.
 */
export function LinkFields({ form, onSave }: Props) {
  const id = useId();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const names = form.hiddenFields;
  const add = () => {
    const parsed = HiddenFieldNameSchema.safeParse(name);
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? 'Not a name a link can carry');
    if (names.includes(parsed.data)) return setProblem('Each hidden field has its own name');
    if (names.length >= HIDDEN_FIELDS_MAX)
      return setProblem(`A form has at most ${HIDDEN_FIELDS_MAX} hidden fields`);
    onSave([...names, parsed.data]);
    setName('');
    setProblem(null);
  };
  return (
    <section className="link-fields" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Hidden fields</h2>
      <p className="muted link-fields-note">
        Filled from the link (<code>?name=value</code>), never shown to the customer, kept with each response.
      </p>
      {names.length > 0 ? (
        <ul className="link-fields-list">
          {names.map((n) => (
            <li key={n}>
              <code>{n}</code>
              <button
                type="button"
                className="link-button"
                aria-label={`Remove hidden field ${n}`}
                onClick={() => onSave(names.filter((x) => x !== n))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <AddRow
        aria-label="New hidden field"
        aria-describedby={problem ? `${id}-problem` : undefined}
        aria-invalid={problem ? true : undefined}
        placeholder="ref"
        value={name}
        onChange={setName}
        onAdd={add}
      />
      {problem ? (
        <p className="field-error" id={`${id}-problem`} role="alert">
          {problem}
        </p>
      ) : null}
      <PrefilledLink form={form} />
    </section>
  );
}

/** A link that opens the form with one question already answered, for the customer to keep or change. */
function PrefilledLink({ form }: { form: Form }) {
  const id = useId();
  const questions = orderedQuestions(form).filter(isPrefillable);
  const [question, setQuestion] = useState('');
  const [value, setValue] = useState('');
  if (questions.length === 0) return null;
  const base = publicLink(form._id, form.ownerIdAsStructureId);
  const link = question && value.trim() ? prefilledLink(base, { [question]: value }) : base;
  return (
    <div className="link-fields-prefill">
      <h3 id={`${id}-title`}>Prefilled link</h3>
      <label className="inline-field">
        <span>Question</span>
        <select className="input" value={question} onChange={(e) => setQuestion(e.target.value)}>
          <option value="">Choose a question</option>
          {questions.map((q) => (
            <option key={q.field._id} value={q.field._id}>
              {q.field.name}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-field">
        <span>Answer</span>
        <input className="input" value={value} onChange={(e) => setValue(e.target.value)} />
      </label>
      <label className="inline-field">
        <span>Link</span>
        <input className="input" readOnly value={link} onFocus={(e) => e.target.select()} />
      </label>
    </div>
  );
}
