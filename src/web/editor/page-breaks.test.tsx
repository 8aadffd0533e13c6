import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { announced, cardItems, cards, ITEMS, order, renderEditor, serve } from './test-editor.tsx';

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('page breaks in the editor', () => {
  it('shows each page break as a card numbered by its page, and the conditions as read-only lines', async () => {
    serve();
    await renderEditor();
    expect(cards()).toEqual(['Your name', 'Do you need a room?', 'Page 2 · Your room', 'How many nights?']);
    expect(screen.getByRole('heading', { name: /Questions/ })).toHaveTextContent('Questions (3)');
    const page = cardItems()[2]!;
    expect(page).toHaveTextContent('Shown only if “Do you need a room?” is “Yes”');
    expect(cardItems()[3]).toHaveTextContent('Shown only if not “Do you need a room?” is not answered');
    expect(cardItems()[0]).not.toHaveTextContent('Shown only if');
  });

  it('adds a page break titled by the page it starts, sending the whole list with the version', async () => {
    const sent = serve();
    const user = await renderEditor();
    await user.click(screen.getByRole('button', { name: 'Add page break' }));
    await waitFor(() => expect(cards()).toContain('Page 3 · Page 3'));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.version).toBe(7);
    expect(sent[0]!.items.slice(0, 4)).toEqual(ITEMS);
    expect(sent[0]!.items[4]).toMatchObject({ kind: 'page', title: 'Page 3' });
    await waitFor(() => expect(announced()).toHaveTextContent("Page break 'Page 3' added"));
  });

  it('renames a page break in place', async () => {
    const sent = serve();
    const user = await renderEditor();
    await user.click(screen.getByRole('button', { name: 'Title: Your room. Click to edit' }));
    await user.clear(screen.getByRole('textbox', { name: 'Title' }));
    await user.keyboard('Where you sleep{Enter}');
    await waitFor(() => expect(cards()).toContain('Page 2 · Where you sleep'));
    expect(sent[0]!.items[2]).toEqual({ ...ITEMS[2], title: 'Where you sleep' });
    expect(screen.getByRole('button', { name: /^Title: Where you sleep/ })).toHaveFocus();
  });

  it('moves a question across a page break, and a page break over a question, keeping focus and saying so', async () => {
    const sent = serve();
    const user = await renderEditor();
    await user.click(screen.getByRole('button', { name: 'Move Do you need a room? down' }));
    expect(cards()).toEqual(['Your name', 'Page 2 · Your room', 'Do you need a room?', 'How many nights?']);
    expect(announced()).toHaveTextContent("Question 'Do you need a room?' moved down");
    expect(screen.getByRole('button', { name: 'Move Do you need a room? down' })).toHaveFocus();
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(order(sent[0]!)).toEqual(['name', 'room', 'stay', 'nights']);

    // Sent before the first move is answered or after: either way it goes from this editor's latest version.
    await user.click(screen.getByRole('button', { name: "Move page break 'Your room' down" }));
    expect(cards()).toEqual(['Your name', 'Do you need a room?', 'Page 2 · Your room', 'How many nights?']);
    expect(announced()).toHaveTextContent("Page break 'Your room' moved down");
    expect(screen.getByRole('button', { name: "Move page break 'Your room' down" })).toHaveFocus();
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toMatchObject({ version: 8 });
    expect(order(sent[1]!)).toEqual(['name', 'stay', 'room', 'nights']);
  });

  it('deletes a page break, focusing the next card', async () => {
    const sent = serve();
    const user = await renderEditor();
    await user.click(screen.getByRole('button', { name: "Delete page break 'Your room'" }));
    await waitFor(() => expect(cards()).toEqual(['Your name', 'Do you need a room?', 'How many nights?']));
    expect(order(sent[0]!)).toEqual(['name', 'stay', 'nights']);
    expect(announced()).toHaveTextContent("Page break 'Your room' deleted");
    expect(screen.getByRole('button', { name: /^Question: How many nights\?/ })).toHaveFocus();
  });

  it('shows a refusal in the save status and goes back to the server’s copy', async () => {
    const message = 'This form was changed somewhere else meanwhile. Reload it and try again.';
    const sent = serve({ status: 409, code: 'EDITED_MEANWHILE', message });
    const user = await renderEditor();
    await user.click(screen.getByRole('button', { name: "Move page break 'Your room' up" }));
    // The move shows at once (another test sees it); here the refusal may come back before a look could catch it.
    expect(await screen.findByRole('alert')).toHaveTextContent(`Not saved: ${message}`);
    await waitFor(() =>
      expect(cards()).toEqual(['Your name', 'Do you need a room?', 'Page 2 · Your room', 'How many nights?']),
    );
    // Sending the same list again would be refused again: the owner is offered the form as it is now instead.
    const alert = screen.getByRole('alert');
    expect(within(alert).queryByRole('button', { name: 'Retry' })).toBeNull();
    const reads = vi
      .mocked(fetch)
      .mock.calls.filter(([url]) => String(url).includes('singleFormForEdit')).length;
    await user.click(within(alert).getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(sent).toHaveLength(1);
    await waitFor(() =>
      expect(
        vi.mocked(fetch).mock.calls.filter(([url]) => String(url).includes('singleFormForEdit')).length,
      ).toBe(reads + 1),
    );
  });
});
