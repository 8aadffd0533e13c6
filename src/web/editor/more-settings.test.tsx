// The editor's side of the kinds beyond the product's five (issue 39): the Add Field panel's buttons add each with
// the settings a form starts from, and a card's Edit settings changes them, checked before they are sent.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { NPS_PRESET, NPS_QUESTION } from '#common/kinds/scale-kinds.ts';
import { AddMoreKinds } from './add-more-kinds.tsx';
import { MoreSettings } from './more-settings.tsx';

describe('the kinds beyond the first five in the editor', () => {
  it('adds each kind with its starting settings, an NPS with its question when none is typed', async () => {
    const user = userEvent.setup();
    const onAdd = vi.fn();
    render(<AddMoreKinds title="Untitled Question" required={false} onAdd={onAdd} />);
    const group = screen.getByRole('group', { name: 'More question kinds' });
    expect(group).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'NPS' }));
    expect(onAdd).toHaveBeenLastCalledWith({
      id: 8,
      name: NPS_QUESTION,
      required: false,
      settings: NPS_PRESET,
    });
    await user.click(screen.getByRole('button', { name: 'Rating' }));
    expect(onAdd).toHaveBeenLastCalledWith(
      expect.objectContaining({ id: 7, settings: { max: 5, style: 'stars' } }),
    );
    await user.click(screen.getByRole('button', { name: 'Web address' }));
    expect(onAdd).toHaveBeenLastCalledWith({ id: 12, name: 'Untitled Question', required: false });
  });

  it('edits a number’s bounds, refusing a smallest above the largest before anything is sent', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    render(
      <MoreSettings
        field={{ _id: 'n', kind: 'number', name: 'Guests', required: true, settings: { decimals: false } }}
        onSave={onSave}
      />,
    );
    expect(screen.getByText('A whole number')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit settings of Guests' }));
    await user.type(screen.getByLabelText('Smallest'), '10');
    await user.type(screen.getByLabelText('Largest'), '2');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The smallest number allowed must not be above the largest',
    );
    expect(onSave).not.toHaveBeenCalled();
    await user.clear(screen.getByLabelText('Largest'));
    await user.type(screen.getByLabelText('Largest'), '20');
    await user.type(screen.getByLabelText('Unit'), 'people');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(onSave).toHaveBeenCalledWith({ min: 10, max: 20, decimals: false, unit: 'people' });
  });

  it('edits a scale’s ends by keyboard, and Escape leaves it as it was', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    render(
      <MoreSettings
        field={{
          _id: 's',
          kind: 'scale',
          name: 'Ease',
          required: false,
          settings: { from: 1, to: 5, nps: false },
        }}
        onSave={onSave}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Edit settings of Ease' }));
    await user.selectOptions(screen.getByLabelText('To'), '7');
    await user.type(screen.getByLabelText('Label at the end'), 'Very easy');
    await user.keyboard('{Escape}');
    expect(onSave).not.toHaveBeenCalled();
    expect(screen.getByText('1 to 5')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit settings of Ease' }));
    await user.selectOptions(screen.getByLabelText('To'), '7');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(onSave).toHaveBeenCalledWith({ from: 1, to: 7, nps: false });
  });

  it('edits a grid’s rows and columns one a line, refusing a single column before anything is sent', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    render(
      <MoreSettings
        field={{
          _id: 'g',
          kind: 'grid',
          name: 'Rate us',
          required: false,
          settings: { rows: ['Speed', 'Price'], columns: ['Poor', 'Good'] },
        }}
        onSave={onSave}
      />,
    );
    expect(screen.getByText('2 rows · Poor, Good')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit settings of Rate us' }));
    const columns = screen.getByLabelText('Columns, one a line');
    expect(columns).toHaveValue('Poor\nGood');
    await user.clear(columns);
    await user.type(columns, 'Only');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Add at least two columns');
    expect(onSave).not.toHaveBeenCalled();
    await user.type(columns, '{Enter}{Enter}  Also  ');
    await user.type(screen.getByLabelText('Rows, one a line'), '{Enter}Comfort');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(onSave).toHaveBeenCalledWith({ rows: ['Speed', 'Price', 'Comfort'], columns: ['Only', 'Also'] });
  });
});
