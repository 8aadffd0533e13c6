// One question of the editor's Preview (/correctionPurpose): drawn as the customer sees it, with its help text and
// what it takes (a number's bounds, a date's range, a file question's types, size and count), inputs that go nowhere.
import { isMoreKind, type MoreField } from '#common/forms.ts';
import { acceptOf, fileHint, maxFilesOf } from '#common/kinds/file-rules.ts';
import { dateRangeHint, numberHint, stepRangeOf, stepsOf } from '#common/kinds/kind-hints.ts';
import { statementParagraphs } from '#common/kinds/statement-text.ts';
import { LabelledControl } from '../ui/labelled-control.tsx';
import type { EditorField } from './fields-in-order.ts';

export function PreviewQuestion({ field }: { field: EditorField }) {
  const label = (
    <>
      {field.name}
      {field.required ? (
        <span className="required" aria-label="required">
          {' '}
          *
        </span>
      ) : null}
    </>
  );
  const id = `preview-${field._id}`;
  const more = field.source && isMoreKind(field.source.kind) ? (field.source as MoreField) : null;
  const hint =
    more?.kind === 'number'
      ? numberHint(more.settings)
      : field.kind === 'file'
        ? fileHint(field.rules)
        : field.type === 'date'
          ? dateRangeHint(field.dateRange)
          : '';
  // The owner's help text under the title and what the question takes under its control, as the customer sees them.
  const help = field.help ? (
    <p className="field-hint preview-help" id={`${id}-help`}>
      {field.help}
    </p>
  ) : null;
  const hintLine = hint ? (
    <p className="field-hint" id={`${id}-hint`}>
      {hint}
    </p>
  ) : null;
  const describedBy =
    [field.help ? `${id}-help` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  if (more?.kind === 'statement')
    return (
      <section className="preview-group">
        <h2 className="field-label">{field.name}</h2>
        {statementParagraphs(more.settings.text).map((pieces, p) => (
          <p key={p} className="muted">
            {pieces.map((piece, i) =>
              piece.bold ? <strong key={i}>{piece.text}</strong> : <span key={i}>{piece.text}</span>,
            )}
          </p>
        ))}
      </section>
    );
  const range = more ? stepRangeOf(more) : null;
  if (range || more?.kind === 'consent') {
    return (
      <fieldset className="preview-group" aria-describedby={describedBy}>
        <legend className="field-label">{label}</legend>
        {help}
        {range ? (
          <div className="preview-steps">
            {stepsOf(range).map((step) => (
              <label key={step} className="checkbox">
                <input type="radio" name={id} />
                <span>{step}</span>
              </label>
            ))}
          </div>
        ) : (
          <label className="checkbox">
            <input type="checkbox" required={field.required} />
            <span>{more?.kind === 'consent' ? more.settings.text : ''}</span>
          </label>
        )}
      </fieldset>
    );
  }
  if (more?.kind === 'grid')
    return (
      <fieldset className="preview-group" aria-describedby={describedBy}>
        <legend className="field-label">{label}</legend>
        {help}
        {more.settings.rows.map((row, r) => (
          <div key={row} className="preview-grid-row" role="radiogroup" aria-label={row}>
            <p className="preview-grid-row-name">{row}</p>
            <div className="preview-steps">
              {more.settings.columns.map((column) => (
                <label key={column} className="checkbox">
                  <input type="radio" name={`${id}-${r}`} />
                  <span>{column}</span>
                </label>
              ))}
            </div>
          </div>
        ))}
      </fieldset>
    );
  if (more)
    return (
      <LabelledControl id={id} label={label}>
        {help}
        <input
          id={id}
          className="input"
          type={more.kind === 'time' ? 'time' : more.kind === 'url' ? 'url' : 'text'}
          inputMode={more.kind === 'number' ? 'decimal' : undefined}
          required={field.required}
          aria-describedby={describedBy}
        />
        {hintLine}
      </LabelledControl>
    );
  if (field.kind === 'radio' || field.kind === 'check') {
    return (
      <fieldset className="preview-group" aria-describedby={describedBy}>
        <legend className="field-label">{label}</legend>
        {help}
        {field.options?.map((o) => (
          <label key={o._id} className="checkbox">
            <input
              type={field.kind === 'radio' ? 'radio' : 'checkbox'}
              name={id}
              required={field.required && field.kind === 'radio'}
            />
            <span>{o.value}</span>
          </label>
        ))}
      </fieldset>
    );
  }
  return (
    <LabelledControl id={id} label={label}>
      {help}
      {field.kind === 'select' ? (
        <select
          id={id}
          className="input"
          required={field.required}
          defaultValue=""
          aria-describedby={describedBy}
        >
          <option value="" disabled>
            Select an Option
          </option>
          {field.options?.map((o) => (
            <option key={o._id}>{o.value}</option>
          ))}
        </select>
      ) : field.kind === 'file' ? (
        <input
          id={id}
          className="input"
          type="file"
          accept={acceptOf(field.rules)}
          multiple={maxFilesOf(field.rules) > 1}
          required={field.required}
          aria-describedby={describedBy}
        />
      ) : field.type === 'textarea' ? (
        <textarea
          id={id}
          className="input"
          rows={4}
          required={field.required}
          aria-describedby={describedBy}
        />
      ) : (
        <input
          id={id}
          className="input"
          type={field.type ?? 'text'}
          required={field.required}
          aria-describedby={describedBy}
        />
      )}
      {hintLine}
    </LabelledControl>
  );
}
