// The kinds beyond the product's five on the React page (issue 39): each drawn with its label, required marked for
// assistive technology, and operated as the customer would, by keyboard: a rating's and a scale's radio group by
// arrow keys, the consent box by Space, the number box by typing.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { MoreField } from '#common/forms.ts';
import { MoreQuestion } from './more-question.tsx';
import { TextQuestion } from './text-question.tsx';

function Field({ field, error }: { field: MoreField; error?: string }) {
  const [value, setValue] = useState('');
  return (
    <>
      <MoreQuestion field={field} value={value} error={error} onChange={setValue} />
      <output data-testid="value">{value}</output>
    </>
  );
}
const value = () => screen.getByTestId('value').textContent;

describe('the kinds beyond the first five on the page', () => {
  it('a star rating is one radio group, each star named, chosen by arrow keys', async () => {
    const user = userEvent.setup();
    render(
      <Field
        field={{
          _id: 'r',
          kind: 'rating',
          name: 'Your stay',
          required: true,
          settings: { max: 5, style: 'stars' },
        }}
      />,
    );
    const group = screen.getByRole('radiogroup', { name: /Your stay/ });
    expect(group).toHaveAttribute('aria-required', 'true');
    expect(screen.getAllByRole('radio')).toHaveLength(5);
    for (const n of [1, 2, 3, 4, 5])
      expect(screen.getByRole('radio', { name: `${n} of 5` })).toBeInTheDocument();
    await user.tab();
    expect(screen.getByRole('radio', { name: '1 of 5' })).toHaveFocus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(value()).toBe('3');
    expect(screen.getByRole('radio', { name: '3 of 5' })).toBeChecked();
  });

  it('a scale says its end labels, and an NPS scale runs from 0 to 10', async () => {
    const user = userEvent.setup();
    render(
      <Field
        field={{
          _id: 's',
          kind: 'scale',
          name: 'Recommend us?',
          required: false,
          settings: { from: 0, to: 10, fromLabel: 'Not at all', toLabel: 'Very', nps: true },
        }}
        error="Choose a number"
      />,
    );
    const group = screen.getByRole('radiogroup', { name: 'Recommend us?' });
    expect(group).toHaveAccessibleDescription('Not at all Very Choose a number');
    expect(screen.getAllByRole('radio')).toHaveLength(11);
    await user.click(screen.getByRole('radio', { name: '0' }));
    await user.keyboard('{ArrowLeft}');
    expect(value()).toBe('10');
  });

  it('a number box opens the number pad and says its unit and bounds', async () => {
    const user = userEvent.setup();
    render(
      <Field
        field={{
          _id: 'n',
          kind: 'number',
          name: 'Guests',
          required: true,
          settings: { min: 1, max: 12, decimals: false, unit: 'people' },
        }}
      />,
    );
    const box = screen.getByRole('textbox', { name: /Guests/ });
    expect(box).toHaveAttribute('inputmode', 'numeric');
    expect(box).toHaveAccessibleDescription('people A whole number, from 1 to 12');
    await user.type(box, '4');
    expect(value()).toBe('4');
  });

  it('a consent is one box ticked by Space, its links opening beside the form', async () => {
    const user = userEvent.setup();
    render(
      <Field
        field={{
          _id: 'c',
          kind: 'consent',
          name: 'Terms',
          required: true,
          settings: { text: 'I agree to the [house rules](https://example.org/rules)' },
        }}
      />,
    );
    const box = screen.getByRole('checkbox', { name: /I agree to the house rules/ });
    expect(box).toHaveAttribute('aria-required', 'true');
    expect(screen.getByRole('link', { name: /house rules/ })).toHaveAttribute('target', '_blank');
    box.focus();
    await user.keyboard(' ');
    expect(value()).toBe('yes');
    await user.keyboard(' ');
    expect(value()).toBe('');
  });

  it('a statement asks nothing: a heading and its paragraphs, the owner’s markup as text', () => {
    render(
      <Field
        field={{
          _id: 'st',
          kind: 'statement',
          name: 'Before you start',
          required: false,
          settings: { text: 'First **bold** <i>x</i>\n\nSecond' },
        }}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Before you start' })).toBeInTheDocument();
    expect(screen.getByText('bold').tagName).toBe('STRONG');
    expect(screen.getByText(/<i>x<\/i>/)).toBeInTheDocument();
    expect(screen.getByText('Second').tagName).toBe('P');
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('a date question with a range bounds its picker and says the range', () => {
    render(
      <TextQuestion
        field={{
          _id: 'd',
          name: 'Arrival',
          type: 'date',
          required: true,
          dateRange: { earliest: '2026-12-01', latest: '2026-12-31' },
        }}
        value=""
        onChange={() => undefined}
      />,
    );
    const box = screen.getByLabelText(/Arrival/);
    expect(box).toHaveAttribute('min', '2026-12-01');
    expect(box).toHaveAttribute('max', '2026-12-31');
    expect(box).toHaveAccessibleDescription('A day from 2026-12-01 to 2026-12-31');
  });
});
