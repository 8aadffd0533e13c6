import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { editorItemsOf } from './editor-items.ts';
import { ITEMS } from './test-editor.tsx';
import { TryPath } from './try-path.tsx';

const pagesRead = () =>
  within(screen.getByRole('list'))
    .getAllByRole('listitem')
    .map((li) => li.textContent);

describe('try a path', () => {
  it('shows which pages and questions a set of answers reaches, as the customer’s page would', async () => {
    const user = userEvent.setup();
    render(<TryPath items={editorItemsOf(ITEMS)} />);
    await user.click(screen.getByText('Try a path'));
    // Unanswered: the room page is skipped; the nights question waits on an answer to the room question.
    expect(pagesRead()).toEqual(['Page 1 — shown', 'Page 2 · Your room — skipped']);
    const stay = screen.getByRole('combobox', { name: 'Do you need a room?' });
    await user.selectOptions(stay, 'Yes');
    expect(pagesRead()).toEqual(['Page 1 — shown', 'Page 2 · Your room — shown']);
    await user.selectOptions(stay, 'No');
    expect(pagesRead()).toEqual(['Page 1 — shown', 'Page 2 · Your room — skipped']);
  });

  it('is not offered on a form without pages or conditions', () => {
    const { container } = render(<TryPath items={editorItemsOf(ITEMS.slice(0, 2))} />);
    expect(container).toBeEmptyDOMElement();
  });
});
