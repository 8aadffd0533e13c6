import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SubmissionListItem } from '#common/submissions.ts';
import { ColumnChooser, useAnswerColumns } from './answer-columns.tsx';
import { ResponsesTable } from './responses-table.tsx';

const questions = [
  { _id: 'q1', name: 'Full name' },
  { _id: 'q2', name: 'Email' },
  { _id: 'q3', name: 'Room' },
];
const item: SubmissionListItem = {
  _id: 'a',
  formStructureId: 'f1',
  contact: 'Asha Rao',
  Date: '3/10/2026, 10:00:00 AM',
  createdAt: '2026-03-10T04:30:00.000Z',
  answers: { q1: 'Asha Rao', q2: 'asha@example.com', q3: 'Double' },
};

function Page({ onSort = () => {} }: { onSort?: () => void }) {
  const columns = useAnswerColumns('f1', questions);
  return (
    <MemoryRouter>
      <ColumnChooser questions={questions} isShown={columns.isShown} toggle={columns.toggle} />
      <ResponsesTable
        items={[item]}
        selected={new Set()}
        onSelect={() => {}}
        columns={columns.shown}
        order="newest"
        onSort={onSort}
      />
    </MemoryRouter>
  );
}

const heads = () => screen.getAllByRole('columnheader').map((th) => th.textContent);

afterEach(() => localStorage.clear());

describe('the response table’s answer columns', () => {
  it('shows Contact Information, then the first answers, and remembers the owner’s choice for the form', () => {
    const { unmount } = render(<Page />);
    expect(heads().slice(1, 4)).toEqual(['Contact Information', 'Full name', 'Email']);
    expect(within(screen.getAllByRole('row')[1]!).getByText('asha@example.com')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Room' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Full name' }));
    expect(heads().slice(1, 4)).toEqual(['Contact Information', 'Email', 'Room']);
    unmount();
    render(<Page />);
    expect(heads().slice(1, 4)).toEqual(['Contact Information', 'Email', 'Room']);
  });

  it('sorts by date from the Date column’s head, saying which way it sorts', () => {
    const onSort = vi.fn();
    render(<Page onSort={onSort} />);
    const date = screen.getByRole('columnheader', { name: /^Date/ });
    expect(date).toHaveAttribute('aria-sort', 'descending');
    fireEvent.click(within(date).getByRole('button'));
    expect(onSort).toHaveBeenCalledOnce();
  });
});
