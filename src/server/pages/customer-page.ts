import { CLOSED_LOOK_ID, type ClosedFormLook } from '#common/closed-form.ts';
import { isHardToRead, textColorOn } from '#common/contrast.ts';
import { accentOf, backgroundOf } from '#common/form-colors.ts';
import type { PublicForm } from '#common/forms.ts';
import { CLEAR_FIXED_ERRORS } from './clear-fixed-errors.ts';
import { formHtml, type FormState } from './customer-form-html.ts';
import { pageHeadingHtml, pageLabel, pageViewOfState } from './form-pages.ts';
import { stepLabel, stepOf } from './form-steps.ts';
import { escapeHtml } from './html.ts';
import { closedFormHtml, headingHtml } from './message-html.ts';

/**
 * The customer's pages (docs/product.md, Customer pages), served as customer.html rather than index.html
 * (docs/decisions/012); with the pages a form posted without JavaScript redirects to (its draft, its thank-you).
 */
export const CUSTOMER_PAGE =
  /^\/(?:customer\/([^/]+)\/[^/]+(?:\/(?:sent|draft\/[^/]+))?|preview|fileUpload)\/?$/i;

/** The page around the customer's content when the app was not built (tests, an API-only install). */
export const FALLBACK_TEMPLATE =
  '<!doctype html><html lang="en"><head><meta charset="UTF-8" />' +
  '<meta name="viewport" content="width=device-width, initial-scale=1" />' +
  '<meta name="description" content="A form made with Easy Form." /><title>Easy Form</title></head>' +
  '<body><div id="root"></div></body></html>';

/**
 * The page without its scripts, for the answers to a form posted without JavaScript (docs/decisions/024): the
 * customer stays on server pages, so a script starting late cannot replace a kept answer or a thank-you.
 */
export const withoutScripts = (template: string) =>
  template
    .replace(/<script type="module"[^>]*><\/script>\s*/g, '')
    .replace(/<link rel="modulepreload"[^>]*>\s*/g, '');

/**
 * The form as data for the page (what GET /api/publicForm/{fid} answers), safe inside a script element: every `<`
 * is written as \u003c, so no `</script>` or `<!--` in a title can end it.
 */
export const embeddedJson = (form: PublicForm | ClosedFormLook) =>
  JSON.stringify(form).replace(/</g, '\\u003c');

/** The template with this title and this content in #root (and anything before it). Replacer functions, so a `$&`
 * in a title is text, not a replacement pattern. */
export function fillTemplate(
  template: string,
  title: string,
  root: string,
  beforeRoot = '',
  description?: string,
): string {
  return template
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)} · Easy Form</title>`)
    .replace(/(<meta\s+name="description"\s+content=")[^"]*(")/, (all, start: string, end: string) =>
      description === undefined ? all : `${start}${escapeHtml(description)}${end}`,
    )
    .replace('<div id="root"></div>', () => `${beforeRoot}<div id="root">${root}</div>`);
}

/**
 * fill-layout.tsx as HTML: the form's colours, the password notice, `content` in the main column, the footer. The
 * colours are a <style> element rather than a style attribute, so the page's policy allows them by hash
 * (security-headers.ts) without allowing inline styles at large.
 */
function layoutOf(form: PublicForm | ClosedFormLook, content: string): { html: string; style: string } {
  const background = backgroundOf(form);
  const style = `#root>.fill-page{--fill-bg:${background};--fill-on-bg:${textColorOn(background)};--fill-accent:${accentOf(form)}}`;
  const notice = ('textField' in form ? form.textField : []).some((f) => f.type === 'password')
    ? '<p role="note" class="fill-notice"><span aria-hidden="true" class="fill-notice-icon">!</span>Never enter a password you use elsewhere. Easy Form will never ask for your account password.</p>'
    : '';
  const html =
    `<style>${style}</style><div class="fill-page"><div class="fill-topbar"></div>${notice}` +
    `<main class="fill-main">${content}</main>` +
    '<footer class="fill-footer">Made with <strong>Easy Form</strong></footer></div>';
  return { html, style };
}

const headingClass = (form: { color: string }) =>
  isHardToRead(backgroundOf(form)) ? 'fill-heading fill-heading-card' : 'fill-heading';

export type CustomerPage = {
  html: string;
  /** The inline style texts the page's Content-Security-Policy must allow. */
  styles: string[];
  /** The inline script texts it must allow (the deferred start of the React page, `deferEntry`). */
  scripts?: string[];
};

/** When a page drawn by the server starts its entry script (`deferEntry`). */
export type EntryStart = {
  /**
   * 'paint': once the page has loaded and its first contentful paint has been reported (the presented frame, not
   * the frame the page drew, which the compositor can show a good while later), or on `load` where the browser
   * reports no paint timing. 'first-touch': at the first pointer, touch, key or focus on the page (the landing page,
   * whose links work without the app; ADR 032 does the same for the customer's React in its own entry).
   */
  on: 'paint' | 'first-touch';
  /**
   * A script expression under which the entry starts at once: a page that draws nothing before its script has no
   * paint or touch to wait for (the landing page in an owner's browser, landing/session-gate.ts).
   */
  nowIf?: string;
};

/**
 * The template with its entry script started only once the page the server drew no longer needs the network to
 * itself (`start`). The page is whole without JavaScript, so nothing waits for it; the first paint owes nothing to
 * the script, and no request for it begins before that paint, which Lighthouse's simulation would otherwise charge
 * to it (issue 13, LCP: before, an import begun a frame after `load` but before the frame was shown added 150–400 ms
 * in some runs; ADR 030). Returns the template unchanged when it has no entry script (the app was not built).
 */
export function deferEntry(
  template: string,
  start: EntryStart = { on: 'paint' },
): { template: string; script: string | null } {
  const entry = /<script type="module"(?: crossorigin)? src="(\/assets\/[\w.-]+\.js)"><\/script>/.exec(
    template,
  );
  if (!entry?.[1]) return { template, script: null };
  // At the first touch the page's module hints go in with the import, so that the entry's dependencies and the
  // screens it will load come in one round trip rather than one after another (for the paint, none is wanted).
  const hints =
    start.on === 'first-touch'
      ? [
          ...template.matchAll(/<link rel="modulepreload"(?: crossorigin)? href="(\/assets\/[\w.-]+\.js)">/g),
        ].map((hint) => hint[1] ?? '')
      : [];
  const load =
    (hints.length > 0
      ? `for(const h of ${JSON.stringify(hints)})document.head.append(Object.assign(document.createElement("link"),{rel:"modulepreload",href:h}));`
      : '') + `import("${entry[1]}")`;
  const deferred =
    start.on === 'paint'
      ? `let w=2;const go=()=>--w||${load};addEventListener("load",go);` +
        'PerformanceObserver.supportedEntryTypes?.includes("paint")' +
        '?new PerformanceObserver((l,o)=>l.getEntriesByName("first-contentful-paint").length&&(o.disconnect(),go()))' +
        '.observe({type:"paint",buffered:true}):go()'
      : 'const t=["pointerdown","pointermove","touchstart","keydown","focusin"],' +
        // A pointer that did not move (the browser re-checking what is under a resting cursor once the page is laid
        // out, as a headless shell does at 0,0) is no visitor's touch.
        `go=e=>{if(e.type=="pointermove"&&!e.movementX&&!e.movementY)return;for(const e of t)removeEventListener(e,go,!0);${load}};` +
        'for(const e of t)addEventListener(e,go,{capture:!0,passive:!0})';
  const script = start.nowIf ? `if(${start.nowIf}){${load}}else{${deferred}}` : deferred;
  return {
    template: template
      .replace(entry[0], () => `<script type="module">${script}</script>`)
      .replace(/<link rel="modulepreload"[^>]*>\s*/g, ''),
    script,
  };
}

/**
 * customer.html for one form's link: the whole form drawn on the server, posting to `action` without JavaScript,
 * and its data so the React page that takes over needs no fetch (`embed`, for GET; a posted page runs no script).
 */
export function renderCustomerPage(
  template: string,
  form: PublicForm,
  options: { action: string; state: FormState; embed: boolean },
): CustomerPage {
  // The files step and a later page name the form in a line or two and leave the description to the first, as the
  // React page does.
  const view = pageViewOfState(form, options.state);
  const step = view ? null : stepOf(form, options.state);
  const later = step === 'files' || (view !== null && view.number > 1);
  const label = view ? pageLabel(view) : stepLabel(step);
  const under = view ? pageHeadingHtml(view) : '';
  const heading = later
    ? headingHtml(
        { formTitle: form.formTitle, description: '' },
        `${headingClass(form)} fill-later`,
        label,
        under,
      )
    : headingHtml(form, headingClass(form), label, under);
  const refused = Object.keys(options.state.errors ?? {}).length > 0;
  // A page sent back with answers to fix clears each message as its question changes, where scripts run.
  const clearing = refused && !options.embed;
  const content =
    heading +
    formHtml(form, options.action, options.state) +
    (clearing ? `<script>${CLEAR_FIXED_ERRORS}</script>` : '');
  const layout = layoutOf(form, content);
  const data = options.embed
    ? `<script type="application/json" id="fill-form">${embeddedJson(form)}</script>`
    : '';
  // The form's own words for search results and link previews (a chat app's card of the shared link).
  const description = (form.description || form.formTitle).slice(0, 300);
  const deferred = options.embed ? deferEntry(template) : { template, script: null };
  return {
    // A page sent back with answers to fix says so in its title, which a screen reader reads first.
    html: fillTemplate(
      deferred.template,
      `${refused ? 'Error: ' : ''}${form.formTitle}`,
      layout.html,
      data,
      description,
    ),
    styles: [...templateStyles(template), layout.style],
    scripts: [...(deferred.script ? [deferred.script] : []), ...(clearing ? [CLEAR_FIXED_ERRORS] : [])],
  };
}

/** A page on the form's colours with other content than the form (the thank-you). */
export function renderOnFormColours(template: string, form: PublicForm, content: string): CustomerPage {
  const layout = layoutOf(form, content);
  return {
    html: fillTemplate(template, form.formTitle, layout.html),
    styles: [...templateStyles(template), layout.style],
  };
}

/** A closed form's page: its title on its colours, and what it says (message-html.ts closedFormHtml). */
export function renderClosedPage(template: string, look: ClosedFormLook, message: string): CustomerPage {
  const layout = layoutOf(look, closedFormHtml(look, headingClass(look), message));
  const data = `<script type="application/json" id="${CLOSED_LOOK_ID}">${embeddedJson(look)}</script>`;
  return {
    html: fillTemplate(template, `Closed: ${look.formTitle}`, layout.html, data),
    styles: [...templateStyles(template), layout.style],
  };
}

/** A page that says one thing (customer-form-html.ts messageHtml), with no inline style. */
export const renderMessagePage = (template: string, title: string, content: string): CustomerPage => ({
  html: fillTemplate(template, title, content),
  styles: templateStyles(template),
});

/**
 * The stylesheets of the built page, each as a <style> in its head instead of a <link>: the server-drawn form then
 * paints from the first response, with no request for CSS before it (LCP on a slow phone network, issue 13). The
 * CSS is ours, from the build; the page's policy allows exactly these texts by hash (`templateStyles`).
 */
export function inlineStylesheets(template: string, readAsset: (name: string) => string | null): string {
  return template.replace(
    /<link rel="stylesheet"(?: crossorigin)? href="\/assets\/([\w.-]+\.css)"\s*\/?>/g,
    (link, name: string) => {
      const css = readAsset(name);
      return css === null || css.includes('</style')
        ? link
        : `<style>${css}</style><link rel="stylesheet" href="/assets/${name}" disabled>`;
    },
  );
}

/** The <style> texts of a template (its inlined stylesheets), for the page's Content-Security-Policy. */
export const templateStyles = (template: string): string[] => inlineTexts(template, 'style');

/** The inline <script> texts of a template's head (landing.html's session gate), for its Content-Security-Policy. */
export const templateScripts = (template: string): string[] => inlineTexts(template, 'script');

// Every page asks for these: read once per template and tag, not per request (keyed by the template itself, whose
// hash the engine keeps, rather than by a new string made of it on every call).
const inlineTextsOf = { style: new Map<string, string[]>(), script: new Map<string, string[]>() };
function inlineTexts(template: string, tag: 'style' | 'script'): string[] {
  let texts = inlineTextsOf[tag].get(template);
  if (!texts) {
    const head = template.slice(0, template.indexOf('</head>'));
    texts = [...head.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => m[1] ?? '');
    inlineTextsOf[tag].set(template, texts);
  }
  return texts;
}
