import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testForm } from '../test-form.ts';
import { FormHeading } from './form-heading.tsx';

const form = (description: string) => testForm({ formTitle: 'Open day', description });

describe('FormHeading', () => {
  it("links the description's web addresses, opening beside the form, as the server's page does", () => {
    render(<FormHeading form={form('Map: https://example.org/map. Parking javascript:alert(1)')} />);
    // (jsdom's accessible name drops the space before the hidden note; a browser reads it.)
    const link = screen.getByRole('link', { name: /^https:\/\/example\.org\/map ?\(opens in a new tab\)$/ });
    expect(link).toHaveAttribute('href', 'https://example.org/map');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow ugc');
    expect(screen.getAllByRole('link')).toHaveLength(1);
    expect(link.parentElement).toHaveTextContent(
      'Map: https://example.org/map (opens in a new tab). Parking javascript:alert(1)',
    );
  });
});
