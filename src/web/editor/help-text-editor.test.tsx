import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { HelpTextEditor } from './help-text-editor.tsx';

describe('a question’s help text in the editor', () => {
  it('is added from the card by keyboard, saved trimmed, and Escape saves nothing', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    const { rerender } = render(<HelpTextEditor questionName="Full name" onSave={onSave} />);
    screen.getByRole('button', { name: 'Add help text to Full name' }).focus();
    await user.keyboard('{Enter}');
    const box = screen.getByRole('textbox', { name: 'Help text' });
    expect(box).toHaveFocus();
    await user.type(box, 'Drafted{Escape}');
    expect(onSave).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Add help text to Full name' }));
    await user.type(screen.getByRole('textbox', { name: 'Help text' }), '  As on your passport  ');
    await user.click(screen.getByRole('button', { name: 'Save help text' }));
    expect(onSave).toHaveBeenCalledWith('As on your passport');

    // Shown with Edit once saved; saved empty, it is removed.
    rerender(<HelpTextEditor questionName="Full name" help="As on your passport" onSave={onSave} />);
    expect(screen.getByText('As on your passport')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Edit help text of Full name' }));
    await user.clear(screen.getByRole('textbox', { name: 'Help text' }));
    await user.click(screen.getByRole('button', { name: 'Save help text' }));
    expect(onSave).toHaveBeenLastCalledWith('');
  });
});
