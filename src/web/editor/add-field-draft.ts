import { useEffect, useState } from 'react';
import { TEXT_TYPES, type TextType } from '#common/forms.ts';

export type ChoiceId = 2 | 3 | 4;

/** What the owner has typed into the Add Field panel and not yet saved. */
export type AddFieldDraft = {
  name: string;
  textType: TextType;
  required: boolean;
  choice: ChoiceId | null;
  options: string[];
};

export const EMPTY_DRAFT: AddFieldDraft = {
  name: '',
  textType: 'text',
  required: false,
  choice: null,
  options: [],
};

const keyFor = (fid: string) => `addFieldDraft:${fid}`;

/** A stored draft, or the empty one when nothing (or nothing readable) is stored. */
function readDraft(fid: string): AddFieldDraft {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(keyFor(fid)) ?? 'null');
    if (!raw || typeof raw !== 'object') return EMPTY_DRAFT;
    const d = raw as Partial<AddFieldDraft>;
    return {
      name: typeof d.name === 'string' ? d.name : '',
      textType: TEXT_TYPES.includes(d.textType as TextType) ? (d.textType as TextType) : 'text',
      required: d.required === true,
      choice: d.choice === 2 || d.choice === 3 || d.choice === 4 ? d.choice : null,
      options: Array.isArray(d.options) ? d.options.filter((o): o is string => typeof o === 'string') : [],
    };
  } catch {
    return EMPTY_DRAFT;
  }
}

const isEmpty = (d: AddFieldDraft) =>
  d.name === '' && d.textType === 'text' && !d.required && d.choice === null && d.options.length === 0;

/**
 * The panel's draft, kept in local storage per form, so a half-built question (a choice with some options) is
 * still there after a reload. Saving the question or cancelling it empties the draft.
 */
export function useAddFieldDraft(fid: string) {
  const [draft, setDraft] = useState<AddFieldDraft>(() => readDraft(fid));
  useEffect(() => {
    if (isEmpty(draft)) localStorage.removeItem(keyFor(fid));
    else localStorage.setItem(keyFor(fid), JSON.stringify(draft));
  }, [fid, draft]);
  const change = (next: Partial<AddFieldDraft>) => setDraft((current) => ({ ...current, ...next }));
  return { draft, change, clear: () => setDraft(EMPTY_DRAFT) };
}
