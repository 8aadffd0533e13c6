// The customer's form as HTML, drawn on the server so it works without JavaScript (docs/decisions/024). The markup
// and classes are those of the fill components (src/web/fill/**/*.tsx), so the page looks the same before, without and
// after the script; change both together.
//
// Text the owner or the customer wrote (title, description, questions, options, answers, the owner's messages) goes
// in an element with dir="auto": each takes its direction from its own first letter, so an Arabic or Hebrew form
// reads right to left (its "؟" at the end, its links in order) while our own words and a Latin-script form stay as
// they were. Inline owner words inside our sentences are isolated the same way.
import { HONEYPOT_FIELD, LONG_TEXT_ANSWER_MAX, TEXT_ANSWER_MAX } from '#common/answer-limits.ts';
import type { ChoiceField, FileField, PublicForm, TextField } from '#common/forms.ts';
import { acceptOf, fileHint, maxFilesOf } from '#common/kinds/file-rules.ts';
import { dateRangeHint } from '#common/kinds/kind-hints.ts';
import { HIDDEN_KEY } from '#common/kinds/link-values.ts';
import { recalledField } from '#common/kinds/recall.ts';
import { orderedQuestions, type Question } from '#common/question-order.ts';
import { controlId, errorSummary, firstOptionId } from './error-summary-html.ts';
import { DRAFT_FIELD, pageAction, pageButtonsHtml, pageViewOfState } from './form-pages.ts';
import { buttonsHtml, carriedHtml, stepAction, stepOf, type FormStep } from './form-steps.ts';
import { escapeHtml as e } from './html.ts';
import { moreQuestionHtml } from './more-kinds-html.ts';
import {
  againId,
  attrs,
  describedBy,
  errorId,
  errorOf,
  helpIdOf,
  helpOf,
  hintId,
  label,
} from './question-parts-html.ts';

/** The hidden field that carries the page's idempotency key: one stored response however often it is sent. */
export const PAGE_TOKEN_FIELD = 'token';
/** The prefix of a hidden field's input name, as conditions name it: it cannot be a question's id (a UUID). */
export const HIDDEN_PREFIX = HIDDEN_KEY;
/** The input that carries hidden field `name` on every page and step, as the form's link filled it. */
export const hiddenInputName = (name: string) => `${HIDDEN_PREFIX}${name}`;
/** What the customer sent, by question id (several values for a checkbox question), and the hidden fields. */
export type SentValues = Record<string, string[]>;
/** A message per question id. */
export type QuestionErrors = Record<string, string>;

export type FormState = {
  token: string;
  values?: SentValues;
  errors?: QuestionErrors;
  /** File questions whose file was sent but not kept: browsers cannot fill a file input again. */
  filesToChooseAgain?: readonly string[];
  /** A message for the whole form (no single question to show it at). */
  message?: string;
  /** Which step a form with file questions draws (the first when not said); a form without files ignores it. */
  step?: FormStep;
  /** A form with page breaks: the page drawn (the first that applies when not said), form-pages.ts. */
  page?: string;
  /** The names of the files kept with the draft, by file question: not chosen again on a later page. */
  kept?: Readonly<Record<string, string>>;
  /** The key of the draft the page was drawn from, posted back with the page so its answers go on. */
  draftKey?: string;
};

const AUTOCOMPLETE: Partial<Record<TextField['type'], string>> = {
  email: 'email',
  tel: 'tel',
  password: 'off',
};

function textQuestion(field: TextField, value: string, error: string | undefined): string {
  const id = field._id;
  const isPassword = field.type === 'password';
  const range = field.type === 'date' ? dateRangeHint(field.dateRange) : '';
  const shared = {
    id: controlId(id),
    name: id,
    dir: 'auto',
    'aria-required': field.required ? 'true' : undefined,
    'aria-invalid': error ? 'true' : undefined,
    'aria-describedby': describedBy(
      helpIdOf(field),
      error && errorId(id),
      (isPassword || range !== '') && hintId(id),
    ),
  };
  const control =
    field.type === 'textarea'
      ? `<textarea${attrs({ ...shared, class: 'input fill-textarea', rows: '5', maxlength: String(LONG_TEXT_ANSWER_MAX) })}>${e(value)}</textarea>`
      : `<input${attrs({ ...shared, class: 'input', type: field.type, maxlength: String(TEXT_ANSWER_MAX), autocomplete: AUTOCOMPLETE[field.type], min: range ? field.dateRange?.earliest : undefined, max: range ? field.dateRange?.latest : undefined, value: value || undefined })}>`;
  const hint = isPassword
    ? `<p class="field-hint" id="${hintId(id)}">Never enter a password you use elsewhere.</p>`
    : range
      ? `<p class="field-hint" id="${hintId(id)}">${e(range)}</p>`
      : '';
  return (
    `<div class="fill-card field"><label class="fill-question" for="${controlId(id)}" dir="auto">${label(field.name, field.required)}</label>` +
    `${helpOf(field)}${control}${hint}${errorOf(id, error)}</div>`
  );
}

function selectQuestion(field: ChoiceField, value: string, error: string | undefined): string {
  const id = field._id;
  const options = field.options
    .map(
      (o) =>
        `<option${attrs({ value: o.value, dir: 'auto', selected: o.value === value })}>${e(o.value)}</option>`,
    )
    .join('');
  const select = attrs({
    id: controlId(id),
    name: id,
    class: 'input fill-select',
    'aria-required': field.required ? 'true' : undefined,
    'aria-invalid': error ? 'true' : undefined,
    'aria-describedby': describedBy(helpIdOf(field), error && errorId(id)),
  });
  return (
    `<div class="fill-card field"><label class="fill-question" for="${controlId(id)}" dir="auto">${label(field.name, field.required)}</label>` +
    `${helpOf(field)}<select${select}><option value="">Select an Option</option>${options}</select>${errorOf(id, error)}</div>`
  );
}

/**
 * Radio buttons or checkboxes in a fieldset. A radio group is a `radiogroup`, which may carry aria-required; a
 * checkbox group is a plain group (no aria-required allowed there), so its legend's "required" says it.
 */
function choiceGroup(
  field: ChoiceField,
  multiple: boolean,
  chosen: string[],
  error: string | undefined,
): string {
  const id = field._id;
  const options = field.options
    .map(
      (o, i) =>
        `<label class="fill-option" dir="auto"><input${attrs({
          id: i === 0 ? firstOptionId(id) : undefined,
          type: multiple ? 'checkbox' : 'radio',
          name: id,
          value: o.value,
          checked: chosen.includes(o.value),
          'aria-invalid': error ? 'true' : undefined,
        })}><span>${e(o.value)}</span></label>`,
    )
    .join('');
  const group = attrs({
    class: 'fill-card fill-group',
    id: controlId(id),
    role: multiple ? undefined : 'radiogroup',
    'aria-labelledby': multiple ? undefined : `${controlId(id)}-legend`,
    'aria-required': !multiple && field.required ? 'true' : undefined,
    'aria-describedby': describedBy(helpIdOf(field), error && errorId(id)),
  });
  // The message comes before the options, not after them as on the React page: without a script nothing can
  // bring a message under the last option into view when the keyboard reaches the first, and the sticky bar would
  // cover it. A page with messages is only drawn for a post, and no script takes it over, so nothing moves.
  return (
    `<fieldset${group}><legend class="fill-question" id="${controlId(id)}-legend" dir="auto">${label(field.name, field.required)}</legend>${helpOf(field)}` +
    (multiple ? '<p class="fill-group-hint">Choose all that apply</p>' : '') +
    `${errorOf(id, error)}<div class="fill-options">${options}</div></fieldset>`
  );
}

function fileQuestion(
  field: FileField,
  error: string | undefined,
  chooseAgain: boolean,
  kept: string | undefined,
): string {
  const id = field._id;
  const input = attrs({
    id: controlId(id),
    name: id,
    class: 'fill-file-input',
    type: 'file',
    accept: acceptOf(field.rules),
    multiple: maxFilesOf(field.rules) > 1 ? true : undefined,
    'aria-required': field.required && kept === undefined ? 'true' : undefined,
    'aria-invalid': error ? 'true' : undefined,
    'aria-describedby': describedBy(
      helpIdOf(field),
      hintId(id),
      (chooseAgain || kept) && againId(id),
      error && errorId(id),
    ),
  });
  // A file kept from an earlier post of a form with pages is sent with the answers unless another is chosen: said
  // before the input, whose own "No file chosen" would otherwise read as if it were lost.
  const several = maxFilesOf(field.rules) > 1;
  const keptLine =
    kept === undefined
      ? ''
      : `<p class="field-hint" id="${againId(id)}">Kept: <span dir="auto">${e(kept)}</span>. ${several ? 'Choose files only to replace them' : 'Choose a file only to replace it'}.</p>`;
  const again =
    chooseAgain && kept === undefined
      ? `<p class="field-hint" id="${againId(id)}">Choose ${several ? 'the files' : 'the file'} again: a browser cannot keep a chosen file when the page comes back.</p>`
      : '';
  return (
    `<div class="fill-card field fill-slot"><label class="fill-question" for="${controlId(id)}" dir="auto">${label(field.name, field.required)}</label>` +
    `${helpOf(field)}<p class="field-hint" id="${hintId(id)}">${e(fileHint(field.rules))}</p>${keptLine}<input${input}>${again}${errorOf(id, error)}</div>`
  );
}

function questionHtml(question: Question, state: FormState): string {
  const id = question.field._id;
  const sent = state.values?.[id] ?? [];
  const error = state.errors?.[id];
  switch (question.kind) {
    case 'text':
      return textQuestion(question.field, sent[0] ?? '', error);
    case 'select':
      return selectQuestion(question.field, sent[0] ?? '', error);
    case 'radio':
    case 'check':
      return choiceGroup(question.field, question.kind === 'check', sent, error);
    case 'file':
      return fileQuestion(
        question.field,
        error,
        state.filesToChooseAgain?.includes(id) ?? false,
        state.kept?.[id],
      );
  }
  return moreQuestionHtml(question.field, state.values ?? {}, error);
}

/**
 * The question with its title and help text recalling the answers given so far and the link's hidden fields
 * (docs/decisions/043-question-kinds.md): text, escaped as the owner's words are.
 */
function recalled(question: Question, values: SentValues): Question {
  const answers: Record<string, string | string[]> = {};
  const hidden: Record<string, string> = {};
  for (const [key, sent] of Object.entries(values)) {
    if (key.startsWith(HIDDEN_PREFIX)) hidden[key.slice(HIDDEN_PREFIX.length)] = sent[0] ?? '';
    else answers[key] = sent.length === 1 ? (sent[0] ?? '') : sent;
  }
  return { ...question, field: recalledField(question.field, { answers, hidden }) } as Question;
}

/** The hidden fields the link filled, carried by every page and step so the final post sends them. */
const hiddenInputs = (form: PublicForm, values: SentValues) =>
  (form.hiddenFields ?? [])
    .flatMap((name) => {
      const value = values[hiddenInputName(name)]?.[0];
      return value ? [`<input type="hidden" name="${e(hiddenInputName(name))}" value="${e(value)}">`] : [];
    })
    .join('');

/**
 * The whole form (or, for a form with files, the step `state.step`; for a form with page breaks, the page
 * `state.page`), posting answers and files in one request to the page's own address.
 */
export function formHtml(form: PublicForm, action: string, state: FormState): string {
  const view = pageViewOfState(form, state);
  const step = view ? null : stepOf(form, state);
  const all = orderedQuestions(form);
  const questions = view
    ? all.filter((q) => view.questions.has(q.field._id))
    : step === null
      ? all
      : all.filter((q) => (q.kind === 'file') === (step === 'files'));
  const buttons = view ? pageButtonsHtml(view, action) : { first: '', bar: buttonsHtml(step, action) };
  const posting = view ? pageAction(action, view) : step === 'answers' ? stepAction(action, 'files') : action;
  const shown = new Set(questions.map((q) => q.field._id));
  const errors = Object.fromEntries(Object.entries(state.errors ?? {}).filter(([id]) => shown.has(id)));
  const count = Object.keys(errors).length;
  const things = step === 'files' ? ['One file needs', 'files need'] : ['One answer needs', 'answers need'];
  const barMessage =
    state.message ??
    (count > 0 ? `${count === 1 ? things[0] : `${count} ${things[1]}`} your attention.` : '');
  return (
    `<form class="fill-form" method="post" enctype="multipart/form-data" novalidate action="${e(posting)}">` +
    // First, so it arrives before any file: a file is not stored for a page without its token.
    `<input type="hidden" name="${PAGE_TOKEN_FIELD}" value="${e(state.token)}">` +
    hiddenInputs(form, state.values ?? {}) +
    (view && state.draftKey
      ? `<input type="hidden" name="${DRAFT_FIELD}" value="${e(state.draftKey)}">`
      : '') +
    buttons.first +
    (step === 'files'
      ? carriedHtml(
          all.filter((q) => q.kind !== 'file'),
          state.values ?? {},
        )
      : '') +
    errorSummary(form, errors) +
    (all.length === 0 ? '<p class="fill-card muted">This form has no questions yet.</p>' : '') +
    questions.map((q) => questionHtml(recalled(q, state.values ?? {}), state)).join('') +
    `<div class="fill-honeypot" aria-hidden="true"><label for="fill-honeypot">Website</label>` +
    `<input id="fill-honeypot" type="text" name="${HONEYPOT_FIELD}" tabindex="-1" aria-hidden="true" autocomplete="off"></div>` +
    `<div class="fill-bar"><div class="fill-bar-inner"><div role="alert"${barMessage ? ' class="fill-bar-message error"' : ''}>${e(barMessage)}</div>` +
    `<div class="fill-bar-actions">${buttons.bar}</div></div></div>` +
    `</form>`
  );
}
