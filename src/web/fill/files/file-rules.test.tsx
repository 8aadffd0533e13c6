// A file question's own rules on the React page (issue 39): its hint and picker say them, and a file of another type
// or too large is refused at its slot before anything is sent.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FileField } from '#common/forms.ts';
import { FileSlot } from './file-slot.tsx';

afterEach(() => vi.unstubAllGlobals());

const FIELD: FileField = {
  _id: 'f1',
  name: 'ID proof',
  type: 'file',
  required: true,
  rules: { types: ['pdf'], maxBytes: 10_000 },
};

function renderSlot() {
  const fetch = vi.fn();
  vi.stubGlobal('fetch', fetch);
  const onChange = vi.fn();
  render(<FileSlot formId="form" field={FIELD} files={[]} onChange={onChange} onBusyChange={() => {}} />);
  return { fetch, onChange };
}

describe('a file question’s own rules on the page', () => {
  it('are said under it and narrow the picker', () => {
    renderSlot();
    expect(screen.getByText('PDF, up to 10 KB')).toBeInTheDocument();
    expect(screen.getByLabelText(/ID proof/)).toHaveAttribute('accept', '.pdf');
  });

  it('refuse a file of another type, or too large, at the slot, sending nothing', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const { fetch, onChange } = renderSlot();
    await user.upload(screen.getByLabelText(/ID proof/), new File(['x'], 'photo.png', { type: 'image/png' }));
    expect(await screen.findByText('Choose a PDF')).toBeInTheDocument();
    await user.upload(
      screen.getByLabelText(/ID proof/),
      new File([new Uint8Array(20_000)], 'scan.pdf', { type: 'application/pdf' }),
    );
    expect(await screen.findByText('Choose a file of 10 KB or less')).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
    expect(onChange).not.toHaveBeenCalled();
  });
});
