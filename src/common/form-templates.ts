import type { FieldDefinition, TemplateId } from './forms.ts';

type Template = {
  label: string;
  formTitle: string;
  description: string;
  color: string;
  border: string;
  fields: FieldDefinition[];
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
      {
        kind: 'check',
        name: 'Dietary needs',
        required: false,
        options: ['Vegetarian', 'Vegan', 'Gluten-free', 'Nut allergy'],
      },
    ],
  },
};
