// The answers saved on the device, read back (issue 39): a draft saved before a file question could take several
// files holds one file a question, and is read as a list of one rather than thrown away.
import { afterEach, describe, expect, it } from 'vitest';
import { KEYS } from './fill-storage.ts';
import { readDraft } from './saved-fill.ts';

const FORM = 'form-1';
const file = (id: string) => ({
  deleteId: id,
  name: 'Photos',
  value: `/files/${id}`,
  originalName: `${id}.png`,
});
const saved = (files: unknown) =>
  localStorage.setItem(
    KEYS.draft,
    JSON.stringify({ formId: FORM, values: { t1: 'Asha' }, files, website: '', idempotencyKey: null }),
  );

afterEach(() => localStorage.clear());

describe('the answers saved on this device', () => {
  it('reads a file question’s files as a list, and one file saved by an older page as a list of one', () => {
    saved({ f1: file('a'), f2: [file('b'), file('c')] });
    expect(readDraft(FORM)).toMatchObject({
      values: { t1: 'Asha' },
      files: { f1: [file('a')], f2: [file('b'), file('c')] },
    });
  });

  it('starts over when the saved files are not files, or more than a question can take', () => {
    saved({ f1: 'a file' });
    expect(readDraft(FORM).values).toEqual({});
    saved({ f1: Array.from({ length: 11 }, (_, i) => file(String(i))) });
    expect(readDraft(FORM).files).toEqual({});
  });
});
