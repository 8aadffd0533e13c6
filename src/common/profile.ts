import { z } from 'zod';
import { PHONE_PATTERN } from './phone.ts';

const text = (label: string, max = 200) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`);

/**
 * The joining form ('/userForm', docs/product.md, Joining form): the owner's own details and two identity
 * documents.
 */
export const JoiningFormBodySchema = z.object({
  fullName: text('Full name', 100),
  email: z.union([z.literal(''), z.string().trim().pipe(z.email('Enter a valid email address'))]),
  phoneNumber: z.union([z.literal(''), z.string().trim().regex(PHONE_PATTERN, 'Enter a valid phone number')]),
  address1: text('Address line 1'),
  address2: text('Address line 2'),
  address3: text('Address line 3'),
  country: text('Country', 100),
  state: text('State', 100),
  city: text('City', 100),
  zip: text('Zip', 20),
  /** The `_id` of an upload made with the owner's token; omitted keeps the stored document, null removes it. */
  panCardId: z.string().max(100).nullable().optional(),
  aadharCardId: z.string().max(100).nullable().optional(),
});
export type JoiningFormBody = z.input<typeof JoiningFormBodySchema>;

export const DocumentViewSchema = z.object({
  url: z.string(),
  originalName: z.string(),
  mimeType: z.string(),
});

export const JoiningFormSchema = JoiningFormBodySchema.omit({ panCardId: true, aadharCardId: true }).extend({
  panCard: DocumentViewSchema.nullable(),
  aadharCard: DocumentViewSchema.nullable(),
  updatedAt: z.string().nullable(),
});
export type JoiningForm = z.infer<typeof JoiningFormSchema>;

/** The alerts for a wrong joining-form file (docs/product.md, Messages). */
export const documentTypeAlert = (document: 'Pan Card' | 'Aadhar Card') =>
  `Please select a valid image (JPEG, PNG, GIF) or PDF file for ${document}.`;
