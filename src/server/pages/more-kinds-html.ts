// The kinds beyond the product's five as the server draws them for the page without JavaScript
// (docs/decisions/043-question-kinds.md): the markup of the React page's more-kinds components, so the take-over
// moves nothing. A number is a text box that opens the phone's number pad; a rating and a scale are radio groups
// (one tab stop, arrow keys); a consent is one checkbox; a statement asks nothing.
import { TEXT_ANSWER_MAX } from '#common/answer-limits.ts';
import type { MoreField } from '#common/forms.ts';
import { gridRowInput } from '#common/kinds/grid-kind.ts';
import { CONSENT_GIVEN, numberHint, stepRangeOf, stepsOf } from '#common/kinds/kind-hints.ts';
import { statementParagraphs, type StatementPiece } from '#common/kinds/statement-text.ts';
import { NEW_TAB_NOTE, OWNER_LINK_REL } from '#common/text-links.ts';
import { controlId, firstOptionId } from './error-summary-html.ts';
import { gridQuestionHtml } from './grid-html.ts';
import { escapeHtml as e } from './html.ts';
import {
  attrs,
  describedBy,
  errorId,
  errorOf,
  helpIdOf,
  helpOf,
  hintId,
  label,
} from './question-parts-html.ts';

const pieceHtml = (p: StatementPiece) => {
  const text = p.bold ? `<strong>${e(p.text)}</strong>` : e(p.text);
  return p.href === undefined
    ? text
    : `<a href="${e(p.href)}" rel="${OWNER_LINK_REL}" target="_blank">${text}<span class="visually-hidden">${NEW_TAB_NOTE}</span></a>`;
};
const paragraphsHtml = (text: string) =>
  statementParagraphs(text)
    .map((pieces) => `<p dir="auto">${pieces.map(pieceHtml).join('')}</p>`)
    .join('');
/** Inside a label (a consent's), where a paragraph may not go: the paragraphs separated by line breaks. */
const inlineHtml = (text: string) =>
  statementParagraphs(text)
    .map((pieces) => pieces.map(pieceHtml).join(''))
    .join('<br>');

/** A question with one text box: a number (with its unit), a time or a web address. */
function boxQuestion(field: MoreField, value: string, error: string | undefined): string {
  const id = field._id;
  const hint = field.kind === 'number' ? numberHint(field.settings) : '';
  const unit = field.kind === 'number' ? field.settings.unit : undefined;
  const input = attrs({
    id: controlId(id),
    name: id,
    class: 'input',
    dir: field.kind === 'number' || field.kind === 'time' ? undefined : 'auto',
    type: field.kind === 'time' ? 'time' : field.kind === 'url' ? 'url' : 'text',
    inputmode: field.kind === 'number' ? (field.settings.decimals ? 'decimal' : 'numeric') : undefined,
    autocomplete: field.kind === 'url' ? 'url' : undefined,
    maxlength: field.kind === 'time' ? undefined : String(TEXT_ANSWER_MAX),
    value: value || undefined,
    'aria-required': field.required ? 'true' : undefined,
    'aria-invalid': error ? 'true' : undefined,
    'aria-describedby': describedBy(
      helpIdOf(field),
      unit && `${controlId(id)}-unit`,
      hint && hintId(id),
      error && errorId(id),
    ),
  });
  const box = unit
    ? `<div class="fill-unit-box"><input${input}><span class="fill-unit" id="${controlId(id)}-unit" dir="auto">${e(unit)}</span></div>`
    : `<input${input}>`;
  return (
    `<div class="fill-card field"><label class="fill-question" for="${controlId(id)}" dir="auto">${label(field.name, field.required)}</label>` +
    `${helpOf(field)}${hint ? `<p class="field-hint" id="${hintId(id)}">${e(hint)}</p>` : ''}${box}${errorOf(id, error)}</div>`
  );
}

/** A rating or a scale: a radio group of its numbers, stars for a star rating, the scale's end labels under it. */
function stepsQuestion(field: MoreField, chosen: string, error: string | undefined): string {
  const id = field._id;
  const range = stepRangeOf(field) ?? { from: 1, to: 5 };
  const stars = field.kind === 'rating' && field.settings.style === 'stars';
  const ends = field.kind === 'scale' ? field.settings : undefined;
  const endsId = `${controlId(id)}-ends`;
  const options = stepsOf(range)
    .map(
      (step, i) =>
        `<label class="fill-step"><input${attrs({
          id: i === 0 ? firstOptionId(id) : undefined,
          type: 'radio',
          name: id,
          value: String(step),
          checked: chosen === String(step),
        })}>` +
        (stars
          ? `<span aria-hidden="true">★</span><span class="visually-hidden">${step} of ${range.to}</span>`
          : `<span>${step}</span>`) +
        `</label>`,
    )
    .join('');
  const endsHtml =
    ends && (ends.fromLabel || ends.toLabel)
      ? `<p class="fill-scale-ends" id="${endsId}"><span dir="auto">${e(ends.fromLabel ?? '')}</span> <span dir="auto">${e(ends.toLabel ?? '')}</span></p>`
      : '';
  const group = attrs({
    class: 'fill-card fill-group',
    id: controlId(id),
    role: 'radiogroup',
    'aria-labelledby': `${controlId(id)}-legend`,
    'aria-required': field.required ? 'true' : undefined,
    'aria-invalid': error ? 'true' : undefined,
    'aria-describedby': describedBy(helpIdOf(field), endsHtml && endsId, error && errorId(id)),
  });
  return (
    `<fieldset${group}><legend class="fill-question" id="${controlId(id)}-legend" dir="auto">${label(field.name, field.required)}</legend>${helpOf(field)}` +
    `${errorOf(id, error)}<div class="fill-steps${stars ? ' fill-stars' : ''}">${options}</div>${endsHtml}</fieldset>`
  );
}

function consentQuestion(field: MoreField, ticked: boolean, error: string | undefined): string {
  const id = field._id;
  const text = field.kind === 'consent' ? field.settings.text : '';
  const box = attrs({
    id: firstOptionId(id),
    type: 'checkbox',
    name: id,
    value: CONSENT_GIVEN,
    checked: ticked,
    'aria-required': field.required ? 'true' : undefined,
    'aria-invalid': error ? 'true' : undefined,
  });
  const group = attrs({
    class: 'fill-card fill-group',
    id: controlId(id),
    'aria-describedby': describedBy(helpIdOf(field), error && errorId(id)),
  });
  return (
    `<fieldset${group}><legend class="fill-question" dir="auto">${label(field.name, field.required)}</legend>${helpOf(field)}` +
    `${errorOf(id, error)}<div class="fill-options"><label class="fill-option" dir="auto"><input${box}><span>${inlineHtml(text)}</span></label></div></fieldset>`
  );
}

/** One question of a kind beyond the product's five, with what the customer sent (by input name) and its message. */
export function moreQuestionHtml(
  field: MoreField,
  values: Readonly<Record<string, readonly string[]>>,
  error: string | undefined,
): string {
  const sent = values[field._id] ?? [];
  switch (field.kind) {
    case 'grid':
      return gridQuestionHtml(field, (row) => values[gridRowInput(field._id, row)]?.[0] ?? '', error);
    case 'number':
    case 'time':
    case 'url':
      return boxQuestion(field, sent[0] ?? '', error);
    case 'rating':
    case 'scale':
      return stepsQuestion(field, sent[0] ?? '', error);
    case 'consent':
      return consentQuestion(field, sent.includes(CONSENT_GIVEN), error);
    case 'statement':
      return (
        `<section class="fill-card fill-statement" aria-labelledby="${controlId(field._id)}"><h2 class="fill-question" id="${controlId(field._id)}" dir="auto">${e(field.name)}</h2>` +
        `${helpOf(field)}${paragraphsHtml(field.settings.text)}</section>`
      );
  }
}
