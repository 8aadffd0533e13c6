import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import './logic.css';
import { HIDDEN_KEY } from '#common/kinds/link-values.ts';
import { logicProblems } from '#common/logic/check.ts';
import { pagesOf, type FormItem } from '#common/logic/items.ts';
import { logicWarnings } from '#common/logic/warnings.ts';
import type { FormEdit } from '../api/forms.ts';
import { ConditionControl, type LogicNote } from './condition-control.tsx';
import { earlierQuestions } from './condition-draft.ts';
import { conditionText } from './condition-text.ts';
import { deleting, itemsUsing, renamingOption, settingCondition, type Target } from './condition-uses.ts';
import { ConfirmRemoval } from './confirm-removal.tsx';
import {
  isPageBreak,
  namesOf,
  pageNumbers,
  pagesOfItems,
  toFormItems,
  type EditorItem,
} from './editor-items.ts';
import type { EditorField } from './fields-in-order.ts';

type Asking = {
  title: string;
  uses: string[];
  consequence: string;
  confirm: () => void;
  from: Element | null;
};

/**
 * The question list's logic: each card's condition (read out, and built in place), the logic check's findings
 * beside the page or question they are about, and a question before any deletion that would change a condition.
 * `save` sends a whole list of items (PUT …/items); it answers whether the server kept it.
 */
export function useItemLogic(
  shown: readonly EditorItem[],
  save: (items: EditorItem[]) => Promise<boolean>,
  hiddenFields: readonly string[] = [],
) {
  const [asking, setAsking] = useState<Asking | null>(null);
  const names = new Map([
    ...namesOf(shown),
    ...hiddenFields.map((n) => [HIDDEN_KEY + n, `hidden field ${n}`] as const),
  ]);
  const pages = pageNumbers(shown);
  const pageOf = pagesOfItems(shown);
  // The check runs again only when the list it reads has changed, not at every keystroke elsewhere.
  const formItems = toFormItems(shown);
  const key = JSON.stringify([formItems, hiddenFields]);
  const notes = useMemo(() => {
    const [items, hidden] = JSON.parse(key) as [FormItem[], string[]];
    return notesOf(items, hidden);
  }, [key]);
  // The link's hidden fields may be tested from the second page on (the first is drawn whole).
  const testable = (item: EditorItem) => [
    ...earlierQuestions(shown, item._id),
    ...((pageOf.get(item._id) ?? 1) > 1 ? hiddenFields.map(hiddenAsQuestion) : []),
  ];
  const lineOf = (item: EditorItem) => (item.condition ? conditionText(item.condition, names) : undefined);
  const subjectOf = (item: EditorItem) =>
    isPageBreak(item) ? `page ${pages.get(item._id) ?? 1}` : `“${item.name}”`;

  const slot = (item: EditorItem): ReactNode => (
    <ConditionControl
      subject={subjectOf(item)}
      condition={item.condition}
      line={lineOf(item)}
      questions={testable(item)}
      notes={notes.get(item._id) ?? []}
      onSave={(condition) => save(settingCondition(shown, item._id, condition))}
    />
  );

  const all = [...notes.values()].flat();
  const problemCount = all.filter((n) => n.problem).length;
  const summary =
    all.length === 0 ? null : (
      <p className={problemCount > 0 ? 'logic-summary is-problem' : 'logic-summary'}>
        Logic check: {count(problemCount, 'problem')}, {count(all.length - problemCount, 'note')}, shown on
        the pages and questions they are about.
      </p>
    );

  /** Asks first when `target` is tested by a condition, and on Delete saves the list without it and its rules. */
  function askFirst(target: Target, title: string): boolean {
    const users = itemsUsing(shown, target);
    if (users.length === 0) return false;
    setAsking({
      title,
      uses: users.map((user) => `${capital(subjectOf(user))}: ${lineOf(user) ?? ''}`),
      consequence: `Deleting it removes its rules from ${users.length === 1 ? 'this condition' : 'these conditions'}; a condition left with no rule is removed, and what it showed is then always shown.`,
      confirm: () => void save(deleting(shown, target)),
      from: document.activeElement,
    });
    return true;
  }

  /** Whether the question `id` may go without asking (no condition tests it); else asks. */
  const deleteQuestion = (id: string, name: string) =>
    !askFirst({ question: id }, `Delete question “${name}”?`);

  /**
   * Takes the option edits that would break a condition (the per-question calls refuse them): a deletion asks
   * first; a rename saves the conditions with the new text in the same step. Answers whether it took the edit.
   */
  function takeOptionEdit(edit: FormEdit): boolean {
    if (edit.type !== 'deleteOption' && edit.type !== 'renameOption') return false;
    const question = shown.find((item) => item._id === edit.fieldId);
    const option =
      question && !isPageBreak(question) ? question.options?.find((o) => o._id === edit.optionId) : undefined;
    if (!question || !option) return false;
    const target = { question: question._id, option: option.value };
    if (edit.type === 'deleteOption') return askFirst(target, `Delete option “${option.value}”?`);
    if (itemsUsing(shown, target).length === 0) return false;
    void save(renamingOption(shown, target, edit.name.trim()));
    return true;
  }

  // Back to the button that asked, where it is still there (a confirmed deletion may have taken it away), in the
  // commit that takes the dialog away: a frame later, the page would show no dialog and no focus for a moment.
  const returnTo = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (asking !== null) return;
    const from = returnTo.current;
    returnTo.current = null;
    if (from?.isConnected) from.focus();
  }, [asking]);
  const close = () => {
    returnTo.current = asking?.from instanceof HTMLElement ? asking.from : null;
    setAsking(null);
  };
  const dialog = asking ? (
    <ConfirmRemoval
      title={asking.title}
      uses={asking.uses}
      consequence={asking.consequence}
      confirmLabel="Delete"
      onCancel={close}
      onConfirm={() => {
        close();
        asking.confirm();
      }}
    />
  ) : null;

  return { slot, summary, dialog, deleteQuestion, takeOptionEdit };
}

/** What the logic check finds, by the page or question it is about: problems first, notes once none is left. */
function notesOf(items: FormItem[], hiddenFields: readonly string[]): Map<string, LogicNote[]> {
  const logicPages = pagesOf(items);
  const found = new Map<string, LogicNote[]>();
  const add = (problem: boolean) => (n: { where: string; message: string }) =>
    found.set(n.where, [...(found.get(n.where) ?? []), { message: n.message, problem }]);
  const problems = logicProblems(logicPages, hiddenFields);
  problems.forEach(add(true));
  // Notes judge the conditions' meaning: only once none is broken.
  if (problems.length === 0) logicWarnings(logicPages).forEach(add(false));
  return found;
}

/** A hidden field as the condition builder lists it among the questions: tested as text. */
const hiddenAsQuestion = (name: string): EditorField => ({
  _id: HIDDEN_KEY + name,
  kind: 'text',
  type: 'text',
  name: `Hidden field: ${name}`,
  required: false,
});

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
