import { Link } from 'react-router';
import { UPLOAD_ACCEPT } from '#common/answer-limits.ts';
import { textColorOn } from '#common/contrast.ts';
import { isMoreKind, type MoreField } from '#common/forms.ts';
import { stepRangeOf } from '#common/kinds/more-kinds.ts';
import { stepsOf } from '#common/kinds/scale-kinds.ts';
import { statementParagraphs } from '#common/kinds/statement-text.ts';
import { paths } from '../paths.ts';
import { LabelledControl } from '../ui/labelled-control.tsx';
import { LinkedText } from '../ui/linked-text.tsx';
import { useScreenTitle } from '../ui/use-screen-title.ts';
import { useEditedFormId } from './editor-page.tsx';
import { fieldsInOrder, type EditorField } from './fields-in-order.ts';
import { useFormEditor } from './use-form-editor.ts';
import './editor.css';
import './preview.css';

function PreviewQuestion({ field }: { field: EditorField }) {
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
      <fieldset className="preview-group">
        <legend className="field-label">{label}</legend>
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
      <fieldset className="preview-group">
        <legend className="field-label">{label}</legend>
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
        <input
          id={id}
          className="input"
          type={more.kind === 'time' ? 'time' : more.kind === 'url' ? 'url' : 'text'}
          inputMode={more.kind === 'number' ? 'decimal' : undefined}
          required={field.required}
        />
      </LabelledControl>
    );
  if (field.kind === 'radio' || field.kind === 'check') {
    return (
      <fieldset className="preview-group">
        <legend className="field-label">{label}</legend>
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
      {field.kind === 'select' ? (
        <select id={id} className="input" required={field.required} defaultValue="">
          <option value="" disabled>
            Select an Option
          </option>
          {field.options?.map((o) => (
            <option key={o._id}>{o.value}</option>
          ))}
        </select>
      ) : field.kind === 'file' ? (
        <input id={id} className="input" type="file" accept={UPLOAD_ACCEPT} required={field.required} />
      ) : field.type === 'textarea' ? (
        <textarea id={id} className="input" rows={4} required={field.required} />
      ) : (
        <input id={id} className="input" type={field.type ?? 'text'} required={field.required} />
      )}
    </LabelledControl>
  );
}

/**
 * /correctionPurpose (docs/product.md, Owner screens): what customers will see, with inputs that go nowhere.
 */
export function PreviewPage() {
  const fid = useEditedFormId();
  const { form } = useFormEditor(fid);
  useScreenTitle(form.data ? `${form.data.formTitle || 'Untitled'} · Preview` : 'Preview');
  if (form.isPending) return <p className="container muted editor-loading">Loading the preview…</p>;
  if (form.isError)
    return <p className="container editor-loading">This form could not be opened: {form.error.message}</p>;
  const data = form.data;
  return (
    <div className="preview" style={{ background: data.color }}>
      <main className="preview-sheet">
        {/* In the flow rather than floating, so it never covers a question. */}
        <div className="alert alert-info preview-bar">
          <p>Preview: answers here are not sent anywhere.</p>
          <Link to={paths.makeForms.href(data._id)} className="button button-primary button-small">
            ✎ Back to the editor
          </Link>
        </div>
        <header className="card preview-head">
          <div className="editor-banner" style={{ background: data.border }} aria-hidden="true" />
          <h1 style={{ color: textColorOn('#FFFFFF') }}>{data.formTitle}</h1>
          <p className="muted preview-description">
            <LinkedText text={data.description} />
          </p>
        </header>
        <form className="card preview-form" onSubmit={(e) => e.preventDefault()}>
          {fieldsInOrder(data).map((f) => (
            <PreviewQuestion key={f._id} field={f} />
          ))}
          <button
            type="submit"
            className="button button-primary on-owner-colour"
            style={{ background: data.border, color: textColorOn(data.border) }}
          >
            Submit
          </button>
        </form>
      </main>
    </div>
  );
}
