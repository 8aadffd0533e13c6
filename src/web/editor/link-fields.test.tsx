// The editor's hidden fields and prefilled link (issue 39): names a link can carry, each once, removed by name; a
// link that fills one question's answer.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Form } from '#common/forms.ts';
import { LinkFields } from './link-fields.tsx';

const form = {
  _id: 'f1',
  ownerIdAsStructureId: 'o1',
  hiddenFields: ['ref'],
  textField: [{ _id: 'n1', name: 'Your name', type: 'text', required: false }],
  selectField: [],
  radioField: [],
  checkField: [],
  fileField: [],
  moreField: [],
  fieldOrder: [{ _id: 'n1', kind: 'text' }],
} as unknown as Form;

describe('the editor’s link fields', () => {
  it('adds a hidden field by keyboard, refuses a name a link cannot carry or a repeat, and removes one', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    render(<LinkFields form={form} onSave={onSave} />);
    const box = screen.getByRole('textbox', { name: 'New hidden field' });
    await user.type(box, 'has space{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('letters, digits, _ and - only');
    expect(box).toHaveAttribute('aria-invalid', 'true');
    await user.clear(box);
    await user.type(box, 'ref{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('Each hidden field has its own name');
    expect(onSave).not.toHaveBeenCalled();
    await user.clear(box);
    await user.type(box, 'utm_source{Enter}');
    expect(onSave).toHaveBeenLastCalledWith(['ref', 'utm_source']);
    await user.click(screen.getByRole('button', { name: 'Remove hidden field ref' }));
    expect(onSave).toHaveBeenLastCalledWith([]);
  });

  it('builds a link that prefills the chosen question', async () => {
    const user = userEvent.setup();
    render(<LinkFields form={form} onSave={() => undefined} />);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Question' }), 'Your name');
    await user.type(screen.getByRole('textbox', { name: 'Answer' }), 'Asha Rao');
    expect(screen.getByRole('textbox', { name: 'Link' })).toHaveValue(
      `${window.location.origin}/customer/f1/o1?q_n1=Asha+Rao`,
    );
  });
});
