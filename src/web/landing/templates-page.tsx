import { Link } from 'react-router';
import { FORM_TEMPLATES } from '#common/form-templates.ts';
import { TEMPLATE_IDS } from '#common/forms.ts';
import { paths } from '../paths.ts';
import { FormPreview, previewOfDefinition } from '../ui/form-preview.tsx';
import { SitePage } from './site-chrome.tsx';

/** /templates: the forms an owner can start from, each with a miniature of its first questions and the list of all. */
export function TemplatesPage() {
  return (
    <SitePage
      title="Templates"
      lead="Start from a ready form and change anything: every question can be renamed, moved, made optional or deleted."
    >
      <ul className="gallery-grid">
        {TEMPLATE_IDS.filter((id) => FORM_TEMPLATES[id].fields.length > 0).map((id) => {
          const template = FORM_TEMPLATES[id];
          return (
            <li
              key={id}
              className="card gallery-card"
              style={{
                ['--gallery-border' as string]: template.border,
                ['--tpl-bg' as string]: template.color,
                ['--tpl-accent' as string]: template.border,
              }}
            >
              <FormPreview questions={previewOfDefinition(template.fields)} />
              <h2>{template.label}</h2>
              <p>{template.description}</p>
              <p className="muted">It starts with these questions:</p>
              <ol>
                {template.fields.map((field) => (
                  <li key={field.name}>
                    {field.name}
                    {field.required ? '' : ' (optional)'}
                  </li>
                ))}
              </ol>
              {template.pages ? <p className="muted">{template.pages.summary}</p> : null}
              <Link to={paths.createPage.href(id)} className="button button-primary">
                Use this template<span className="visually-hidden">: {template.label}</span>
              </Link>
            </li>
          );
        })}
      </ul>
      <p>
        Or start from a blank form: <Link to={paths.signUp.href()}>sign up</Link> or{' '}
        <Link to={paths.login.href()}>log in</Link>, then choose Create New.
      </p>
    </SitePage>
  );
}
