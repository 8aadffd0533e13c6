import { useState } from 'react';
import type { FileAnswer } from '#common/submissions.ts';
import type { Draft } from '../storage/fill-storage.ts';

/**
 * The file slots' side of a screen: a slot's answer saved in the draft (its error cleared), and which slots are
 * still uploading, so Submit waits for them.
 */
export function useFileAnswers(
  update: (change: (draft: Draft) => Draft) => void,
  fixed: (id: string) => void,
) {
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());

  function setFile(id: string, answer: FileAnswer | undefined) {
    update(({ files: { [id]: _old, ...others }, ...d }) => ({
      ...d,
      files: answer ? { ...others, [id]: answer } : others,
    }));
    fixed(id);
  }

  const setSlotBusy = (id: string, isBusy: boolean) =>
    setBusy((old) => {
      const next = new Set(old);
      if (isBusy) next.add(id);
      else next.delete(id);
      return next;
    });

  return { setFile, setSlotBusy, uploading: busy.size > 0 };
}
