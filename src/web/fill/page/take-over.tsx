import '../../zod-without-eval.ts';
import { startTransition, StrictMode, useLayoutEffect, useRef, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { HONEYPOT_FIELD } from '#common/answer-limits.ts';
import { customerPaths } from '../../customer-paths.ts';
import { saveDraft } from '../storage/fill-storage.ts';
import { CustomerApp } from './customer-app.tsx';
import { CustomerError } from './customer-error.tsx';
import { loadScreen, type Screen } from './customer-screens.ts';
import { mergeServerValues } from './merge-server-values.ts';
import { readServerForm, type ServerFormInput } from './server-form-answers.ts';

/**
 * The React page of customer.html, started by its entry (customer-main.ts) when it is needed: no router, no query
 * cache, no zod up front (docs/decisions/012-customer-entry.md).
 *
 * The first screen renders once loaded, so the page the server drew stays until the form replaces it. It renders in
 * a transition, into a root of its own outside the page, so the work comes in slices and never holds up the
 * customer's taps; when it is ready to show, what the customer typed in the server's form meanwhile is checked once
 * more: new answers are saved and the render starts over with them, a chosen file (which cannot be carried over)
 * keeps the server's form (it posts answers and files itself), and otherwise the new root takes the old one's place
 * with the focus where it was, and the address becomes the screen's (a link continues at /preview).
 */
export async function startCustomerPage(root: HTMLElement): Promise<void> {
  const first = await loadScreen(location.pathname);
  if (!first) return location.replace(customerPaths.home.href());
  takeOver(root, first, { values: {}, focused: null, fileChosen: false });
}

function takeOver(root: HTMLElement, first: Screen, carried: ServerFormInput) {
  const typed = readServerForm(root, HONEYPOT_FIELD);
  if (typed.fileChosen) return;
  if (first.data.state === 'ready' && Object.keys(typed.values).length > 0) {
    const { draft } = first.data;
    first.data.draft = { ...draft, values: mergeServerValues(first.data.form, draft.values, typed.values) };
    saveDraft(first.data.draft);
  }
  const fresh = document.createElement('div');
  const app = createRoot(fresh);
  const show = () => {
    const now = readServerForm(root, HONEYPOT_FIELD);
    if (now.fileChosen || JSON.stringify(now.values) !== JSON.stringify(typed.values)) {
      setTimeout(() => {
        app.unmount();
        takeOver(root, first, now);
      });
      return;
    }
    const caret = caretOf(document.activeElement);
    root.removeAttribute('id');
    fresh.id = 'root';
    root.replaceWith(fresh);
    if (first.address) history.replaceState(null, '', first.address);
    const focused = now.focused ?? carried.focused;
    const control = focused ? document.getElementById(focused) : null;
    control?.focus({ preventScroll: true });
    // The caret where the customer left it, so typing goes on mid-word rather than jumping to the end.
    if (caret && hasCaret(control)) control.setSelectionRange(caret.start, caret.end, caret.direction);
  };
  startTransition(() =>
    app.render(
      <StrictMode>
        <Shown onShow={show}>
          <CustomerError>
            <CustomerApp first={first} />
          </CustomerError>
        </Shown>
      </StrictMode>,
    ),
  );
}

/** Calls `onShow` once, when its children have been committed (before the browser paints them). */
function Shown({ onShow, children }: { onShow: () => void; children: ReactNode }) {
  const pending = useRef<(() => void) | null>(onShow);
  useLayoutEffect(() => {
    pending.current?.();
    pending.current = null;
  }, []);
  return children;
}

type TextControl = HTMLInputElement | HTMLTextAreaElement;

/** Whether `element` is a text box whose caret can be read and set (a date or email input has none). */
const hasCaret = (element: Element | null): element is TextControl =>
  (element instanceof HTMLTextAreaElement ||
    (element instanceof HTMLInputElement &&
      ['text', 'search', 'tel', 'url', 'password'].includes(element.type))) &&
  element.selectionStart !== null;

function caretOf(element: Element | null) {
  if (!hasCaret(element)) return null;
  return {
    start: element.selectionStart ?? 0,
    end: element.selectionEnd ?? 0,
    direction: element.selectionDirection ?? undefined,
  };
}
