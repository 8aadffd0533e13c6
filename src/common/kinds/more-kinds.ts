// The kinds beyond the product's five, by kind: what settings each takes and what answer it accepts
// (docs/decisions/043-question-kinds.md). Used by the server when an owner changes a question and when a customer
// submits, and by the customer's page before it sends, so both hold the same rules.
import { z } from 'zod';
import type { MoreField, MoreKind } from '../question-schemas.ts';
import { gridAnswerSchema, GridSettingsSchema } from './grid-kind.ts';
import { numberAnswerSchema, NumberSettingsSchema } from './number-kind.ts';
import { RatingSettingsSchema, ScaleSettingsSchema, stepAnswerSchema } from './scale-kinds.ts';
import {
  consentAnswerSchema,
  ConsentSettingsSchema,
  StatementSettingsSchema,
  timeAnswerSchema,
  urlAnswerSchema,
} from './simple-kinds.ts';

/** Said of an answer sent for a statement. */
export const STATEMENT_TAKES_NO_ANSWER = 'This is a statement: it asks nothing, so it takes no answer';

/** The settings a kind takes; null for a kind that has none (time, web address). */
export function settingsSchemaOf(kind: MoreKind): z.ZodType | null {
  switch (kind) {
    case 'number':
      return NumberSettingsSchema;
    case 'rating':
      return RatingSettingsSchema;
    case 'scale':
      return ScaleSettingsSchema;
    case 'statement':
      return StatementSettingsSchema;
    case 'consent':
      return ConsentSettingsSchema;
    case 'grid':
      return GridSettingsSchema;
    case 'time':
    case 'url':
      return null;
  }
}

/**
 * The answer a question of these kinds accepts: text (`textObject`, or the page's post), but a grid's, the chosen
 * column by row (`gridObject`, or one radio group a row on the page).
 */
export function moreAnswerSchema(field: MoreField, required: boolean): z.ZodType {
  switch (field.kind) {
    case 'number':
      return numberAnswerSchema(field.settings, required);
    case 'rating':
      return stepAnswerSchema({ from: 1, to: field.settings.max }, required);
    case 'scale':
      return stepAnswerSchema(field.settings, required);
    case 'statement':
      return z.undefined({ error: STATEMENT_TAKES_NO_ANSWER }).optional();
    case 'consent':
      return consentAnswerSchema(required);
    case 'time':
      return timeAnswerSchema(required);
    case 'url':
      return urlAnswerSchema(required);
    case 'grid':
      return gridAnswerSchema(field.settings, required);
  }
}
