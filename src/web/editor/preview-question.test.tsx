// The editor's Preview draws a question as the customer sees it: its help text, and what it takes (a file question's
// types, size and count, a number's bounds, a date's range), each named as its control's description.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { QuestionItem } from '#common/logic/items.ts';
import type { EditorField } from './fields-in-order.ts';
import { PreviewQuestion } from './preview-question.tsx';

const question = (field: Partial<EditorField> & Pick<EditorField, 'kind' | 'name'>): EditorField => ({
  _id: 'q1',
  required: false,
  ...field,
});

describe('a question in the editor’s Preview', () => {
  it('takes several files of the chosen types, and says so under the picker', () => {
    render(
      <PreviewQuestion
        field={question({
          kind: 'file',
          name: 'Photos of the damage',
          help: 'From two sides if you can',
          rules: { types: ['image'], maxBytes: 2_000_000, maxFiles: 3 },
        })}
      />,
    );
    const picker = screen.getByLabelText('Photos of the damage');
    expect(picker).toHaveAttribute('multiple');
    expect(picker).toHaveAttribute('accept', '.jpg,.jpeg,.png');
    expect(picker).toHaveAccessibleDescription(
      'From two sides if you can Up to 3 files: JPEG or PNG, up to 2 MB each',
    );
  });

  it('takes one file of any accepted type when the question has no rules', () => {
    render(<PreviewQuestion field={question({ kind: 'file', name: 'ID proof' })} />);
    const picker = screen.getByLabelText('ID proof');
    expect(picker).not.toHaveAttribute('multiple');
    expect(picker).toHaveAccessibleDescription('JPEG, PNG or PDF');
  });

  it('says a number’s bounds and a date’s range under the box', () => {
    const number = {
      _id: 'n1',
      kind: 'number',
      name: 'Guests',
      required: true,
      settings: { min: 1, max: 8, decimals: false },
    } as unknown as QuestionItem;
    render(
      <>
        <PreviewQuestion field={question({ _id: 'n1', kind: 'number', name: 'Guests', source: number })} />
        <PreviewQuestion
          field={question({
            _id: 'd1',
            kind: 'text',
            type: 'date',
            name: 'Arrival',
            dateRange: { earliest: '2026-12-01', latest: '2026-12-31' },
          })}
        />
      </>,
    );
    expect(screen.getByLabelText('Guests')).toHaveAccessibleDescription('A whole number, from 1 to 8');
    expect(screen.getByLabelText('Arrival')).toHaveAccessibleDescription(
      'A day from 2026-12-01 to 2026-12-31',
    );
  });
});
