import { useEffect, useId, useRef, useState } from 'react';
import { CONDITION_VALUE_MAX, VALUE_OPERATORS, type Condition } from '#common/logic/conditions.ts';
import {
  blankRule,
  conditionOf,
  draftErrors,
  testsFor,
  valueChoicesOf,
  type ConditionDraft,
  type DraftRule,
} from './condition-draft.ts';
import { OPERATOR_WORDS } from './condition-text.ts';
import type { EditorField } from './fields-in-order.ts';

type Props = {
  /** What the condition shows, as the legend says it: "page 2", "“Nights”". */
  subject: string;
  start: ConditionDraft;
  /** The questions it may test: those on earlier pages. */
  questions: readonly EditorField[];
  /** Whether there is a condition to remove. */
  removable: boolean;
  /** What a screen reader hears on entering the builder besides its legend: that saving replaces a condition. */
  describedBy?: string;
  onSave: (condition: Condition | undefined) => void;
  onCancel: () => void;
};

/**
 * The condition of a page or question, built from rules: an earlier question, a test that fits its kind and, for
 * the tests that compare, a value (one of a choice's options, or text). Native selects and buttons throughout, so
 * it works by keyboard and with any screen reader; Escape cancels.
 */
export function ConditionBuilder(props: Props) {
  const { subject, start, questions, removable, describedBy, onSave, onCancel } = props;
  const [draft, setDraft] = useState(start);
  const [checked, setChecked] = useState(false);
  const id = useId();
  const errors = checked ? draftErrors(draft, questions) : {};
  const byId = new Map(questions.map((q) => [q._id, q]));
  const setRule = (index: number, change: Partial<DraftRule>) =>
    setDraft((d) => ({ ...d, rules: d.rules.map((r, i) => (i === index ? { ...r, ...change } : r)) }));
  const save = () => {
    setChecked(true);
    const found = draftErrors(draft, questions);
    if (Object.keys(found).length === 0) return onSave(conditionOf(draft));
    toFix.current = true;
  };
  // Once drawn, focus goes to the first control that lacks something, or to the question of a rule just added or
  // of the rule that takes a removed one's place (the last, when the last was removed), so it is never lost.
  const toFix = useRef(false);
  const toRule = useRef<number | null>(null);
  useEffect(() => {
    if (toFix.current) box.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    if (toRule.current !== null) {
      const rules = box.current?.querySelectorAll<HTMLElement>('.condition-rule') ?? [];
      rules[Math.min(toRule.current, rules.length - 1)]?.querySelector('select')?.focus();
    }
    toFix.current = false;
    toRule.current = null;
  });
  // Escape anywhere in the builder cancels it (a listener, as a fieldset takes no key handler of its own).
  const box = useRef<HTMLFieldSetElement>(null);
  const cancel = useRef(onCancel);
  useEffect(() => {
    cancel.current = onCancel;
  });
  useEffect(() => {
    const node = box.current;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      cancel.current();
    };
    node?.addEventListener('keydown', onKey);
    return () => node?.removeEventListener('keydown', onKey);
  }, []);

  return (
    <fieldset ref={box} className="condition-builder" aria-describedby={describedBy}>
      <legend>Show {subject} only if</legend>
      {draft.rules.length > 1 ? (
        <label className="inline-field">
          <span>Match</span>
          <select
            className="input"
            value={draft.join}
            onChange={(e) => setDraft((d) => ({ ...d, join: e.target.value as 'all' | 'any' }))}
          >
            <option value="all">all of these rules</option>
            <option value="any">any of these rules</option>
          </select>
        </label>
      ) : null}
      <ol className="condition-rules">
        {draft.rules.map((rule, i) => {
          const n = i + 1;
          const field = byId.get(rule.question);
          const tests = testsFor(field);
          const error = errors[i];
          const errorId = `${id}-error-${i}`;
          const invalid = (missing: boolean) =>
            missing && error ? { 'aria-invalid': true, 'aria-describedby': errorId } : {};
          // A test kept from a saved condition that does not fit the question shows as none chosen.
          const test = rule.op !== '' && tests.includes(rule.op) ? rule.op : '';
          const takesValue = test !== '' && VALUE_OPERATORS.includes(test);
          const choices = field ? valueChoicesOf(field) : null;
          return (
            <li key={i} id={`${id}-rule-${i}`} className="condition-rule">
              <select
                className="input"
                aria-label={`Question of rule ${n}`}
                value={rule.question}
                {...invalid(!field)}
                onChange={(e) => setRule(i, { question: e.target.value, op: '', value: '' })}
              >
                <option value="">Choose a question…</option>
                {questions.map((q) => (
                  <option key={q._id} value={q._id}>
                    {q.name}
                  </option>
                ))}
              </select>
              <select
                className="input"
                aria-label={`Test of rule ${n}`}
                value={test}
                disabled={!field}
                {...invalid(!!field && !test)}
                onChange={(e) => setRule(i, { op: e.target.value as DraftRule['op'] })}
              >
                <option value="">Choose a test…</option>
                {tests.map((op) => (
                  <option key={op} value={op}>
                    {OPERATOR_WORDS[op]}
                  </option>
                ))}
              </select>
              {takesValue && choices ? (
                <select
                  className="input"
                  aria-label={`Value of rule ${n}`}
                  value={rule.value}
                  {...invalid(!choices.some((o) => o.value === rule.value))}
                  onChange={(e) => setRule(i, { value: e.target.value })}
                >
                  <option value="">Choose an option…</option>
                  {choices.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
              ) : takesValue ? (
                <input
                  className="input"
                  aria-label={`Value of rule ${n}`}
                  // A date question's rule compares days: the browser's date picker gives one.
                  type={field?.kind === 'text' && field.type === 'date' ? 'date' : undefined}
                  value={rule.value}
                  maxLength={CONDITION_VALUE_MAX}
                  {...invalid(rule.value.trim() === '')}
                  onChange={(e) => setRule(i, { value: e.target.value })}
                />
              ) : null}
              {draft.rules.length > 1 ? (
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Remove rule ${n}`}
                  onClick={() => {
                    setDraft((d) => ({ ...d, rules: d.rules.filter((_, j) => j !== i) }));
                    toRule.current = i;
                  }}
                >
                  ×
                </button>
              ) : null}
              {error ? (
                <p id={errorId} className="field-error condition-error">
                  {error}
                </p>
              ) : null}
            </li>
          );
        })}
      </ol>
      <div className="condition-actions">
        <button
          type="button"
          className="button button-small"
          onClick={() => {
            setDraft((d) => ({ ...d, rules: [...d.rules, blankRule] }));
            toRule.current = draft.rules.length;
          }}
        >
          Add a rule
        </button>
        <span className="condition-actions-end">
          {removable ? (
            <button type="button" className="link-button is-danger" onClick={() => onSave(undefined)}>
              Remove condition
            </button>
          ) : null}
          <button type="button" className="button button-small" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="button button-small button-primary" onClick={save}>
            Save condition
          </button>
        </span>
      </div>
    </fieldset>
  );
}
