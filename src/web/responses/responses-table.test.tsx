import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { SubmissionListItem } from '#common/submissions.ts';
import { ResponsesTable } from './responses-table.tsx';

const item = (id: string, contact: string): SubmissionListItem => ({
  _id: id,
  formStructureId: 'f1',
  contact,
  Date: '3/10/2026, 10:00:00 AM',
  createdAt: '2026-03-10T04:30:00.000Z',
  answers: {},
});
const items = [item('a', 'Asha Rao'), item('b', 'Ravi Kumar')];

function Harness() {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  return (
    <MemoryRouter>
      <ResponsesTable items={items} selected={selected} onSelect={setSelected} />
      <output>{[...selected].join(',')}</output>
    </MemoryRouter>
  );
}

describe('ResponsesTable', () => {
  it('picks rows one by one, shows a partly ticked Select all, and selects or clears the whole page', () => {
    render(<Harness />);
    const all = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Select all responses on this page' });
    fireEvent.click(screen.getByRole('checkbox', { name: /^Select Asha Rao/ }));
    expect(screen.getByRole('status')).toHaveTextContent('a');
    expect(all.checked).toBe(false);
    expect(all.indeterminate).toBe(true);
    fireEvent.click(all);
    expect(screen.getByRole('status')).toHaveTextContent('a,b');
    expect(all.checked).toBe(true);
    fireEvent.click(all);
    expect(screen.getByRole('status')).toHaveTextContent(/^$/);
  });
});
