// Recall on the React page (issue 39): a later page's question names the customer's earlier answer or the link's
// hidden field in its title and help text, as text, and falls back when there is none.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyDraft } from '../storage/fill-storage.ts';
import { PageQuestions } from './page-questions.tsx';

const questions = [
  {
    kind: 'text' as const,
    field: {
      _id: 'email',
      name: 'Thanks, {{answer:name|friend}}: your email?',
      type: 'email' as const,
      required: false,
      help: 'We will write about {{hidden:ref|your booking}}',
    },
  },
];
const draw = (values: Record<string, string>, hidden?: Record<string, string>) =>
  render(
    <PageQuestions
      formId="f"
      questions={questions}
      draft={{ ...emptyDraft('f'), values, ...(hidden ? { hidden } : {}) }}
      errors={{}}
      setValue={() => undefined}
      setFile={() => undefined}
      setBusy={() => undefined}
    />,
  );

describe('recall on the page', () => {
  it('puts the earlier answer and the hidden field into the title and help text, as text', () => {
    draw({ name: '<i>Asha</i>' }, { ref: 'order 42' });
    const box = screen.getByRole('textbox', { name: 'Thanks, <i>Asha</i>: your email?' });
    expect(box).toHaveAccessibleDescription('We will write about order 42');
  });

  it('says the fallback when nothing was given', () => {
    draw({});
    expect(screen.getByRole('textbox', { name: 'Thanks, friend: your email?' })).toHaveAccessibleDescription(
      'We will write about your booking',
    );
  });
});
