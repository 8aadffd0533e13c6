import type { CSSProperties, ReactNode } from 'react';
import type { ClosedFormLook } from '#common/closed-form.ts';
import { textColorOn } from '#common/contrast.ts';
import { accentOf, backgroundOf } from '#common/form-colors.ts';
import type { PublicForm } from '#common/forms.ts';
import { hasPasswordQuestion } from '../questions/questions.ts';
import { PasswordNotice } from './password-notice.tsx';

// The fill stylesheets reach the page through customer-page.css, which the entry imports (the server inlines it).

type Props = { form: PublicForm | ClosedFormLook; title?: string; children: ReactNode };

/**
 * The customer's page on the form's own colours: background, an accent bar, and the questions in white cards (or,
 * for a closed form, only what says which form it is).
 */
export function FillLayout({ form, title, children }: Props) {
  const background = backgroundOf(form);
  const style = {
    '--fill-bg': background,
    '--fill-on-bg': textColorOn(background),
    '--fill-accent': accentOf(form),
  } as CSSProperties;
  return (
    <div className="fill-page" style={style}>
      <title>{`${title ?? form.formTitle} · Easy Form`}</title>
      <div className="fill-topbar" />
      {'textField' in form && hasPasswordQuestion(form) ? <PasswordNotice /> : null}
      <main className="fill-main">{children}</main>
      <footer className="fill-footer">
        Made with <strong>Easy Form</strong>
      </footer>
    </div>
  );
}
