import type { FieldDefinition, TemplateId } from './forms.ts';
import type { ConditionOperator } from './logic/conditions.ts';
import type { FormItem } from './logic/items.ts';

/**
 * A page break of a template: the page starting at question `from` (an index of `fields`), shown only when question
 * `when.field` answers as `when` says, if given.
 */
type TemplatePage = {
  title: string;
  from: number;
  when?: { field: number; op: ConditionOperator; value?: string };
};

type Template = {
  label: string;
  formTitle: string;
  description: string;
  color: string;
  border: string;
  fields: FieldDefinition[];
  /** Where a template with branching starts its pages, and the one line the gallery says about them. */
  pages?: { breaks: TemplatePage[]; summary: string };
};

const name: FieldDefinition = { kind: 'text', name: 'Full name', type: 'text', required: true };
const email: FieldDefinition = { kind: 'text', name: 'Email', type: 'email', required: true };
const phone = (required: boolean): FieldDefinition => ({
  kind: 'text',
  name: 'Phone',
  type: 'tel',
  required,
});

/**
 * The templates' titles and colours (docs/product.md, Limits and constants); the starting questions are ours
 * (docs/spec-deviations.md). The original travel title 'TravelBooking From' is a misspelling of the card's
 * own label and is corrected.
 */
export const FORM_TEMPLATES: Record<TemplateId, Template> = {
  blank: {
    label: 'Create New',
    formTitle: 'Untitled',
    description: 'From Description',
    color: '#EAEAEA',
    border: '#00D78B',
    fields: [],
  },
  contact: {
    label: 'Contact Information',
    formTitle: 'Contact Information',
    description: 'Tell us how to reach you and what you need; we reply within one working day.',
    color: '#F7F7F7',
    border: '#00D78B',
    fields: [name, email, phone(false), { kind: 'text', name: 'Message', type: 'textarea', required: true }],
  },
  travel: {
    label: 'Travel Booking Form',
    formTitle: 'Travel Booking Form',
    description: 'Book your trip: where, when and who is travelling.',
    color: '#ADFFBA',
    border: '#25D942',
    fields: [
      name,
      email,
      phone(true),
      { kind: 'text', name: 'Destination', type: 'text', required: true },
      { kind: 'text', name: 'Travel date', type: 'date', required: true },
      { kind: 'select', name: 'Travellers', required: true, options: ['1', '2', '3', '4', '5 or more'] },
      { kind: 'file', name: 'ID document (passport or national ID)', required: true },
    ],
  },
  event: {
    label: 'Event Booking Form',
    formTitle: 'Event Booking Form',
    description: 'Reserve your place: pick your ticket and tell us what you need.',
    color: '#FFD3BC',
    border: '#EB996E',
    fields: [
      name,
      email,
      { kind: 'text', name: 'Event', type: 'text', required: true },
      { kind: 'radio', name: 'Ticket type', required: true, options: ['Standard', 'VIP', 'Student'] },
      { kind: 'radio', name: 'Do you need accommodation?', required: true, options: ['Yes', 'No'] },
      { kind: 'select', name: 'Nights', required: true, options: ['1', '2', '3', '4 or more'] },
      { kind: 'radio', name: 'Room', required: true, options: ['Single', 'Double', 'Twin'] },
      { kind: 'text', name: 'Arrival date', type: 'date', required: true },
      {
        kind: 'check',
        name: 'Dietary needs',
        required: false,
        options: ['Vegetarian', 'Vegan', 'Gluten-free', 'Nut allergy'],
      },
      { kind: 'text', name: 'Anything else we should know?', type: 'textarea', required: false },
    ],
    // The branching a new owner meets first: the stay is asked only of those who need a room.
    pages: {
      breaks: [
        { title: 'Your booking', from: 0 },
        { title: 'Your stay', from: 5, when: { field: 4, op: 'is', value: 'Yes' } },
        { title: 'Anything else', from: 8 },
      ],
      summary: 'On three pages: “Your stay” is asked only of those who need accommodation.',
    },
  },
};

/**
 * The items a template's form starts with: its questions with the page breaks and conditions of its pages (ids
 * local to the template; the form gets ids of its own when it is made), or undefined for a template on one page.
 */
const valueOf = ({ value }: { value?: string }) => (value === undefined ? {} : { value });

export function templateItems(template: Template): FormItem[] | undefined {
  if (!template.pages) return undefined;
  const id = (index: number) => `q${index}`;
  const items: FormItem[] = [];
  template.fields.forEach((field, index) => {
    const starts = template.pages?.breaks.find((b) => b.from === index);
    if (starts) {
      const { when } = starts;
      items.push({
        kind: 'page',
        _id: `p${index}`,
        title: starts.title,
        ...(when ? { condition: { question: id(when.field), op: when.op, ...valueOf(when) } } : {}),
      });
    }
    const base = { _id: id(index), name: field.name, required: field.required };
    if (field.kind === 'text') items.push({ ...base, kind: 'text', type: field.type });
    else if (field.kind === 'file') items.push({ ...base, kind: 'file', type: 'file' });
    else if (!('options' in field)) items.push({ ...field, _id: id(index) });
    else
      items.push({
        ...base,
        kind: field.kind,
        options: field.options.map((value, o) => ({ _id: `${id(index)}o${o}`, value })),
      });
  });
  return items;
}
