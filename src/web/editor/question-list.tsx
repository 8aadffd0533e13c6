import { useEffect, useRef, useState } from 'react';
import type { FormEdit } from '../api/forms.ts';
import { earlierQuestions, isRecallable } from './condition-draft.ts';
import { isPageBreak, pageNumbers, pagesOfItems, toFormItems, type EditorItem } from './editor-items.ts';
import { FieldCard } from './field-card.tsx';
import type { EditorField } from './fields-in-order.ts';
import { PageBreakCard } from './page-break-card.tsx';
import './question-list.css';
import { useItemLogic } from './use-item-logic.tsx';

/** How long a deleted question can be brought back before the deletion is sent. */
export const UNDO_MS = 8000;

type Props = {
  /** The form's questions and page breaks in order. */
  fields: EditorItem[];
  /** The form's version, sent with a changed list of items. */
  version?: number;
  onEdit: (edit: FormEdit) => Promise<boolean>;
  /** The form's hidden fields, which a question's title may recall. */
  hiddenFields?: readonly string[];
};
/** Which control gets focus once the list has drawn: a card's name, or one of its move buttons. */
type FocusRequest =
  { id: string; control: 'name' | 'up' | 'down'; at?: number } | { id: null; control: 'undo' };

/**
 * The saved questions. A deleted question leaves the list at once but is only deleted on the server after a few
 * seconds (or when the owner leaves the page), so Undo can put it back at its place; the time stops while the
 * pointer or focus is on the Undo bar. Adds, moves, deletes and
 * undos are announced in a polite live region, and focus moves to the item the owner acted on, or the next one.
 *
 * Page breaks are cards of the same list. Adding, renaming or deleting one, and any move on a form that has one,
 * sends the whole list (`items`); a form without page breaks moves its questions by their order alone, as before.
 */
export function QuestionList({ fields, version = 0, onEdit, hiddenFields = [] }: Props) {
  const [pending, setPending] = useState<EditorField | null>(null);
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  const [announcement, setAnnouncement] = useState('');
  const focusRequest = useRef<FocusRequest | null>(null);
  const setFocus = (request: FocusRequest) => (focusRequest.current = request);
  const list = useRef<HTMLDivElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const shown = fields.filter((f) => f._id !== pending?._id && !gone.has(f._id));
  const questionCount = shown.filter((f) => !isPageBreak(f)).length;
  const pages = pageNumbers(shown);
  const pageOfItem = pagesOfItems(shown);

  const commit = (field: EditorField) => {
    clearTimeout(timer.current);
    setPending((p) => (p?._id === field._id ? null : p));
    setGone((g) => new Set(g).add(field._id));
    void onEdit({ type: 'deleteField', kind: field.kind, fieldId: field._id }).then((ok) => {
      if (ok) return;
      // Refused: the question is still there, and the save status says why.
      setGone((g) => new Set([...g].filter((id) => id !== field._id)));
    });
  };
  // The latest pending deletion and commit, for the timer and for leaving the page.
  const latest = useRef({ pending, commit });
  useEffect(() => {
    latest.current = { pending, commit };
  });
  useEffect(() => {
    const flush = () => {
      const { pending: p, commit: c } = latest.current;
      if (p) c(p);
    };
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, []);

  // A question that appears in the server's answer was just added.
  const seen = useRef<ReadonlySet<string> | null>(null);
  useEffect(() => {
    const before = seen.current;
    const added = before ? fields.filter((f) => !before.has(f._id)) : [];
    if (added.length === 1 && added[0]) setAnnouncement(`${said(added[0])} added`);
    seen.current = new Set(fields.map((f) => f._id));
  }, [fields]);

  useEffect(() => {
    const focus = focusRequest.current;
    if (!focus) return;
    // A moved question is focused once it is drawn at its new place (the move shows before the server answers).
    if (focus.id !== null && focus.at !== undefined && shown[focus.at]?._id !== focus.id) return;
    const selector =
      focus.id === null
        ? '[data-control="undo"]'
        : `[data-field-id="${CSS.escape(focus.id)}"] [data-control="${focus.control}"]`;
    list.current?.querySelector<HTMLElement>(selector)?.focus();
    focusRequest.current = null;
  });

  const remove = (field: EditorField, position: number) => {
    if (pending) commit(pending);
    setPending(field);
    setAnnouncement(`Question '${field.name}' deleted. Undo is available for a few seconds.`);
    startTimer(field);
    const next = shown[position + 1] ?? shown[position - 1];
    setFocus(next ? { id: next._id, control: 'name' } : { id: null, control: 'undo' });
  };
  const startTimer = (field: EditorField) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => latest.current.commit(field), UNDO_MS);
  };
  // The bar waits while the pointer or focus is on it (the owner may be reading it or about to press Undo), and
  // gives its full time again when they leave it.
  const hold = () => clearTimeout(timer.current);
  const release = () => {
    if (pending) startTimer(pending);
  };
  const undo = () => {
    if (!pending) return;
    clearTimeout(timer.current);
    setPending(null);
    setAnnouncement(`Question '${pending.name}' restored`);
    setFocus({ id: pending._id, control: 'name' });
  };
  // A pending deletion goes first: the list sent leaves it out, and the server would delete it without Undo.
  const saveItems = (items: EditorItem[]) => {
    if (pending) commit(pending);
    return onEdit({ type: 'items', items: toFormItems(items), version });
  };
  const logic = useItemLogic(shown, saveItems, hiddenFields);
  const addPageBreak = () => {
    // The new break starts the page after the last; a break at the top names the first page rather than add one.
    const first = shown[0];
    const pageCount = first ? pages.size + (isPageBreak(first) ? 0 : 1) : 0;
    const title = `Page ${pageCount + 1}`;
    // Any id not on the form is a new item; the server answers with the one it keeps.
    void saveItems([...shown, { kind: 'page', _id: `new-page-${Date.now().toString(36)}`, title }]);
  };
  const renamePageBreak = (id: string, title: string) =>
    void saveItems(shown.map((item) => (item._id === id && isPageBreak(item) ? { ...item, title } : item)));
  const deletePageBreak = (item: EditorItem, position: number) => {
    void saveItems(shown.filter((other) => other._id !== item._id));
    setAnnouncement(`${said(item)} deleted`);
    const next = shown[position + 1] ?? shown[position - 1];
    if (next) setFocus({ id: next._id, control: 'name' });
  };
  const move = (from: number, to: number) => {
    const moved = shown[from];
    if (!moved || to < 0 || to >= shown.length || to === from) return;
    const order = [...shown];
    order.splice(from, 1);
    order.splice(to, 0, moved);
    if (fields.some(isPageBreak)) void saveItems(order);
    else {
      if (pending) commit(pending);
      void onEdit({ type: 'reorder', order: order.map((f) => f._id) });
    }
    const where =
      to === from - 1 ? 'up' : to === from + 1 ? 'down' : `to position ${to + 1} of ${shown.length}`;
    setAnnouncement(`${said(moved)} moved ${where}`);
    // The button pressed stays focused unless the move disabled it (top or bottom); then its twin takes it.
    const control = to < from ? (to === 0 ? 'down' : 'up') : to === shown.length - 1 ? 'up' : 'down';
    setFocus({ id: moved._id, control, at: to });
  };

  return (
    <section aria-labelledby="questions-title" ref={list}>
      <h2 id="questions-title" className="editor-section-title">
        Questions <span className="muted">({questionCount})</span>
      </h2>
      {logic.summary}
      {shown.length === 0 ? <p className="card empty">No questions yet. Add the first one below.</p> : null}
      <ol className="field-list">
        {shown.map((item, i) =>
          isPageBreak(item) ? (
            <PageBreakCard
              key={item._id}
              item={item}
              page={pages.get(item._id) ?? 1}
              position={i}
              count={shown.length}
              logic={logic.slot(item)}
              onRename={(title) => renamePageBreak(item._id, title)}
              onMove={move}
              onDelete={() => deletePageBreak(item, i)}
            />
          ) : (
            <FieldCard
              key={item._id}
              field={item}
              position={i}
              count={shown.length}
              logic={logic.slot(item)}
              recallable={{
                earlier: earlierQuestions(shown, item._id, pageOfItem).filter(isRecallable),
                hiddenFields,
              }}
              onEdit={(e) => logic.takeOptionEdit(e) || void onEdit(e)}
              onMove={move}
              onDelete={() => logic.deleteQuestion(item._id, item.name) && remove(item, i)}
            />
          ),
        )}
      </ol>
      <button type="button" className="button add-page-break" onClick={addPageBreak}>
        Add page break
      </button>
      {pending ? (
        <div
          className="undo-toast"
          onMouseEnter={hold}
          onMouseLeave={release}
          onFocus={hold}
          onBlur={release}
        >
          <span>Question &lsquo;{pending.name}&rsquo; deleted</span>
          <button type="button" className="button button-small" data-control="undo" onClick={undo}>
            Undo
          </button>
        </div>
      ) : null}
      {logic.dialog}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </section>
  );
}

/** How an item is named in what the live region says. */
const said = (item: EditorItem) =>
  isPageBreak(item) ? `Page break '${item.title}'` : `Question '${item.name}'`;
