import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FormItem } from '#common/logic/items.ts';
import { cardItems, ITEMS as TWO_PAGES, renderEditor, serve } from './test-editor.tsx';

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

const card = (name: RegExp) => cardItems().find((li) => name.test(li.textContent ?? '')) as HTMLElement;
const choices = (name: string) =>
  within(screen.getByRole('combobox', { name }))
    .getAllByRole('option')
    .map((o) => o.textContent);
const conditionOf = (body: { items: FormItem[] } | undefined, id: string) =>
  body?.items.find((item) => item._id === id)?.condition;

/** Three pages, with a question of each kind a condition can test on the first (the name and the room of the two-page form). */
const ITEMS: FormItem[] = [
  ...TWO_PAGES.slice(0, 2),
  {
    kind: 'check',
    _id: 'diet',
    name: 'Dietary needs',
    required: false,
    options: [
      { _id: 'v', value: 'Vegan' },
      { _id: 'h', value: 'Halal' },
    ],
  },
  { kind: 'file', _id: 'cv', name: 'Your CV', type: 'file', required: false },
  { kind: 'page', _id: 'room', title: 'Your room' },
  { kind: 'text', _id: 'nights', name: 'How many nights?', type: 'text', required: false },
  { kind: 'page', _id: 'end', title: 'Last words' },
  { kind: 'text', _id: 'note', name: 'Anything else?', type: 'text', required: false },
];

describe('the condition builder on a question', () => {
  it('offers the questions of earlier pages only, and the tests that fit each kind', async () => {
    serve(undefined, ITEMS);
    const user = await renderEditor();
    // A question on the first page has nothing before it to test.
    expect(within(card(/Your CV/)).queryByRole('button', { name: /condition/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Add condition of “Anything else?”' }));
    expect(choices('Question of rule 1')).toEqual([
      'Choose a question…',
      'Your name',
      'Do you need a room?',
      'Dietary needs',
      'Your CV',
      'How many nights?',
    ]);
    const question = screen.getByRole('combobox', { name: 'Question of rule 1' });
    const tests = {
      'Your name': ['is', 'is not', 'contains', 'is answered', 'is not answered'],
      'Dietary needs': ['includes', 'does not include', 'is answered', 'is not answered'],
      'Your CV': ['is answered', 'is not answered'],
    };
    for (const [name, words] of Object.entries(tests)) {
      await user.selectOptions(question, name);
      expect(choices('Test of rule 1')).toEqual(['Choose a test…', ...words]);
    }
    // A test that compares nothing asks for no value.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Test of rule 1' }), 'is answered');
    expect(screen.queryByRole('combobox', { name: 'Value of rule 1' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Value of rule 1' })).toBeNull();
  });

  it('saves a question’s condition, a single rule as the rule itself', async () => {
    const sent = serve(undefined, ITEMS);
    const user = await renderEditor();
    await user.click(screen.getByRole('button', { name: 'Add condition of “How many nights?”' }));
    expect(choices('Question of rule 1')).not.toContain('How many nights?');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Question of rule 1' }), 'Dietary needs');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Test of rule 1' }), 'does not include');
    expect(choices('Value of rule 1')).toEqual(['Choose an option…', 'Vegan', 'Halal']);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Value of rule 1' }), 'Halal');
    await user.click(screen.getByRole('button', { name: 'Save condition' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(conditionOf(sent[0], 'nights')).toEqual({ question: 'diet', op: 'excludes', value: 'Halal' });
    expect(
      await within(card(/How many nights/)).findByText(
        'Shown only if “Dietary needs” does not include “Halal”',
      ),
    ).toBeVisible();
  });
});

describe('the condition builder’s rules', () => {
  it('removes a rule by keyboard, keeps the focus in the builder, and saves what is left', async () => {
    const sent = serve(undefined, ITEMS);
    const user = await renderEditor();
    await user.click(screen.getByRole('button', { name: 'Add condition of page 3' }));
    const rule = async (n: number, question: string, test: string) => {
      await user.selectOptions(screen.getByRole('combobox', { name: `Question of rule ${n}` }), question);
      await user.selectOptions(screen.getByRole('combobox', { name: `Test of rule ${n}` }), test);
    };
    await rule(1, 'Your CV', 'is answered');
    await user.click(screen.getByRole('button', { name: 'Add a rule' }));
    await rule(2, 'Your name', 'is not answered');
    await user.click(screen.getByRole('button', { name: 'Add a rule' }));
    await rule(3, 'How many nights?', 'is answered');

    screen.getByRole('button', { name: 'Remove rule 2' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('combobox', { name: 'Question of rule 2' })).toHaveFocus();
    expect(screen.getByRole('combobox', { name: 'Question of rule 2' })).toHaveDisplayValue(
      'How many nights?',
    );
    expect(screen.queryByRole('combobox', { name: 'Question of rule 3' })).toBeNull();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Match' }), 'any of these rules');
    await user.click(screen.getByRole('button', { name: 'Save condition' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(conditionOf(sent[0], 'end')).toEqual({
      any: [
        { question: 'cv', op: 'answered' },
        { question: 'nights', op: 'answered' },
      ],
    });

    // Down to one rule, the builder neither asks how to join rules nor offers to remove the last one.
    await user.click(screen.getByRole('button', { name: 'Edit condition of page 3' }));
    await user.click(screen.getByRole('button', { name: 'Remove rule 2' }));
    expect(screen.getByRole('combobox', { name: 'Question of rule 1' })).toHaveFocus();
    expect(screen.queryByRole('combobox', { name: 'Match' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Remove rule/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save condition' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(conditionOf(sent[1], 'end')).toEqual({ question: 'cv', op: 'answered' });
  });

  it('Cancel sends nothing, gives the focus back to the button, and forgets the draft', async () => {
    const sent = serve(undefined, ITEMS);
    const user = await renderEditor();
    const add = screen.getByRole('button', { name: 'Add condition of page 2' });
    await user.click(add);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Question of rule 1' }), 'Your name');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('group', { name: /^Show page 2/ })).toBeNull();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Add condition of page 2' })).toHaveFocus(),
    );
    await user.keyboard('{Enter}');
    expect(screen.getByRole('group', { name: 'Show page 2 only if' })).toBeVisible();
    expect(screen.getByRole('combobox', { name: 'Question of rule 1' })).toHaveDisplayValue(
      'Choose a question…',
    );
    expect(sent).toEqual([]);
  });
});

describe('a condition the builder cannot save as it is', () => {
  it('asks again for a tested question no longer on an earlier page, or an option since gone', async () => {
    const sent = serve(undefined, [
      ...ITEMS.slice(0, 4),
      {
        kind: 'page',
        _id: 'room',
        title: 'Your room',
        condition: { question: 'stay', op: 'is', value: 'Maybe' },
      },
      {
        kind: 'text',
        _id: 'nights',
        name: 'How many nights?',
        type: 'text',
        required: false,
        condition: { question: 'note', op: 'answered' },
      },
      ...ITEMS.slice(6),
    ]);
    const user = await renderEditor();
    await user.click(screen.getByRole('button', { name: 'Edit condition of page 2' }));
    const value = screen.getByRole('combobox', { name: 'Value of rule 1' });
    expect(value).toHaveDisplayValue('Choose an option…');
    await user.click(screen.getByRole('button', { name: 'Save condition' }));
    expect(value).toHaveAccessibleDescription('Choose an option');
    expect(value).toHaveAttribute('aria-invalid', 'true');
    expect(value).toHaveFocus();
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'Edit condition of “How many nights?”' }));
    const question = screen.getByRole('combobox', { name: 'Question of rule 1' });
    expect(question).toHaveDisplayValue('Choose a question…');
    await user.click(screen.getByRole('button', { name: 'Save condition' }));
    expect(question).toHaveAccessibleDescription('Choose a question');
    expect(question).toHaveFocus();
    expect(sent).toEqual([]);
  });

  it('says on entering it that saving replaces a condition it cannot show, and Cancel keeps that one', async () => {
    const sent = serve();
    const user = await renderEditor();
    const line = 'Shown only if not “Do you need a room?” is not answered';
    await user.click(screen.getByRole('button', { name: 'Edit condition of “How many nights?”' }));
    expect(
      screen.getByRole('group', { name: 'Show “How many nights?” only if' }),
    ).toHaveAccessibleDescription('This condition was made outside the editor: saving here replaces it.');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(within(card(/How many nights/)).getByText(line)).toBeVisible();
    expect(sent).toEqual([]);
  });

  it('keeps the builder open when the server refuses the list, and says why where other failures are said', async () => {
    const message = 'Page 3 depends on “Anything else?”, which is not on an earlier page';
    const sent = serve({ status: 400, code: 'INVALID_BODY', message }, ITEMS);
    const user = await renderEditor();
    await user.click(screen.getByRole('button', { name: 'Add condition of page 3' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Question of rule 1' }), 'Your name');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Test of rule 1' }), 'is answered');
    await user.click(screen.getByRole('button', { name: 'Save condition' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(await screen.findByRole('alert')).toHaveTextContent(`Not saved: ${message}`);
    expect(screen.getByRole('group', { name: 'Show page 3 only if' })).toBeVisible();
    expect(screen.getByRole('combobox', { name: 'Question of rule 1' })).toHaveDisplayValue('Your name');
  });
});
