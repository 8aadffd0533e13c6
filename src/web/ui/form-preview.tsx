import { fieldsOf, type FieldDefinition, type Form } from '#common/forms.ts';
import './form-preview.css';

/** One question as its card's miniature draws it. */
export type PreviewQuestion = { kind: FieldDefinition['kind']; name: string; options: string[] };

/** How many questions a card draws: what its picture holds at a desktop's four columns (a phone's shows fewer). */
const SHOWN = 4;
const OPTIONS_SHOWN = 2;

/** A template's first questions, as the card draws them. */
export const previewOfDefinition = (fields: readonly FieldDefinition[]): PreviewQuestion[] =>
  fields
    .slice(0, SHOWN)
    .map((f) => ({ kind: f.kind, name: f.name, options: 'options' in f ? f.options : [] }));

/** A form's first questions in the order its page shows them, as the card draws them. */
export function previewOfForm(form: Form): PreviewQuestion[] {
  const byId = new Map(fieldsOf(form).map((f) => [f._id, f]));
  return form.fieldOrder.slice(0, SHOWN).flatMap(({ _id, kind }) => {
    const field = byId.get(_id);
    if (!field) return [];
    const options = 'options' in field ? field.options.map((o) => o.value) : [];
    return [{ kind, name: field.name, options }];
  });
}

/**
 * A miniature of a form's first questions, drawn from its data: each question's name over a line to write on, a
 * drop-down, a file slot, or its first options with round or square marks. Decorative: the card's own text names
 * the form, so screen readers skip it.
 */
export function FormPreview({ questions, empty }: { questions: PreviewQuestion[]; empty?: string }) {
  return (
    <span className="template-thumb form-preview" aria-hidden="true">
      <span className="template-bar" />
      {questions.length === 0 && empty ? <span className="form-preview-empty">{empty}</span> : null}
      <span className="form-preview-questions">
        {questions.map((q, i) => (
          <span key={i} className="form-preview-question">
            <span className="form-preview-label">{q.name}</span>
            {q.kind === 'radio' || q.kind === 'check'
              ? q.options.slice(0, OPTIONS_SHOWN).map((option, j) => (
                  <span key={j} className="form-preview-option">
                    <span className={q.kind === 'radio' ? 'form-preview-dot' : 'form-preview-box'} />
                    {option}
                  </span>
                ))
              : null}
            {q.kind === 'text' ? <span className="form-preview-input" /> : null}
            {q.kind === 'select' ? <span className="form-preview-input form-preview-select">▾</span> : null}
            {q.kind === 'file' ? <span className="form-preview-input form-preview-file">＋</span> : null}
          </span>
        ))}
      </span>
    </span>
  );
}
