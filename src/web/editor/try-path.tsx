import { useState } from 'react';
import { applicable, type LogicAnswer } from '#common/logic/applies.ts';
import { leavesOf } from '#common/logic/conditions.ts';
import { pagesOf } from '#common/logic/items.ts';
import { isPageBreak, toFormItems, type EditorItem } from './editor-items.ts';
import type { EditorField } from './fields-in-order.ts';

/**
 * "Try a path": the owner gives answers to the questions the conditions test and sees which pages and questions a
 * customer answering so would be shown, by the evaluator the customer's page and the server use.
 */
export function TryPath({ items }: { items: readonly EditorItem[] }) {
  const [answers, setAnswers] = useState<Record<string, LogicAnswer>>({});
  const testedIds = new Set(
    items.flatMap((item) => (item.condition ? leavesOf(item.condition) : [])).map((l) => l.question),
  );
  const tested = items.filter((item): item is EditorField => !isPageBreak(item) && testedIds.has(item._id));
  if (!items.some(isPageBreak) && tested.length === 0) return null;
  const pages = pagesOf(toFormItems(items));
  const path = applicable(pages, answers);
  const set = (id: string, answer: LogicAnswer) => setAnswers((a) => ({ ...a, [id]: answer }));
  const names = new Map(items.map((item) => [item._id, isPageBreak(item) ? item.title : item.name]));

  return (
    <details className="card try-path">
      <summary>Try a path</summary>
      <p className="muted">Answer as a customer might, and see which pages they would reach.</p>
      {tested.length > 0 ? (
        <div className="try-path-answers">
          {tested.map((q) => (
            <TryAnswer key={q._id} question={q} answer={answers[q._id]} onChange={(a) => set(q._id, a)} />
          ))}
        </div>
      ) : null}
      <ol className="try-path-pages" aria-live="polite">
        {pages.map((page, i) => {
          const shown = path.pages.includes(page.id);
          const skipped = page.questions
            .filter((q) => !path.questions.has(q.id))
            .map((q) => `“${names.get(q.id) ?? q.id}”`);
          return (
            <li key={page.id} className={shown ? 'is-shown' : 'is-skipped'}>
              <strong>
                Page {i + 1}
                {page.title ? ` · ${page.title}` : ''}
              </strong>{' '}
              — {shown ? 'shown' : 'skipped'}
              {shown && skipped.length > 0 ? (
                <span className="muted"> (not asked: {skipped.join(', ')})</span>
              ) : null}
            </li>
          );
        })}
      </ol>
    </details>
  );
}

function TryAnswer({
  question,
  answer,
  onChange,
}: {
  question: EditorField;
  answer: LogicAnswer;
  onChange: (answer: LogicAnswer) => void;
}) {
  const label = question.name;
  if (question.kind === 'check') {
    const ticked = Array.isArray(answer) ? answer : [];
    return (
      <fieldset className="try-path-answer">
        <legend>{label}</legend>
        {(question.options ?? []).map((o) => (
          <label key={o._id} className="checkbox">
            <input
              type="checkbox"
              checked={ticked.includes(o.value)}
              onChange={(e) =>
                onChange(e.target.checked ? [...ticked, o.value] : ticked.filter((v) => v !== o.value))
              }
            />
            <span>{o.value}</span>
          </label>
        ))}
      </fieldset>
    );
  }
  if (question.kind === 'file')
    return (
      <label className="checkbox try-path-answer">
        <input
          type="checkbox"
          checked={answer !== undefined}
          onChange={(e) => onChange(e.target.checked ? [{ deleteId: 'a file' }] : undefined)}
        />
        <span>{label}: a file is chosen</span>
      </label>
    );
  const text = typeof answer === 'string' ? answer : '';
  return (
    <label className="try-path-answer">
      <span>{label}</span>
      {question.options ? (
        <select className="input" value={text} onChange={(e) => onChange(e.target.value || undefined)}>
          <option value="">No answer</option>
          {question.options.map((o) => (
            <option key={o._id} value={o.value}>
              {o.value}
            </option>
          ))}
        </select>
      ) : (
        <input className="input" value={text} onChange={(e) => onChange(e.target.value)} />
      )}
    </label>
  );
}
