// A form's content as one ordered list of items: its questions and its page breaks, each with an optional condition
// (docs/decisions/042-pages-and-conditions.md). The per-kind arrays and `fieldOrder` the product's calls carry are
// derived from it; a form that has only the arrays (an older export) is read into it with no page breaks.
import { z } from 'zod';
import { gridChoiceValues } from '../kinds/grid-kind.ts';
import { orderedQuestions } from '../question-order.ts';
import {
  ChoiceFieldSchema,
  ConsentFieldSchema,
  FileFieldSchema,
  FORM_TITLE_MAX,
  GridFieldSchema,
  NumberFieldSchema,
  RatingFieldSchema,
  ScaleFieldSchema,
  StatementFieldSchema,
  TextFieldSchema,
  TimeFieldSchema,
  UrlFieldSchema,
  type ChoiceField,
  type FileField,
  type MoreField,
  type QuestionKind,
  type TextField,
} from '../question-schemas.ts';
import type { LogicPage, LogicQuestion } from './applies.ts';
import { ConditionSchema, type LogicKind } from './conditions.ts';

const withCondition = { condition: ConditionSchema.optional() };

/** A page break: the page it starts has a title and may be shown only when its condition holds. */
export const PageBreakSchema = z.object({
  kind: z.literal('page'),
  _id: z.string(),
  title: z.string().trim().max(FORM_TITLE_MAX, `A page title must be at most ${FORM_TITLE_MAX} characters`),
  ...withCondition,
});
export type PageBreak = z.infer<typeof PageBreakSchema>;

export const FormItemSchema = z.discriminatedUnion('kind', [
  TextFieldSchema.extend({ kind: z.literal('text'), ...withCondition }),
  ChoiceFieldSchema.extend({ kind: z.literal('select'), ...withCondition }),
  ChoiceFieldSchema.extend({ kind: z.literal('radio'), ...withCondition }),
  ChoiceFieldSchema.extend({ kind: z.literal('check'), ...withCondition }),
  FileFieldSchema.extend({ kind: z.literal('file'), ...withCondition }),
  NumberFieldSchema.extend(withCondition),
  RatingFieldSchema.extend(withCondition),
  ScaleFieldSchema.extend(withCondition),
  StatementFieldSchema.extend(withCondition),
  ConsentFieldSchema.extend(withCondition),
  TimeFieldSchema.extend(withCondition),
  UrlFieldSchema.extend(withCondition),
  GridFieldSchema.extend(withCondition),
  PageBreakSchema,
]);
export type FormItem = z.infer<typeof FormItemSchema>;
export type QuestionItem = Exclude<FormItem, PageBreak>;

/** The per-kind arrays and the order across them: the shape the product's calls and older exports carry. */
export type KindArrays = {
  textField: TextField[];
  selectField: ChoiceField[];
  radioField: ChoiceField[];
  checkField: ChoiceField[];
  fileField: FileField[];
  moreField: MoreField[];
  fieldOrder: { _id: string; kind: QuestionKind }[];
};

const ARRAY_OF = {
  text: 'textField',
  select: 'selectField',
  radio: 'radioField',
  check: 'checkField',
  file: 'fileField',
  number: 'moreField',
  rating: 'moreField',
  scale: 'moreField',
  statement: 'moreField',
  consent: 'moreField',
  time: 'moreField',
  url: 'moreField',
  grid: 'moreField',
} as const satisfies Record<QuestionKind, keyof KindArrays>;

/** The items of a form that has only the per-kind arrays: its questions in `fieldOrder`, on one page. */
export function itemsFromArrays(form: KindArrays): FormItem[] {
  return orderedQuestions(form).map(({ kind, field }) => ({ ...field, kind }) as QuestionItem);
}

/** The per-kind arrays and `fieldOrder` of `items`: page breaks and conditions left out. */
export function arraysOf(items: readonly FormItem[]): KindArrays {
  const arrays: KindArrays = {
    textField: [],
    selectField: [],
    radioField: [],
    checkField: [],
    fileField: [],
    moreField: [],
    fieldOrder: [],
  };
  for (const item of items) {
    if (item.kind === 'page') continue;
    const { kind, condition: _condition, ...field } = item;
    // The kinds beyond the product's five share one list, so each keeps its `kind` there.
    (arrays[ARRAY_OF[kind]] as object[]).push(ARRAY_OF[kind] === 'moreField' ? { ...field, kind } : field);
    arrays.fieldOrder.push({ _id: item._id, kind });
  }
  return arrays;
}

/**
 * The pages of `items` as the evaluator reads them: each page break starts the next page. A break at the very start
 * names the first page rather than leave an empty one before it (a condition it carries tests no earlier page, and
 * the logic check says so).
 */
/** The kind a condition sees a question as: a date question is compared as days, any other by its kind. */
export const logicKindOf = (question: { kind: QuestionKind; type?: string }): LogicKind =>
  question.kind === 'text' && question.type === 'date' ? 'date' : question.kind;

export function pagesOf(items: readonly FormItem[]): (LogicPage & { title: string })[] {
  type Page = LogicPage & { title: string; questions: LogicQuestion[] };
  let current: Page = { id: 'start', title: '', questions: [] };
  const pages: Page[] = [current];
  for (const item of items) {
    if (item.kind !== 'page') {
      current.questions.push({
        id: item._id,
        kind: logicKindOf(item),
        required: item.required,
        condition: item.condition,
        name: item.name,
        help: item.help,
        options:
          'options' in item
            ? item.options.map((o) => o.value)
            : item.kind === 'grid'
              ? gridChoiceValues(item.settings)
              : undefined,
      });
    } else if (current.id === 'start' && current.questions.length === 0) {
      Object.assign(current, { id: item._id, title: item.title, condition: item.condition });
    } else {
      current = { id: item._id, title: item.title, questions: [], condition: item.condition };
      pages.push(current);
    }
  }
  return pages;
}
