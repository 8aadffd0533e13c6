import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FormItem } from '#common/logic/items.ts';
import { cardItems, ITEMS, renderEditor, serve } from './test-editor.tsx';

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

const card = (name: RegExp) => cardItems().find((li) => name.test(li.textContent ?? '')) as HTMLElement;
const conditionOf = (body: { items: FormItem[] } | undefined, id: string) =>
  body?.items.find((item) => item._id === id)?.condition;
/** The form of the other tests with a third page whose condition the owner builds. */
const WITH_LAST_PAGE: FormItem[] = [
  ...ITEMS,
  { kind: 'page', _id: 'end', title: 'Last words' },
  { kind: 'text', _id: 'note', name: 'Anything else?', type: 'text', required: false },
];

describe('the condition builder', () => {
  it('builds a page’s condition by keyboard from the questions of earlier pages, and saves it with the list', async () => {
    const sent = serve(undefined, WITH_LAST_PAGE);
    const user = await renderEditor();
    // The first page has nothing before it to test.
    expect(within(card(/Page 1|Your name/)).queryByRole('button', { name: /condition/ })).toBeNull();
    within(card(/Last words/))
      .getByRole('button', { name: 'Add condition of page 3' })
      .focus();
    await user.keyboard('{Enter}');
    const question = screen.getByRole('combobox', { name: 'Question of rule 1' });
    expect(question).toHaveFocus();
    expect(
      within(question)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose a question…', 'Your name', 'Do you need a room?', 'How many nights?']);
    await user.selectOptions(question, 'Do you need a room?');
    const test = screen.getByRole('combobox', { name: 'Test of rule 1' });
    // A choice question is tested by its options, or by being answered at all.
    expect(
      within(test)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose a test…', 'is', 'is not', 'is answered', 'is not answered']);
    await user.selectOptions(test, 'is not');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Value of rule 1' }), 'Yes');
    // A second rule on a text question compares with text typed in.
    await user.click(screen.getByRole('button', { name: 'Add a rule' }));
    expect(screen.getByRole('combobox', { name: 'Question of rule 2' })).toHaveFocus();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Question of rule 2' }), 'Your name');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Test of rule 2' }), 'contains');
    await user.type(screen.getByRole('textbox', { name: 'Value of rule 2' }), ' Ann ');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Match' }), 'any of these rules');
    await user.click(screen.getByRole('button', { name: 'Save condition' }));

    await waitFor(() => expect(sent).toHaveLength(1));
    expect(conditionOf(sent[0], 'end')).toEqual({
      any: [
        { question: 'stay', op: 'isNot', value: 'Yes' },
        { question: 'name', op: 'contains', value: 'Ann' },
      ],
    });
    expect(
      await within(card(/Last words/)).findByText(
        'Shown only if “Do you need a room?” is not “Yes” or “Your name” contains “Ann”',
      ),
    ).toBeVisible();
    await waitFor(() =>
      expect(within(card(/Last words/)).getByRole('button', { name: /^Edit condition/ })).toHaveFocus(),
    );
  });

  it('gives the focus back to its button even when a frame comes before the button is drawn again', async () => {
    // A busy machine: the next frame runs before React commits the closing (a save's answer closes the builder).
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((run) => {
      run(0);
      return 0;
    });
    const sent = serve(undefined, WITH_LAST_PAGE);
    const user = await renderEditor();
    await user.click(within(card(/Last words/)).getByRole('button', { name: 'Add condition of page 3' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Question of rule 1' }), 'Your name');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Test of rule 1' }), 'is answered');
    await user.click(screen.getByRole('button', { name: 'Save condition' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    await waitFor(() =>
      expect(within(card(/Last words/)).getByRole('button', { name: /^Edit condition/ })).toHaveFocus(),
    );
  });

  it('says what a rule lacks, in place, and sends nothing until it is complete; Escape cancels', async () => {
    const sent = serve(undefined, WITH_LAST_PAGE);
    const user = await renderEditor();
    await user.click(within(card(/Last words/)).getByRole('button', { name: 'Add condition of page 3' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Question of rule 1' }), 'Your name');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Test of rule 1' }), 'is');
    await user.click(screen.getByRole('button', { name: 'Save condition' }));
    const value = screen.getByRole('textbox', { name: 'Value of rule 1' });
    expect(value).toHaveAttribute('aria-invalid', 'true');
    expect(value).toHaveAccessibleDescription('Give a value to compare with');
    expect(value).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: /Show page 3/ })).toBeNull();
    expect(sent).toEqual([]);
  });

  it('edits a condition it can show, replaces one it cannot only when saved, and removes one', async () => {
    const sent = serve();
    const user = await renderEditor();
    await user.click(within(card(/Your room/)).getByRole('button', { name: 'Edit condition of page 2' }));
    expect(screen.getByRole('combobox', { name: 'Question of rule 1' })).toHaveDisplayValue(
      'Do you need a room?',
    );
    expect(screen.getByRole('combobox', { name: 'Value of rule 1' })).toHaveDisplayValue('Yes');
    await user.click(screen.getByRole('button', { name: 'Remove condition' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(conditionOf(sent[0], 'room')).toBeUndefined();

    // “not (… is not answered)” is more than rules joined by all or any: the builder says it would replace it.
    await user.click(
      within(card(/How many nights/)).getByRole('button', { name: /^Edit condition of “How many/ }),
    );
    expect(
      screen.getByText('This condition was made outside the editor: saving here replaces it.'),
    ).toBeVisible();
    expect(screen.getByRole('combobox', { name: 'Question of rule 1' })).toHaveDisplayValue(
      'Choose a question…',
    );
  });
});

describe('the logic check and deletions that change a condition', () => {
  it('names the condition before deleting an option it tests, and deletes both together', async () => {
    const sent = serve();
    const user = await renderEditor();
    await user.click(screen.getByRole('button', { name: 'Remove option Yes' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete option “Yes”?' });
    expect(dialog).toHaveTextContent('Page 2: Shown only if “Do you need a room?” is “Yes”');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    // Back on the button that asked as soon as the dialog is gone, not a frame later.
    expect(screen.getByRole('button', { name: 'Remove option Yes' })).toHaveFocus();
    expect(sent).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Remove option Yes' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    const stay = sent[0]?.items.find((item) => item._id === 'stay');
    expect(stay && 'options' in stay ? stay.options.map((o) => o.value) : []).toEqual(['No']);
    expect(conditionOf(sent[0], 'room')).toBeUndefined();
    expect(conditionOf(sent[0], 'nights')).toEqual({ not: { question: 'stay', op: 'empty' } });
  });

  it('names every condition before deleting a question they test', async () => {
    const sent = serve();
    const user = await renderEditor();
    await user.click(screen.getByRole('button', { name: 'Delete question Do you need a room?' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete question “Do you need a room?”?' });
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Page 2: Shown only if “Do you need a room?” is “Yes”',
      '“How many nights?”: Shown only if not “Do you need a room?” is not answered',
    ]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.items.map((i) => [i._id, i.condition])).toEqual([
      ['name', undefined],
      ['room', undefined],
      ['nights', undefined],
    ]);
  });

  it('renames an option in the conditions that test it, in the same save', async () => {
    const sent = serve();
    const user = await renderEditor();
    await user.click(screen.getByRole('button', { name: /^Option of Do you need a room\?: Yes/ }));
    await user.clear(screen.getByRole('textbox', { name: 'Option of Do you need a room?' }));
    await user.type(
      screen.getByRole('textbox', { name: 'Option of Do you need a room?' }),
      'Yes please{Enter}',
    );
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(conditionOf(sent[0], 'room')).toEqual({ question: 'stay', op: 'is', value: 'Yes please' });
  });

  it('shows what the logic check finds beside the page it is about, with a count above the list', async () => {
    serve(undefined, [
      ...ITEMS.slice(0, 2),
      {
        kind: 'page',
        _id: 'room',
        title: 'Your room',
        condition: {
          all: [
            { question: 'stay', op: 'is', value: 'Yes' },
            { question: 'stay', op: 'is', value: 'No' },
          ],
        },
      },
      { kind: 'text', _id: 'nights', name: 'How many nights?', type: 'text', required: true },
    ]);
    await renderEditor();
    expect(within(card(/Your room/)).getByRole('listitem')).toHaveTextContent(
      'Note: No answers can reach page 2: its condition never holds',
    );
    expect(screen.getByText(/^Logic check: 0 problems, 1 note/)).toBeVisible();
  });

  it('compares a date question with a day picked in a date box, on or after it', async () => {
    const items: FormItem[] = [
      { kind: 'text', _id: 'arrival', name: 'Arrival', type: 'date', required: true },
      { kind: 'page', _id: 'winter', title: 'Winter' },
      { kind: 'text', _id: 'festival', name: 'Joining the festival?', type: 'text', required: false },
    ];
    const sent = serve(undefined, items);
    const user = await renderEditor();
    await user.click(within(card(/Winter/)).getByRole('button', { name: 'Add condition of page 2' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Question of rule 1' }), 'Arrival');
    const test = screen.getByRole('combobox', { name: 'Test of rule 1' });
    expect(
      within(test)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'Choose a test…',
      'is',
      'is not',
      'is at least',
      'is at most',
      'is answered',
      'is not answered',
    ]);
    await user.selectOptions(test, 'is at least');
    const day = screen.getByLabelText('Value of rule 1');
    expect(day).toHaveAttribute('type', 'date');
    await user.type(day, '2026-12-01');
    await user.click(screen.getByRole('button', { name: 'Save condition' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(conditionOf(sent[0], 'winter')).toEqual({
      question: 'arrival',
      op: 'atLeast',
      value: '2026-12-01',
    });
  });

  it('tests a grid’s row by its choices, read as “Row: Column”', async () => {
    const items: FormItem[] = [
      {
        kind: 'grid',
        _id: 'rate',
        name: 'Rate us',
        required: false,
        settings: { rows: ['Speed', 'Price'], columns: ['Poor', 'Good'] },
      },
      { kind: 'page', _id: 'sorry', title: 'Sorry' },
      { kind: 'text', _id: 'what', name: 'What went wrong?', type: 'text', required: false },
    ];
    const sent = serve(undefined, items);
    const user = await renderEditor();
    await user.click(within(card(/Sorry/)).getByRole('button', { name: 'Add condition of page 2' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Question of rule 1' }), 'Rate us');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Test of rule 1' }), 'includes');
    const value = screen.getByRole('combobox', { name: 'Value of rule 1' });
    expect(
      within(value)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose an option…', 'Speed: Poor', 'Speed: Good', 'Price: Poor', 'Price: Good']);
    await user.selectOptions(value, 'Price: Poor');
    await user.click(screen.getByRole('button', { name: 'Save condition' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(conditionOf(sent[0], 'sorry')).toEqual({
      question: 'rate',
      op: 'includes',
      value: '["Price","Poor"]',
    });
    expect(
      await within(card(/Sorry/)).findByText('Shown only if “Rate us” includes “Price: Poor”'),
    ).toBeVisible();
  });

  it('tests the link’s hidden fields from the second page on, as text', async () => {
    const sent = serve(undefined, WITH_LAST_PAGE, { hiddenFields: ['ref'] });
    const user = await renderEditor();
    await user.click(within(card(/Last words/)).getByRole('button', { name: 'Add condition of page 3' }));
    const question = screen.getByRole('combobox', { name: 'Question of rule 1' });
    expect(within(question).getByRole('option', { name: 'Hidden field: ref' })).toBeInTheDocument();
    await user.selectOptions(question, 'Hidden field: ref');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Test of rule 1' }), 'contains');
    await user.type(screen.getByRole('textbox', { name: 'Value of rule 1' }), 'crm');
    await user.click(screen.getByRole('button', { name: 'Save condition' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(conditionOf(sent[0], 'end')).toEqual({ question: 'hidden:ref', op: 'contains', value: 'crm' });
    expect(
      await within(card(/Last words/)).findByText('Shown only if “hidden field ref” contains “crm”'),
    ).toBeVisible();
  });
});
