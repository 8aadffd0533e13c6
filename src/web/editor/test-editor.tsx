// The editor's question list against a fake of the form's two routes: the form, and `PUT …/items`. For the tests of
// page breaks and conditions.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import type { Form } from '#common/forms.ts';
import type { FormItem } from '#common/logic/items.ts';
import { itemsInOrder } from './editor-items.ts';
import { QuestionList } from './question-list.tsx';
import { SaveStatus } from './save-status.tsx';
import { useFormEditor } from './use-form-editor.ts';

export const FID = '6f1c2a4e-0000-4000-8000-000000000038';
export const ITEMS: FormItem[] = [
  { kind: 'text', _id: 'name', name: 'Your name', type: 'text', required: true },
  {
    kind: 'radio',
    _id: 'stay',
    name: 'Do you need a room?',
    required: true,
    options: [
      { _id: 'y', value: 'Yes' },
      { _id: 'n', value: 'No' },
    ],
  },
  { kind: 'page', _id: 'room', title: 'Your room', condition: { question: 'stay', op: 'is', value: 'Yes' } },
  {
    kind: 'text',
    _id: 'nights',
    name: 'How many nights?',
    type: 'text',
    required: false,
    condition: { not: { question: 'stay', op: 'empty' } },
  },
];
const FORM = { _id: FID, formTitle: 'Stay', items: ITEMS, version: 7, fieldOrder: [] } as unknown as Form;

/**
 * The editor's routes as the server answers them: the form, and `PUT …/items`, which keeps what was sent (new ids
 * for new items) and raises the version, or gives `refusal` instead.
 */
export function serve(
  refusal?: { status: number; code: string; message: string },
  items = ITEMS,
  more: Partial<Form> = {},
) {
  let form = { ...FORM, items, ...more };
  const sent: { items: FormItem[]; version: number }[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    if (url.endsWith(`/api/singleFormForEdit/${FID}`)) return Response.json(form);
    if (!url.endsWith(`/api/v1/form/${FID}/items`) || init?.method !== 'PUT')
      return new Response('{}', { status: 404 });
    const body = JSON.parse(String(init.body)) as (typeof sent)[number];
    sent.push(body);
    if (refusal) return Response.json({ error: refusal }, { status: refusal.status });
    const items = body.items.map((item) => (item._id.startsWith('new-') ? { ...item, _id: 'p3' } : item));
    form = { ...form, items, version: form.version + 1 };
    return Response.json(form);
  });
  return sent;
}

function Editor() {
  const { form, edit, save } = useFormEditor(FID);
  if (!form.data) return null;
  return (
    <>
      <SaveStatus state={save} />
      <QuestionList
        fields={itemsInOrder(form.data)}
        version={form.data.version}
        onEdit={edit}
        hiddenFields={form.data.hiddenFields}
      />
    </>
  );
}

export async function renderEditor() {
  const client = new QueryClient({
    defaultOptions: { mutations: { retry: false }, queries: { retry: false } },
  });
  render(
    <QueryClientProvider client={client}>
      <Editor />
    </QueryClientProvider>,
  );
  await screen.findByRole('heading', { name: /^Questions/ });
  return userEvent.setup();
}

/** The cards as the owner reads them: a question by its name, a page break by its heading. */
export const cardItems = () =>
  screen.getAllByRole('listitem').filter((li) => li.parentElement?.classList.contains('field-list'));
export const cards = () =>
  cardItems().map((li) => {
    const heading = within(li).queryByRole('heading');
    return heading ? heading.textContent : within(li).getByRole('button', { name: /^Question:/ }).textContent;
  });
export const announced = () =>
  screen.getByText((_, el) => el?.matches('.visually-hidden[role="status"]') ?? false);
export const order = (body: { items: FormItem[] }) => body.items.map((item) => item._id);
