import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { FormEdit } from '../api/forms.ts';
import type { EditorField } from './fields-in-order.ts';
import { QuestionList, UNDO_MS } from './question-list.tsx';

const FIELDS: EditorField[] = [
  { _id: 'a', kind: 'text', name: 'Name', required: true, type: 'text' },
  { _id: 'b', kind: 'text', name: 'Email', required: false, type: 'email' },
  { _id: 'c', kind: 'file', name: 'Photo', required: false },
];

/** The list with a stand-in for the server's answer: each edit changes the questions as the API would. */
function Editor({ sent }: { sent: (edit: FormEdit) => void }) {
  const [fields, setFields] = useState(FIELDS);
  const onEdit = async (edit: FormEdit) => {
    sent(edit);
    if (edit.type === 'deleteField') setFields((f) => f.filter((x) => x._id !== edit.fieldId));
    if (edit.type === 'reorder')
      setFields((f) => edit.order.flatMap((id) => f.find((x) => x._id === id) ?? []));
    if (edit.type === 'addField')
      setFields((f) => [...f, { _id: 'd', kind: 'text', name: edit.body.name, required: false }]);
    return true;
  };
  return (
    <>
      <QuestionList fields={fields} onEdit={onEdit} />
      <button type="button" onClick={() => void onEdit({ type: 'addField', body: { id: 1, name: 'Phone' } })}>
        Add Phone
      </button>
    </>
  );
}

const names = () =>
  screen
    .getAllByRole('listitem')
    .map((li) => within(li).getByRole('button', { name: /^Question:/ }).textContent);
const status = () =>
  screen
    .getAllByRole('status')
    .map((s) => s.textContent)
    .join(' ');

describe('the question list', () => {
  it('takes a deleted question back at its place with Undo, and sends nothing', async () => {
    const sent = vi.fn();
    render(<Editor sent={sent} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete question Email' }));
    expect(names()).toEqual(['Name', 'Photo']);
    expect(status()).toContain("Question 'Email' deleted");
    // Focus goes to the next question, not to the page body.
    expect(screen.getByRole('button', { name: /^Question: Photo/ })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(names()).toEqual(['Name', 'Email', 'Photo']);
    expect(status()).toContain("Question 'Email' restored");
    expect(screen.getByRole('button', { name: /^Question: Email/ })).toHaveFocus();
    expect(sent).not.toHaveBeenCalled();
  });

  it('deletes on the server when the owner leaves the editor before the undo runs out', async () => {
    const sent = vi.fn();
    const { unmount } = render(<Editor sent={sent} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete question Photo' }));
    // The last question gone, focus goes to the one before it.
    expect(screen.getByRole('button', { name: /^Question: Email/ })).toHaveFocus();
    unmount();
    expect(sent).toHaveBeenCalledWith({ type: 'deleteField', kind: 'file', fieldId: 'c' });
  });

  it('keeps the Undo bar while focus is on it, and gives it its full time again once focus leaves', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const sent = vi.fn();
      render(<Editor sent={sent} />);
      const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
      await user.click(screen.getByRole('button', { name: 'Delete question Email' }));
      screen.getByRole('button', { name: 'Undo' }).focus();
      await act(() => vi.advanceTimersByTimeAsync(UNDO_MS * 3));
      expect(sent).not.toHaveBeenCalled();
      expect(screen.getByRole('button', { name: 'Undo' })).toBeVisible();
      await act(async () => screen.getByRole('button', { name: /^Question: Photo/ }).focus());
      await act(() => vi.advanceTimersByTimeAsync(UNDO_MS - 100));
      expect(sent).not.toHaveBeenCalled();
      await act(() => vi.advanceTimersByTimeAsync(200));
      expect(sent).toHaveBeenCalledWith({ type: 'deleteField', kind: 'text', fieldId: 'b' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends an earlier deletion when a second question is deleted, offering Undo for the latest', async () => {
    const sent = vi.fn();
    render(<Editor sent={sent} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete question Name' }));
    await user.click(screen.getByRole('button', { name: 'Delete question Email' }));
    expect(sent).toHaveBeenCalledWith({ type: 'deleteField', kind: 'text', fieldId: 'a' });
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(names()).toEqual(['Email', 'Photo']);
  });

  it('announces moves and keeps focus on the moved question, also at the top', async () => {
    render(<Editor sent={vi.fn()} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Move Email up' }));
    expect(names()).toEqual(['Email', 'Name', 'Photo']);
    expect(status()).toContain("Question 'Email' moved up");
    // At the top "up" is disabled: focus goes to the same question's "down".
    expect(screen.getByRole('button', { name: 'Move Email down' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(names()).toEqual(['Name', 'Email', 'Photo']);
    expect(status()).toContain("Question 'Email' moved down");
    expect(screen.getByRole('button', { name: 'Move Email down' })).toHaveFocus();
  });

  it('announces a question added', async () => {
    render(<Editor sent={vi.fn()} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Add Phone' }));
    expect(status()).toContain("Question 'Phone' added");
  });
});
