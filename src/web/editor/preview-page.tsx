import { Link } from 'react-router';
import { textColorOn } from '#common/contrast.ts';
import { paths } from '../paths.ts';
import { LinkedText } from '../ui/linked-text.tsx';
import { useScreenTitle } from '../ui/use-screen-title.ts';
import { useEditedFormId } from './editor-page.tsx';
import { fieldsInOrder } from './fields-in-order.ts';
import { PreviewQuestion } from './preview-question.tsx';
import { useFormEditor } from './use-form-editor.ts';
import './editor.css';
import './preview.css';

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
