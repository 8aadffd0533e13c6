import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AddFieldPanel } from './add-field-panel.tsx';
import { OptionList } from './option-list.tsx';

describe('adding options', () => {
  it('ignores blank options and refuses a duplicate with the duplicate-option message', async () => {
    const onAdd = vi.fn(async () => true);
    render(<AddFieldPanel onAdd={onAdd} />);
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
    render(<AddFieldPanel onAdd={vi.fn(async () => true)} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Dropdown' }));
    expect(screen.getByRole('button', { name: 'Save Dropdown' })).toBeDisabled();
  });

  it('adds a text field with its type, required off by default, and warns about password questions', async () => {
    const onAdd = vi.fn(async () => true);
    render(<AddFieldPanel onAdd={onAdd} />);
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
