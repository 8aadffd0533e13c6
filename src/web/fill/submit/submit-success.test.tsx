import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { FormUnavailable } from '../page/form-unavailable.tsx';
import { SubmitSuccess } from './submit-success.tsx';

const form = { formTitle: 'Beach clean-up', thankYouMessage: null, redirectUrl: null };

describe('the thank-you screen', () => {
  it('shows the owner’s thank-you message and the way to answer again', () => {
    render(<SubmitSuccess form={{ ...form, thankYouMessage: 'See you Saturday!' }} onRestart={vi.fn()} />);
    expect(screen.getByRole('heading', { name: 'Submitted successfully' })).toHaveFocus();
    expect(screen.getByText('See you Saturday!')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit another response' })).toBeInTheDocument();
  });

  it('says where the customer is going next, with a link that goes at once', () => {
    render(
      <SubmitSuccess form={{ ...form, redirectUrl: 'https://example.org/next?a=1' }} onRestart={vi.fn()} />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Taking you to example.org in 5 seconds…');
    expect(screen.getByRole('link', { name: 'Continue now' })).toHaveAttribute(
      'href',
      'https://example.org/next?a=1',
    );
  });

  it('never follows an address that is not http or https', () => {
    render(<SubmitSuccess form={{ ...form, redirectUrl: 'javascript:alert(1)' }} onRestart={vi.fn()} />);
    expect(screen.queryByRole('link', { name: 'Continue now' })).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });
});

describe('a closed form', () => {
  it('shows the owner’s closed message', () => {
    render(<FormUnavailable reason="closed" message="We have enough volunteers." />);
    expect(screen.getByRole('heading', { name: 'This form is closed' })).toBeInTheDocument();
    expect(screen.getByText('We have enough volunteers.')).toBeInTheDocument();
  });

  it('says when a form that is not open yet opens', () => {
    render(
      <FormUnavailable
        reason="closed"
        message="This form is not open yet. It opens on 12/1/2026, 9:00:00 AM."
      />,
    );
    expect(screen.getByRole('heading', { name: 'This form is not open yet' })).toBeInTheDocument();
    expect(screen.getByText(/It opens on 12\/1\/2026, 9:00:00 AM\./)).toBeInTheDocument();
  });

  it('names the form it is, its title on its colours, when its look is known', () => {
    const look = { _id: 'f1', formTitle: 'Beach clean-up', color: '#123456', border: '#ABCDEF' };
    const { container } = render(
      <FormUnavailable reason="closed" message="We have enough volunteers." look={look} />,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Beach clean-up' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'This form is closed' })).toBeInTheDocument();
    const page = container.querySelector<HTMLElement>('.fill-page');
    expect(page?.style.getPropertyValue('--fill-bg')).toBe('#123456');
  });
});
