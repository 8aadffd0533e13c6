// The React page's path through a paged form (issue 39): the link's hidden fields, kept in the device's draft, decide
// the pages whose conditions test them, as the server decides.
import { describe, expect, it } from 'vitest';
import { pagesOf, type FormItem } from '#common/logic/items.ts';
import { pathOf } from './form-pages.ts';

const ITEMS: FormItem[] = [
  { kind: 'text', _id: 'name', name: 'Name', type: 'text', required: true },
  { kind: 'page', _id: 'pro', title: 'Pro', condition: { question: 'hidden:plan', op: 'is', value: 'pro' } },
  { kind: 'text', _id: 'company', name: 'Company', type: 'text', required: true },
];

describe('pathOf', () => {
  it('takes a page whose condition tests a hidden field only when the link filled it so', () => {
    const logic = pagesOf(ITEMS);
    const draft = { values: { name: 'Asha' }, files: {} };
    expect(pathOf(logic, { ...draft, hidden: { plan: 'pro' } }).pages).toEqual(['start', 'pro']);
    expect(pathOf(logic, { ...draft, hidden: { plan: 'free' } }).pages).toEqual(['start']);
    expect(pathOf(logic, draft).pages).toEqual(['start']);
  });
});
