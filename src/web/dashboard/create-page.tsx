import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { FORM_TEMPLATES } from '#common/form-templates.ts';
import { TEMPLATE_IDS, type TemplateId } from '#common/forms.ts';
import { createForm, formsQuery, useNewForm } from '../api/forms.ts';
import { paths } from '../paths.ts';
import { Alert } from '../ui/alert.tsx';
import { FormPreview, previewOfDefinition, previewOfForm } from '../ui/form-preview.tsx';
import { OwnerHeaderItems } from '../ui/owner-layout.tsx';
import { ownerDateAndTime, useOwnerTimeZone } from '../ui/owner-time-zone.ts';
import { responsesCount } from '../ui/response-count.ts';
import { useScreenTitle } from '../ui/use-screen-title.ts';
import { ImportFormButton } from './import-form-button.tsx';
import { editorHref } from './request-tab.tsx';
import './dashboard.css';
import './create-page.css';

const RECENT_PAGE = 4;
const isTemplateId = (id: string | null): id is TemplateId =>
  (TEMPLATE_IDS as readonly (string | null)[]).includes(id);
const questionsCount = (n: number) => `${n} ${n === 1 ? 'question' : 'questions'}`;

/**
 * /createPage (docs/product.md, Dashboard): Create New, the three templates, and the owner's recent forms
 * four at a time.
 */
export function CreatePage() {
  useScreenTitle('Create a form');
  const navigate = useNavigate();
  const zone = useOwnerTimeZone();
  const forms = useQuery(formsQuery());
  const create = useNewForm(createForm);
  const [page, setPage] = useState(0);
  const recent = forms.data ?? [];
  const pages = Math.max(1, Math.ceil(recent.length / RECENT_PAGE));
  const shown = recent.slice(page * RECENT_PAGE, page * RECENT_PAGE + RECENT_PAGE);

  const start = (template: TemplateId) =>
    create.mutate({ template }, { onSuccess: (form) => navigate(editorHref(form)) });

  // "Use this template" on the public Templates page comes here with the template named (through the login for a
  // visitor): the form is made once, at once, and opens in the editor in this page's place, so Back does not make
  // another.
  const chosen = useSearchParams()[0].get('template');
  const madeFromLink = useRef(false);
  const { mutate } = create;
  useEffect(() => {
    if (madeFromLink.current || !isTemplateId(chosen)) return;
    madeFromLink.current = true;
    mutate({ template: chosen }, { onSuccess: (form) => navigate(editorHref(form), { replace: true }) });
  }, [chosen, mutate, navigate]);

  return (
    <>
      <OwnerHeaderItems>
        <Link to={paths.dashboard.href('received')} className="button button-secondary">
          Response
        </Link>
      </OwnerHeaderItems>
      <main className="container create">
        <section aria-labelledby="start-title">
          <div className="row-between">
            <h1 id="start-title">Start a new form</h1>
            <ImportFormButton onImported={(form) => navigate(editorHref(form))} />
          </div>
          {create.error ? (
            <Alert tone="error">The form could not be created. {create.error.message}</Alert>
          ) : null}
          <ul className="template-grid">
            {TEMPLATE_IDS.map((id) => {
              const template = FORM_TEMPLATES[id];
              return (
                <li key={id}>
                  <button
                    type="button"
                    className="template-card"
                    disabled={create.isPending}
                    onClick={() => start(id)}
                    style={{
                      ['--tpl-bg' as string]: template.color,
                      ['--tpl-accent' as string]: template.border,
                    }}
                  >
                    {id === 'blank' ? (
                      <span className="template-thumb" aria-hidden="true">
                        <span className="template-bar" />
                        <span className="template-plus">+</span>
                      </span>
                    ) : (
                      <FormPreview questions={previewOfDefinition(template.fields)} />
                    )}
                    <span className="template-name">{template.label}</span>
                    <span className="template-meta">
                      {template.fields.length === 0
                        ? 'Blank form'
                        : `${template.fields.length} questions${
                            template.pages ? ` on ${template.pages.breaks.length} pages` : ''
                          } to start`}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        </section>

        <section aria-labelledby="recent-title" className="recent">
          <div className="row-between">
            <h2 id="recent-title">Recent Forms</h2>
            <div className="pager">
              <button
                type="button"
                className="button button-secondary button-small"
                aria-label="Newer forms"
                disabled={page === 0}
                onClick={() => setPage((p) => p - 1)}
              >
                ←
              </button>
              <span className="muted">
                {page + 1} / {pages}
              </span>
              <button
                type="button"
                className="button button-secondary button-small"
                aria-label="Older forms"
                disabled={page >= pages - 1}
                onClick={() => setPage((p) => p + 1)}
              >
                →
              </button>
            </div>
          </div>
          {forms.isPending ? <p className="muted">Loading…</p> : null}
          {forms.isError ? (
            <Alert tone="error">Your forms could not be loaded. {forms.error.message}</Alert>
          ) : null}
          {forms.isSuccess && recent.length === 0 ? (
            <p className="card empty">Your forms will appear here. Start with a template above.</p>
          ) : null}
          <ul className="recent-grid">
            {shown.map((form) => (
              <li key={form._id}>
                <Link
                  to={editorHref(form)}
                  className="recent-card"
                  title={form.formTitle}
                  style={{ ['--tpl-bg' as string]: form.color, ['--tpl-accent' as string]: form.border }}
                >
                  <FormPreview questions={previewOfForm(form)} empty="No questions yet" />
                  <span className="template-name">{form.formTitle}</span>
                  <span className="template-meta">
                    {ownerDateAndTime(form.createdAt, zone).date} · {questionsCount(form.fieldOrder.length)}
                  </span>
                  <span className="template-meta">{responsesCount(form.responseCount)}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      </main>
    </>
  );
}
