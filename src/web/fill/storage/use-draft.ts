import { useRef, useState } from 'react';
import { emptyDraft, saveDraft } from './fill-storage.ts';
import type { Draft } from './fill-storage.ts';

/**
 * The answers of this form, starting from those the page's loader read, saved to local storage on every change so
 * a reload or the Back button keeps them. The ref holds the newest copy, because two uploads can finish one after
 * the other before React re-renders.
 */
export function useDraft(formId: string, saved: Draft) {
  const [draft, setDraft] = useState(saved);
  const latest = useRef(draft);
  const update = (change: (draft: Draft) => Draft) => {
    const next = change(latest.current);
    latest.current = next;
    saveDraft(next);
    setDraft(next);
  };
  const clear = () => {
    latest.current = emptyDraft(formId);
    setDraft(latest.current);
  };
  return { draft, update, clear, current: () => latest.current };
}
