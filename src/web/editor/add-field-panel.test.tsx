import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AddFieldPanel } from './add-field-panel.tsx';
import { OptionList } from './option-list.tsx';

afterEach(() => localStorage.clear());

describe('adding options', () => {
  it('ignores blank options and refuses a duplicate with the duplicate-option message', async () => {
    const onAdd = vi.fn(async () => true);
    render(<AddFieldPanel fid="f1" onAdd={onAdd} />);
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText('New question'));
    await user.type(screen.getByLabelText('New question'), 'Shift');
    await user.click(screen.getByRole('button', { name: 'Radio Button' }));
    const option = screen.getByLabelText('New option');
    await user.type(option, 'Morning{Enter}');
    await user.type(option, '   {Enter}');
    await user.type(option, 'Morning{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('Value already exists!');
    await user.clear(option);
    await user.type(option, 'Evening{Enter}');
    expect(screen.getAllByRole('listitem').map((li) => li.textContent?.replace('×', '').trim())).toEqual([
      'Morning',
      'Evening',
    ]);
    await user.click(screen.getByRole('button', { name: 'Save Radio Button' }));
    expect(onAdd).toHaveBeenCalledWith({
      id: 3,
      name: 'Shift',
      required: false,
      options: [{ value: 'Morning' }, { value: 'Evening' }],
    });
  });

  it('keeps Save disabled until a choice question has an option', async () => {
    render(<AddFieldPanel fid="f1" onAdd={vi.fn(async () => true)} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Dropdown' }));
    expect(screen.getByRole('button', { name: 'Save Dropdown' })).toBeDisabled();
  });

  it('adds a text field with its type, required off by default, and warns about password questions', async () => {
    const onAdd = vi.fn(async () => true);
    render(<AddFieldPanel fid="f1" onAdd={onAdd} />);
    const user = userEvent.setup();
    expect(screen.getByRole('switch', { name: 'Required' })).not.toBeChecked();
    await user.selectOptions(screen.getByLabelText('Text type'), 'password');
    expect(screen.getByText(/common phishing pattern/)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Add Text Field' }));
    expect(onAdd).toHaveBeenCalledWith({
      id: 1,
      name: 'Untitled Question',
      type: 'password',
      required: false,
    });
  });

  it('refuses a duplicate when adding to a saved question', async () => {
    const onAdd = vi.fn();
    render(
      <OptionList
        questionName="Size"
        options={[{ _id: 'a', value: 'S' }]}
        onAdd={onAdd}
        onRename={vi.fn()}
        onRemove={vi.fn()}
      />,
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New option for Size'), 'S{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('Value already exists!');
    await user.type(screen.getByLabelText('New option for Size'), '{Backspace}M{Enter}');
    expect(onAdd).toHaveBeenCalledWith('M');
  });
});

describe('the new question', () => {
  it('shows Untitled Question as a placeholder, sent as the name only when none is typed', async () => {
    const onAdd = vi.fn(async () => true);
    render(<AddFieldPanel fid="f1" onAdd={onAdd} />);
    const user = userEvent.setup();
    const name = screen.getByLabelText('New question');
    expect(name).toHaveValue('');
    expect(name).toHaveAttribute('placeholder', 'Untitled Question');
    await user.type(name, 'Your name');
    await user.click(screen.getByRole('button', { name: 'Add Text Field' }));
    expect(onAdd).toHaveBeenLastCalledWith({ id: 1, name: 'Your name', type: 'text', required: false });
    // Added: the box is empty again and has focus for the next question.
    expect(name).toHaveValue('');
    expect(name).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'File' }));
    expect(onAdd).toHaveBeenLastCalledWith({ id: 5, name: 'Untitled Question', required: false });
  });

  it('has no text type in the choice builder, and moves focus into it and back to its opener', async () => {
    const onAdd = vi.fn(async () => true);
    render(<AddFieldPanel fid="f1" onAdd={onAdd} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Checkbox' }));
    expect(screen.queryByLabelText('Text type')).not.toBeInTheDocument();
    expect(screen.getByLabelText('New option')).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Checkbox' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Dropdown' }));
    await user.type(screen.getByLabelText('New option'), 'Red{Enter}');
    await user.click(screen.getByRole('button', { name: 'Save Dropdown' }));
    expect(screen.getByLabelText('New question')).toHaveFocus();
  });

  it('keeps a half-built choice question across a reload until it is saved', async () => {
    const user = userEvent.setup();
    const first = render(<AddFieldPanel fid="f1" onAdd={vi.fn(async () => true)} />);
    await user.type(screen.getByLabelText('New question'), 'Size');
    await user.click(screen.getByRole('switch', { name: 'Required' }));
    await user.click(screen.getByRole('button', { name: 'Radio Button' }));
    await user.type(screen.getByLabelText('New option'), 'Small{Enter}Large{Enter}');
    first.unmount();

    const onAdd = vi.fn(async () => true);
    const second = render(<AddFieldPanel fid="f1" onAdd={onAdd} />);
    expect(screen.getByLabelText('New question')).toHaveValue('Size');
    expect(screen.getByRole('switch', { name: 'Required' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Save Radio Button' }));
    expect(onAdd).toHaveBeenCalledWith({
      id: 3,
      name: 'Size',
      required: true,
      options: [{ value: 'Small' }, { value: 'Large' }],
    });
    second.unmount();

    // Saved: a reload starts empty; another form never had the draft.
    render(<AddFieldPanel fid="f1" onAdd={onAdd} />);
    expect(screen.getByLabelText('New question')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Radio Button' })).toBeVisible();
  });
});
