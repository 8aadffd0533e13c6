import { Link, Navigate, useSearchParams } from 'react-router';
import { textColorOn } from '#common/contrast.ts';
import { paths } from '../paths.ts';
import { Alert } from '../ui/alert.tsx';
import { useScreenTitle } from '../ui/use-screen-title.ts';
import { AddFieldPanel } from './add-field-panel.tsx';
import { ColorControls } from './color-controls.tsx';
import { EditableText } from './editable-text.tsx';
import { itemsInOrder } from './editor-items.ts';
import { LinkFields } from './link-fields.tsx';
import { QuestionList } from './question-list.tsx';
import { SaveStatus } from './save-status.tsx';
import { ShareBar } from './share-bar.tsx';
import { TryPath } from './try-path.tsx';
import { useFormEditor } from './use-form-editor.ts';
import './editor.css';

/** The form id from the URL, else the one the editor keeps in local storage (`fid`, docs/product.md). */
export function useEditedFormId(): string {
  const [search] = useSearchParams();
  const fid = search.get('fid') ?? localStorage.getItem('fid') ?? '';
  if (fid) localStorage.setItem('fid', fid);
  return fid;
}

/** /makeForms, the editor (docs/product.md, Editor). */
export function EditorPage() {
  const fid = useEditedFormId();
  const { form, edit, save } = useFormEditor(fid);
  useScreenTitle(form.data ? `${form.data.formTitle || 'Untitled'} · Editor` : 'Editor');
  if (!fid) return <Navigate to={paths.createPage.href()} replace />;

  if (form.isPending)
    return (
      <>
        <p className="container muted editor-loading">Loading the form…</p>
      </>
    );
  if (form.isError) {
    return (
      <>
        <main className="container editor-loading">
          <Alert tone="error">
            This form could not be opened: {form.error.message}{' '}
            <Link to={paths.dashboard.href()}>Back to your forms</Link>
          </Alert>
        </main>
      </>
    );
  }

  const data = form.data;
  const items = itemsInOrder(data);

  return (
    <div className="editor" style={{ background: data.color }}>
      <div
        className="editor-topbar on-owner-colour"
        style={{ background: data.border, color: textColorOn(data.border) }}
      >
        <div className="container row-between">
          <Link to={paths.dashboard.href()} className="topbar-link" style={{ color: 'inherit' }}>
            ← Your forms
          </Link>
          <div className="topbar-actions">
            <Link to={paths.formResults.href(data._id)} className="topbar-link" style={{ color: 'inherit' }}>
              Results
            </Link>
            <Link
              to={paths.formSettings.href(data._id)}
              className="topbar-link topbar-settings"
              style={{ color: 'inherit' }}
            >
              <span aria-hidden="true">⚙ </span>Settings
            </Link>
            <SaveStatus state={save} />
          </div>
        </div>
      </div>
      <main className="container editor-body">
        <div className="editor-main">
          <section className="card editor-head" aria-label="Title and description">
            <div className="editor-banner" style={{ background: data.border }} aria-hidden="true" />
            <h1 className="editor-title">
              <EditableText
                value={data.formTitle}
                label="Form title"
                onSave={(formTitle) => void edit({ type: 'updateForm', body: { formTitle } })}
              />
            </h1>
            <EditableText
              multiline
              value={data.description}
              label="Form description"
              className="editor-description"
              onSave={(description) => void edit({ type: 'updateForm', body: { description } })}
            />
          </section>
          <ShareBar
            fid={data._id}
            ownerId={data.ownerIdAsStructureId}
            title={data.formTitle}
            accepting={data.acceptingResponses}
            onAcceptingChange={(acceptingResponses) =>
              edit({ type: 'updateForm', body: { acceptingResponses } })
            }
          />
          <QuestionList
            fields={items}
            version={data.version}
            onEdit={edit}
            hiddenFields={data.hiddenFields}
          />
          <TryPath items={items} />
          <AddFieldPanel fid={data._id} onAdd={(body) => edit({ type: 'addField', body })} />
        </div>
        <aside className="card editor-side" aria-label="Appearance and link fields">
          <h2>Appearance</h2>
          <ColorControls
            color={data.color}
            border={data.border}
            onChange={(body) => void edit({ type: 'updateForm', body })}
          />
          <LinkFields
            form={data}
            onSave={(hiddenFields) => void edit({ type: 'updateForm', body: { hiddenFields } })}
          />
        </aside>
      </main>
    </div>
  );
}
