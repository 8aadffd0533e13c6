import type { ComponentType } from 'react';
import type { PublicForm } from '#common/forms.ts';
import { customerPaths } from '../../customer-paths.ts';
import { PreviewPage } from '../questions/preview-page.tsx';
import { CustomerLinkPage } from './customer-link-page.tsx';
import { loadCustomerLink, loadFillForm, type FillLoad } from './load-fill-form.ts';

/**
 * A loaded screen: the page to draw and what its loader found; `address`, where the screen belongs when that is not
 * the path it was loaded for (a link continues at /preview), for the caller to put in the address bar when it shows
 * the screen, not before.
 */
export type Screen = {
  Page: ComponentType<{ data: FillLoad }>;
  data: FillLoad;
  address?: string;
  /** The paths whose changes the screen follows itself (a paged form's pages): moving among them loads nothing. */
  follows?: RegExp;
};

const PREVIEW = /^\/preview\/?$/i;

/** Whether the form has page breaks: it is then filled a page at a time (docs/decisions/042-pages-and-conditions.md). */
const isPaged = (form: PublicForm) => form.items?.some((item) => item.kind === 'page') === true;

/**
 * A form with page breaks is filled by the paged screen, at /preview, loaded only for such a form (with the files
 * step's chunk: file-upload-page.tsx says why); others go to `screen`, the step the path names.
 */
async function fillScreen(pathname: string, data: FillLoad, screen: Screen): Promise<Screen> {
  if (data.state !== 'ready' || !isPaged(data.form)) return screen;
  const { PagedPage } = await import('../files/file-upload-page.tsx');
  const address = PREVIEW.test(pathname) ? undefined : customerPaths.preview.href();
  return { Page: PagedPage, data, address, follows: PREVIEW };
}

const LINK = /^\/customer\/([^/]+)\/([^/]+)\/?$/i;

/** The form the server put in the page for this link (web-app.ts), read once; later loads fetch it. */
function embeddedForm(): PublicForm | null {
  const script = document.getElementById('fill-form');
  if (!script) return null;
  script.remove();
  try {
    return JSON.parse(script.textContent ?? 'null') as PublicForm | null;
  } catch {
    return null;
  }
}

/**
 * The screen for `pathname` (/customer/{fid}/{id} continues at /preview, then /fileUpload: docs/product.md,
 * Customer pages), following the link's redirect. Null for a path that belongs to the owner's app.
 */
export async function loadScreen(pathname: string): Promise<Screen | null> {
  const link = LINK.exec(pathname);
  if (link) {
    const data = await loadCustomerLink(
      decodeURIComponent(link[1] ?? ''),
      decodeURIComponent(link[2] ?? ''),
      embeddedForm(),
    );
    if (data !== 'preview') return { Page: CustomerLinkPage, data };
    const form = await loadFillForm();
    return fillScreen(pathname, form, {
      Page: PreviewPage,
      data: form,
      address: customerPaths.preview.href(),
    });
  }
  if (PREVIEW.test(pathname)) {
    const data = await loadFillForm();
    return fillScreen(pathname, data, { Page: PreviewPage, data });
  }
  if (/^\/fileUpload\/?$/i.test(pathname)) {
    const [data, { FileUploadPage }] = await Promise.all([
      loadFillForm(),
      import('../files/file-upload-page.tsx'),
    ]);
    return fillScreen(pathname, data, { Page: FileUploadPage, data });
  }
  return null;
}
