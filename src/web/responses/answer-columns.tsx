import { useState } from 'react';

type Question = { _id: string; name: string };

/** How many of a form's first questions are columns until the owner chooses. */
const DEFAULT_COLUMNS = 2;
const keyOf = (fid: string) => `easyform.responseColumns.${fid}`;

function readChosen(fid: string): string[] | null {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(keyOf(fid)) ?? 'null');
    return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : null;
  } catch {
    return null;
  }
}

/**
 * The questions shown as columns of one form's response table: the first two until the owner chooses, then those
 * chosen, remembered per form in this browser. Questions since deleted drop out; the form's order is kept.
 */
export function useAnswerColumns(fid: string, questions: readonly Question[]) {
  const [chosen, setChosen] = useState<string[] | null>(() => readChosen(fid));
  const ids = chosen ?? questions.slice(0, DEFAULT_COLUMNS).map((q) => q._id);
  const shown = questions.filter((q) => ids.includes(q._id));
  const toggle = (id: string) => {
    const next = ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id];
    localStorage.setItem(keyOf(fid), JSON.stringify(next));
    setChosen(next);
  };
  return { shown, isShown: (id: string) => ids.includes(id), toggle };
}

/** The owner's choice of answer columns: a disclosure with one checkbox per question. */
export function ColumnChooser({
  questions,
  isShown,
  toggle,
}: {
  questions: readonly Question[];
  isShown: (id: string) => boolean;
  toggle: (id: string) => void;
}) {
  if (questions.length === 0) return null;
  return (
    <details className="column-chooser">
      <summary className="button button-secondary button-small">Columns</summary>
      <fieldset className="column-chooser-list">
        <legend className="visually-hidden">Answers shown as columns</legend>
        {questions.map((q) => (
          <label key={q._id} className="column-chooser-item">
            <input type="checkbox" checked={isShown(q._id)} onChange={() => toggle(q._id)} />
            {q.name}
          </label>
        ))}
      </fieldset>
    </details>
  );
}
