import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ChoiceGroup } from './choice-group.tsx';
import { SelectQuestion } from './select-question.tsx';
import { TextQuestion } from './text-question.tsx';

const options = [
  { _id: 'o1', value: 'Yes' },
  { _id: 'o2', value: 'No' },
];

describe('a question’s help text on the page', () => {
  it('shows under the title as text, and is what the answer box is described by, before its error', () => {
    render(
      <TextQuestion
        field={{
          _id: 't1',
          name: 'Full name',
          type: 'text',
          required: true,
          help: 'As on <b>your</b> passport',
        }}
        value=""
        error="This question is required"
        onChange={() => undefined}
      />,
    );
    const box = screen.getByRole('textbox', { name: /Full name/ });
    expect(box).toHaveAccessibleDescription('As on <b>your</b> passport This question is required');
    expect(screen.getByText('As on <b>your</b> passport')).toHaveClass('fill-help');
  });

  it('describes a dropdown and a radio group the same way, and nothing is added without one', () => {
    render(
      <>
        <SelectQuestion
          field={{
            _id: 's1',
            name: 'Nights',
            required: false,
            options,
            help: 'Count the nights, not the days',
          }}
          value=""
          onChange={() => undefined}
        />
        <ChoiceGroup
          field={{ _id: 'r1', name: 'Need a room?', required: true, options, help: 'Rooms are shared' }}
          multiple={false}
          value=""
          onChange={() => undefined}
        />
        <ChoiceGroup
          field={{ _id: 'c1', name: 'Extras', required: false, options }}
          multiple
          value={[]}
          onChange={() => undefined}
        />
      </>,
    );
    expect(screen.getByRole('combobox', { name: /Nights/ })).toHaveAccessibleDescription(
      'Count the nights, not the days',
    );
    expect(screen.getByRole('radiogroup', { name: /Need a room/ })).toHaveAccessibleDescription(
      'Rooms are shared',
    );
    expect(screen.getByRole('group', { name: /Extras/ })).not.toHaveAttribute('aria-describedby');
  });
});
