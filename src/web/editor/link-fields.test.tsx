// The editor's hidden fields and prefilled link (issue 39): names a link can carry, each once, removed by name; a
// link that fills one question's answer.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Form } from '#common/forms.ts';
import { LinkFields } from './link-fields.tsx';
import { RecallPicker } from './recall-picker.tsx';

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

describe('recall in the editor', () => {
  it('inserts an earlier page’s answer or a hidden field into a title, chosen by keyboard', async () => {
    const user = userEvent.setup();
    const onInsert = vi.fn();
    render(
      <RecallPicker
        questionName="Your email"
        earlier={[{ _id: 'n1', name: 'Your name' }]}
        hiddenFields={['ref']}
        onInsert={onInsert}
      />,
    );
    const picker = screen.getByRole('combobox', {
      name: 'Insert an earlier answer or a hidden field into Your email',
    });
    await user.selectOptions(picker, 'Your name');
    expect(onInsert).toHaveBeenLastCalledWith('{{answer:n1|}}');
    await user.selectOptions(picker, 'Hidden field: ref');
    expect(onInsert).toHaveBeenLastCalledWith('{{hidden:ref|}}');
  });

  it('offers nothing on the first page of a form without hidden fields', () => {
    const { container } = render(
      <RecallPicker questionName="Name" earlier={[]} hiddenFields={[]} onInsert={() => undefined} />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});
