import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { FormResults } from '#common/results.ts';
import { ResultsView } from './results-view.tsx';

const days = Array.from({ length: 30 }, (_, i) => ({
  day: `2026-11-${String(i + 1).padStart(2, '0')}`,
  responses: i === 29 ? 3 : 0,
  views: i === 29 ? 8 : 0,
}));

const results: FormResults = {
  formId: 'f1',
  formTitle: 'Hotel booking',
  responses: 3,
  views: 8,
  completionRate: 0.375,
  days,
  questions: [
    {
      kind: 'radio',
      fieldId: 'meal',
      name: 'Meal',
      answered: 3,
      shownTo: 3,
      options: [
        { value: 'Vegetarian', count: 1, percent: 33.3, offered: true },
        { value: 'Non-veg', count: 0, percent: 0, offered: true },
        { value: 'Veg', count: 2, percent: 66.7, offered: false },
      ],
    },
    {
      kind: 'text',
      fieldId: 'name',
      name: 'Name',
      answered: 3,
      shownTo: 3,
      latest: [
        {
          submissionId: 's3',
          createdAt: '2026-11-30T04:30:00.000Z',
          Date: '11/30/2026, 10:00:00 AM',
          value: 'Asha',
        },
      ],
    },
    { kind: 'file', fieldId: 'proof', name: 'ID proof', answered: 2, shownTo: 3 },
    // On a page only some responses reached (a branching form).
    { kind: 'text', fieldId: 'nights', name: 'Nights', answered: 1, shownTo: 2, latest: [] },
  ],
};

describe('the Results view', () => {
  it('gives each chart a table with a caption and headers, and links each latest answer to its response', () => {
    render(
      <MemoryRouter>
        <ResultsView results={results} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Hotel booking' })).toBeInTheDocument();
    expect(screen.getByText('37.5%')).toBeInTheDocument();

    const meal = screen.getByRole('table', { name: 'Meal: responses per option' });
    const rows = within(meal).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      'Vegetarian133.3%',
      'Non-veg00%',
      'Veg (no longer offered)266.7%',
    ]);
    expect(within(meal).getByRole('rowheader', { name: 'Vegetarian' })).toBeInTheDocument();

    const perDay = screen.getByRole('table', { name: 'Responses and views per day, last 30 days' });
    expect(within(perDay).getAllByRole('row')).toHaveLength(31);
    expect(within(perDay).getByRole('rowheader', { name: 'Nov 30' }).closest('tr')).toHaveTextContent(
      'Nov 3038',
    );

    expect(screen.getByRole('link', { name: 'Asha' })).toHaveAttribute('href', '/submitedForm/s3');
    expect(screen.getByText('2 of 3 responses with a file')).toBeInTheDocument();
    expect(screen.getByText('Shown to 2 of 3 responses · 1 answered')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Responses list' })).toHaveAttribute('href', '/formList?fid=f1');
  });

  it('lets the owner’s words (title, questions, options, answers) take their own direction: Arabic reads right to left', () => {
    const { container } = render(
      <MemoryRouter>
        <ResultsView results={results} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Hotel booking' })).toHaveAttribute('dir', 'auto');
    expect(screen.getByRole('heading', { level: 3, name: 'Meal' })).toHaveAttribute('dir', 'auto');
    expect(screen.getByRole('link', { name: 'Asha' })).toHaveAttribute('dir', 'auto');
    // An option's label is isolated beside its badge and in the table's row header.
    expect([...container.querySelectorAll('.bar-label bdi')].map((b) => b.textContent)).toEqual([
      'Vegetarian',
      'Non-veg',
      'Veg',
    ]);
  });

  it('shows a dash for the completion rate before any view is counted', () => {
    render(
      <MemoryRouter>
        <ResultsView results={{ ...results, views: 0, completionRate: null }} />
      </MemoryRouter>,
    );
    expect(screen.getByText('No views counted yet')).toBeInTheDocument();
  });

  it('stops the completion rate at 100% and says why when responses outnumber counted views', () => {
    render(
      <MemoryRouter>
        <ResultsView results={{ ...results, responses: 10, views: 8, completionRate: 1.25 }} />
      </MemoryRouter>,
    );
    expect(screen.getByText('100%')).toBeInTheDocument();
    expect(screen.queryByText('125%')).toBeNull();
    expect(
      screen.getByText(
        'More responses than counted views: some came from a page kept on the phone or the API',
      ),
    ).toBeInTheDocument();
  });
});
