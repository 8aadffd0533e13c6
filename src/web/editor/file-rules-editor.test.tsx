// A file question's own rules in its card (issue 39): read out, edited by keyboard (types, a size limit, how many files), checked
// before they are sent, and removed when both types and any size are chosen again.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FileRulesEditor } from './file-rules-editor.tsx';

describe('the file rules of a card', () => {
  it('narrows the types and the size, refusing no type at all before anything is sent', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    render(<FileRulesEditor questionName="ID proof" onSave={onSave} />);
    expect(screen.getByText('JPEG, PNG or PDF')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit file rules of ID proof' }));
    await user.click(screen.getByRole('checkbox', { name: 'Images (JPEG, PNG)' }));
    await user.click(screen.getByRole('checkbox', { name: 'PDF' }));
    await user.click(screen.getByRole('button', { name: 'Save file rules' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Choose at least one type of file');
    expect(onSave).not.toHaveBeenCalled();
    await user.click(screen.getByRole('checkbox', { name: 'PDF' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Largest file' }), '2 MB');
    await user.click(screen.getByRole('button', { name: 'Save file rules' }));
    expect(onSave).toHaveBeenLastCalledWith({ types: ['pdf'], maxBytes: 2_000_000 });
  });

  it('removes the rules when both types and any size are chosen; Escape cancels', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    render(
      <FileRulesEditor
        questionName="ID proof"
        rules={{ types: ['pdf'], maxBytes: 2_000_000 }}
        onSave={onSave}
      />,
    );
    expect(screen.getByText('PDF, up to 2 MB')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit file rules of ID proof' }));
    screen.getByRole('checkbox', { name: 'PDF' }).focus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('checkbox', { name: 'PDF' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Edit file rules of ID proof' }));
    await user.click(screen.getByRole('checkbox', { name: 'Images (JPEG, PNG)' }));
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Largest file' }),
      'Any size the server takes',
    );
    await user.click(screen.getByRole('button', { name: 'Save file rules' }));
    expect(onSave).toHaveBeenLastCalledWith(null);
  });

  it('takes several files a question, said in its card, and back to one removes the rule', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    const { rerender } = render(<FileRulesEditor questionName="Photos" onSave={onSave} />);
    await user.click(screen.getByRole('button', { name: 'Edit file rules of Photos' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Files' }), 'Up to 3 files');
    await user.click(screen.getByRole('button', { name: 'Save file rules' }));
    expect(onSave).toHaveBeenLastCalledWith({ maxFiles: 3 });
    rerender(<FileRulesEditor questionName="Photos" rules={{ maxFiles: 3 }} onSave={onSave} />);
    expect(screen.getByText('Up to 3 files: JPEG, PNG or PDF')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit file rules of Photos' }));
    expect(screen.getByRole('combobox', { name: 'Files' })).toHaveValue('3');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Files' }), 'One file');
    await user.click(screen.getByRole('button', { name: 'Save file rules' }));
    expect(onSave).toHaveBeenLastCalledWith(null);
  });
});
