// The choice grid on the React page (issue 39): each row a radio group named by its row, required marked for
// assistive technology, operated by keyboard alone (Tab from row to row, arrow keys within one), its answer the
// chosen column by row; and sent as the submit's `gridObject`.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { MoreField } from '#common/forms.ts';
import type { GridAnswer } from '#common/kinds/grid-kind.ts';
import { testForm } from '../test-form.ts';
import { GridQuestion } from './grid-question.tsx';
import { submissionBody } from './questions.ts';

const GRID: Extract<MoreField, { kind: 'grid' }> = {
  _id: 'g',
  kind: 'grid',
  name: 'Rate our service',
  required: true,
  settings: { rows: ['Speed', 'Price'], columns: ['Poor', 'Fair', 'Good'] },
};

function Field({ error }: { error?: string }) {
  const [value, setValue] = useState<GridAnswer>({});
  return (
    <>
      <GridQuestion field={GRID} value={value} error={error} onChange={setValue} />
      <output data-testid="value">{JSON.stringify(value)}</output>
    </>
  );
}
const value = () => JSON.parse(screen.getByTestId('value').textContent ?? '{}') as unknown;

describe('a choice grid on the page', () => {
  it('is one radio group a row, named by the row, chosen by keyboard alone', async () => {
    const user = userEvent.setup();
    render(<Field />);
    expect(screen.getByRole('group', { name: /Rate our service/ })).toBeInTheDocument();
    const speed = screen.getByRole('radiogroup', { name: 'Speed' });
    const price = screen.getByRole('radiogroup', { name: 'Price' });
    expect(speed).toHaveAttribute('aria-required', 'true');
    expect(price).toHaveAttribute('aria-required', 'true');
    await user.tab();
    expect(screen.getAllByRole('radio', { name: 'Poor' })[0]).toHaveFocus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(value()).toEqual({ Speed: 'Good' });
    // One tab stop a row: Tab moves on to the next row.
    await user.tab();
    expect(screen.getAllByRole('radio', { name: 'Poor' })[1]).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(value()).toEqual({ Speed: 'Good', Price: 'Fair' });
  });

  it('marks the rows left empty when its message says so', () => {
    render(<Field error="Choose an answer for “Speed”" />);
    expect(screen.getByRole('radiogroup', { name: 'Speed' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('group', { name: /Rate our service/ })).toHaveAccessibleDescription(
      /Choose an answer for “Speed”/,
    );
  });

  it('is sent as the submit’s gridObject, blank rows left out', () => {
    const form = testForm({ moreField: [GRID], fieldOrder: [{ _id: 'g', kind: 'grid' }] });
    const body = submissionBody(form, { g: { Speed: 'Good', Price: '' } }, {}, '');
    expect(body.gridObject).toEqual({ g: { Speed: 'Good' } });
    expect(body.textObject).toEqual({});
    expect(submissionBody(form, { g: { Speed: '' } }, {}, '').gridObject).toEqual({});
  });
});
