import { isHardToRead, textColorOn } from '#common/contrast.ts';
import { accentOf, backgroundOf } from '#common/form-colors.ts';
import type { PublicForm } from '#common/forms.ts';
import { escapeHtml } from './html.ts';

/** The customer's pages (spec §2), served as customer.html rather than index.html (docs/decisions/012). */
export const CUSTOMER_PAGE = /^\/(?:customer\/([^/]+)\/[^/]+|preview|fileUpload)\/?$/i;

/**
 * The form as data for the page (what GET /api/publicForm/{fid} answers), safe inside a script element: every `<`
 * is written as \u003c, so no `</script>` or `<!--` in a title can end it.
 */
export const embeddedJson = (form: PublicForm) => JSON.stringify(form).replace(/</g, '\\u003c');

/**
 * What the page shows before its script runs: the form's colours and heading, the same markup as the fill
 * components (fill-layout.tsx, form-heading.tsx, password-notice.tsx), which replace it when they render. The
 * colours are a <style> element rather than a style attribute, so the page's policy allows them by hash
 * (security-headers.ts) without allowing inline styles at large.
 */
function staticHeading(form: PublicForm): { html: string; style: string } {
  const background = backgroundOf(form);
  const style = `#root>.fill-page{--fill-bg:${background};--fill-on-bg:${textColorOn(background)};--fill-accent:${accentOf(form)}}`;
  const notice = form.textField.some((f) => f.type === 'password')
    ? '<p role="note" class="fill-notice"><span aria-hidden="true" class="fill-notice-icon">!</span>Never enter a password you use elsewhere. Easy Form will never ask for your account password.</p>'
    : '';
  const step = form.fileField.length > 0 ? '<p class="fill-step">Step 1 of 2 · Your answers</p>' : '';
  const description = form.description
    ? `<p class="fill-description">${escapeHtml(form.description)}</p>`
    : '';
  const heading = isHardToRead(background) ? 'fill-heading fill-heading-card' : 'fill-heading';
  const html =
    `<style>${style}</style><div class="fill-page"><div class="fill-topbar"></div>${notice}` +
    `<main class="fill-main"><header class="${heading}">${step}<h1>${escapeHtml(form.formTitle)}</h1>` +
    `${description}</header></main></div>`;
  return { html, style };
}

/**
 * customer.html for one form's link: its title, its heading drawn at once, and its data so no fetch is needed;
 * `styles` are the inline style texts the page's Content-Security-Policy must allow.
 */
export function renderCustomerPage(template: string, form: PublicForm): { html: string; styles: string[] } {
  const heading = staticHeading(form);
  // Replacer functions, so a `$&` in a title is text, not a replacement pattern.
  const html = template
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(form.formTitle)} · Easy Form</title>`)
    .replace(
      '<div id="root"></div>',
      () =>
        `<script type="application/json" id="fill-form">${embeddedJson(form)}</script>` +
        `<div id="root">${heading.html}</div>`,
    );
  return { html, styles: [heading.style] };
}
