import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { EditableText } from './editable-text.tsx';

describe('click-to-edit text', () => {
  it('opens an input on click and saves the trimmed value on blur', async () => {
    const onSave = vi.fn();
    render(<EditableText value="Untitled" label="Form title" onSave={onSave} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^Form title: Untitled/ }));
    const input = screen.getByRole('textbox', { name: 'Form title' });
    expect(input).toHaveFocus();
    await user.clear(input);
    await user.type(input, '  Volunteer sign-up  ');
    await user.tab();
    expect(onSave).toHaveBeenCalledWith('Volunteer sign-up');
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('saves with Enter and does not save an empty or unchanged value', async () => {
    const onSave = vi.fn();
    render(<EditableText value="Untitled" label="Form title" onSave={onSave} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^Form title/ }));
    await user.clear(screen.getByRole('textbox', { name: 'Form title' }));
    await user.type(screen.getByRole('textbox', { name: 'Form title' }), '   {Enter}');
    await user.click(screen.getByRole('button', { name: /^Form title/ }));
    await user.keyboard('{Enter}');
    expect(onSave).not.toHaveBeenCalled();
  });

  it('cancels with Escape', async () => {
    const onSave = vi.fn();
    render(<EditableText value="Untitled" label="Form title" onSave={onSave} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^Form title/ }));
    await user.type(screen.getByRole('textbox', { name: 'Form title' }), ' changed{Escape}');
    expect(onSave).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: /^Form title: Untitled/ })).toBeVisible();
  });

  it('edits a title in a box that grows with it but takes no line break', async () => {
    const onSave = vi.fn();
    render(<EditableText value="Untitled" label="Form title" onSave={onSave} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^Form title/ }));
    const box = screen.getByRole('textbox', { name: 'Form title' });
    expect(box.tagName).toBe('TEXTAREA');
    expect(box).toHaveAttribute('aria-multiline', 'false');
    await user.clear(box);
    await user.click(box);
    await user.paste('Volunteer\nsign-up');
    expect(box).toHaveValue('Volunteer sign-up');
    await user.keyboard('{Enter}');
    expect(onSave).toHaveBeenCalledWith('Volunteer sign-up');
  });

  it('keeps line breaks in a description, where Enter starts a new line and Ctrl+Enter saves', async () => {
    const onSave = vi.fn();
    render(<EditableText multiline value="First" label="Form description" onSave={onSave} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^Form description/ }));
    const box = screen.getByRole('textbox', { name: 'Form description' });
    await user.type(box, '{Enter}Second');
    expect(box).toHaveValue('First\nSecond');
    expect(onSave).not.toHaveBeenCalled();
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(onSave).toHaveBeenCalledWith('First\nSecond');
  });

  it('gives focus back to the edited text after Enter or Escape, never to the page body', async () => {
    render(<EditableText value="Email" label="Question" onSave={vi.fn()} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^Question: Email/ }));
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: /^Question: Email/ })).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.keyboard(' address{Enter}');
    expect(screen.getByRole('button', { name: /^Question: Email/ })).toHaveFocus();
  });
});
