import { useEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

type Props = {
  title: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  children: ReactNode;
  /**
   * Where focus goes when the dialog closes; by default the element that had focus when it opened. When that one is
   * gone or hidden (a deleted row, a closed menu), the page's heading takes it.
   */
  returnFocusTo?: () => HTMLElement | null | undefined;
};

const isShown = (element: HTMLElement | null | undefined): element is HTMLElement =>
  Boolean(element?.isConnected) && (element?.getClientRects().length ?? 0) > 0;

/** Gives focus back after the dialog: to the opener when it is still on the page, else to the page's heading. */
function restoreFocus(preferred: HTMLElement | null | undefined, opener: HTMLElement | null) {
  const target = [preferred, opener].find(isShown);
  if (target) return target.focus();
  const heading = document.querySelector<HTMLElement>('main h1');
  if (!heading) return;
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  heading.focus();
}

/**
 * A modal question with a destructive answer, on the native <dialog> (focus trapped, Escape cancels). It is drawn
 * at the end of the page, so a table cell or a closed menu it was opened from neither squeezes nor hides it.
 */
export function ConfirmDialog({ title, confirmLabel, onConfirm, onCancel, children, returnFocusTo }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnTo = useRef(returnFocusTo);
  useEffect(() => {
    returnTo.current = returnFocusTo;
  });
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal?.();
    // After React has let go of the dialog: its removal is what closes it.
    return () => void setTimeout(() => restoreFocus(returnTo.current?.(), opener));
  }, []);
  return createPortal(
    <dialog
      ref={ref}
      className="dialog card"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-text"
      onCancel={onCancel}
      onClose={onCancel}
    >
      <h2 id="confirm-title">{title}</h2>
      <p id="confirm-text">{children}</p>
      <div className="dialog-actions">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="button button-danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>,
    document.body,
  );
}
