import { useState } from 'react';
import type { FileAnswer } from '#common/submissions.ts';
import type { Draft } from '../storage/fill-storage.ts';

/**
 * The file slots' side of a screen: a slot's files saved in the draft (its error cleared), and which slots are
 * still uploading, so Submit waits for them.
 */
export function useFileAnswers(
  update: (change: (draft: Draft) => Draft) => void,
  fixed: (id: string) => void,
) {
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());

  /** Changes a slot's files from those the draft holds now (uploads end one after another, each adding its file). */
  function setFile(id: string, change: (files: FileAnswer[]) => FileAnswer[]) {
    update(({ files: { [id]: old, ...others }, ...d }) => {
      const files = change(old ?? []);
      return { ...d, files: files.length > 0 ? { ...others, [id]: files } : others };
    });
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
