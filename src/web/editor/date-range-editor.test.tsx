// A date question's range in the editor (issue 39): two date boxes, checked before anything is sent; both empty
// removes the range.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DateRangeEditor } from './date-range-editor.tsx';

describe('a date question’s range in the editor', () => {
  it('refuses the earliest after the latest, saves a range, and removes it when both are emptied', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    const { rerender } = render(<DateRangeEditor questionName="Arrival" onSave={onSave} />);
    expect(screen.getByText('Any day')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit dates of Arrival' }));
    await user.type(screen.getByLabelText('Earliest'), '2026-12-31');
    await user.type(screen.getByLabelText('Latest'), '2026-12-01');
    await user.click(screen.getByRole('button', { name: 'Save dates' }));
    expect(screen.getByRole('alert')).toHaveTextContent('The earliest date must not be after the latest');
    expect(onSave).not.toHaveBeenCalled();
    await user.clear(screen.getByLabelText('Latest'));
    await user.click(screen.getByRole('button', { name: 'Save dates' }));
    expect(onSave).toHaveBeenLastCalledWith({ earliest: '2026-12-31' });

    rerender(<DateRangeEditor questionName="Arrival" range={{ earliest: '2026-12-31' }} onSave={onSave} />);
    expect(screen.getByText('A day on or after 2026-12-31')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit dates of Arrival' }));
    await user.clear(screen.getByLabelText('Earliest'));
    await user.click(screen.getByRole('button', { name: 'Save dates' }));
    expect(onSave).toHaveBeenLastCalledWith(null);
  });
});
