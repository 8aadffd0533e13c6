// The owner's texts a form is made of, as every call that takes them checks them: a question's and an option's name,
// the form's title, description and colours (the bounds are in question-schemas.ts). Re-exported by forms.ts.
import { z } from 'zod';
import {
  FIELD_NAME_MAX,
  FORM_DESCRIPTION_MAX,
  FORM_TITLE_MAX,
  OPTION_VALUE_MAX,
} from './question-schemas.ts';

export const HexColorSchema = z
  .string({ error: 'Colour must be a hex value such as #EAEAEA' })
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Colour must be a hex value such as #EAEAEA')
  .transform((hex) => hex.toUpperCase());

const trimmedName = (what: string, max: number) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} cannot be empty`)
    .max(max, `${what} must be at most ${max} characters`);

export const FieldNameSchema = trimmedName('Question', FIELD_NAME_MAX);
export const OptionValueSchema = trimmedName('Option', OPTION_VALUE_MAX);
export const FormTitleSchema = trimmedName('Title', FORM_TITLE_MAX);
export const DescriptionSchema = z
  .string()
  .trim()
  .max(FORM_DESCRIPTION_MAX, `Description must be at most ${FORM_DESCRIPTION_MAX} characters`);
