// The entry of customer.html (/customer/{fid}/{id}, /preview, /fileUpload). What runs at once is small: the offline
// worker, and on a form's link the form kept on the device (a reload without a network opens it). The React page
// (fill/page/take-over.tsx, with React) is loaded and started only when it is needed (docs/decisions/032):
//  - at once on /preview and /fileUpload, which React draws; on a link whose customer has answers saved on this
//    device, which the server's form cannot show; and when the customer has used the server's form already;
//  - otherwise at the customer's first touch, click, key or pointer move on the form the server drew, which works
//    without it, so a visit that only reads the form never pays for React.
// The stylesheet is imported here, not only by the components, so that it stays in the page itself: the server
// inlines it in the form it draws (server/customer-page.ts).
import './fill/page/customer-page.css';
import type { PublicForm } from '#common/forms.ts';
import { registerWorker } from './fill/offline/register-worker.ts';
import { readServerForm } from './fill/page/server-form-answers.ts';
import { hasDraftFor, saveContext } from './fill/storage/fill-storage.ts';

const drawn = document.getElementById('root');
if (!drawn) throw new Error('customer.html has no #root');
const root: HTMLElement = drawn;
registerWorker();

const start = () =>
  void import('./fill/page/take-over.tsx').then(
    (page) => page.startCustomerPage(root),
    // Not loaded (no network and not kept yet): the server's form works on, and posts itself.
    () => undefined,
  );

const link = /^\/customer\/([^/]+)\/([^/]+)\/?$/i.exec(location.pathname);
const form = link ? embeddedForm(decodeURIComponent(link[1] ?? '')) : null;
if (link && form) {
  saveContext(form, decodeURIComponent(link[2] ?? ''));
  if (hasDraftFor(form._id) || usedAlready()) start();
  else onFirstInteraction(start);
} else start();

/** The form the server drew, as it put it in the page for React (left in place for take-over.tsx to read). */
function embeddedForm(fid: string): PublicForm | null {
  try {
    const form = JSON.parse(document.getElementById('fill-form')?.textContent ?? 'null') as PublicForm | null;
    return form?._id === fid ? form : null;
  } catch {
    return null;
  }
}

/** Whether the customer typed, ticked or focused something in the server's form before this script arrived. */
function usedAlready(): boolean {
  // No honeypot to leave out: a change to any control counts (the take-over reads the answers properly).
  const input = readServerForm(root, '');
  return input.focused !== null || input.fileChosen || Object.keys(input.values).length > 0;
}

/** Runs `then` once, at the first sign that someone is using the page. */
function onFirstInteraction(then: () => void): void {
  const events = ['pointerdown', 'pointermove', 'touchstart', 'keydown', 'focusin'] as const;
  const once = (event: Event) => {
    // A pointer that did not move (the browser re-checking what is under a resting cursor once the page is laid out)
    // is no sign of anyone.
    const moved = event as MouseEvent;
    if (event.type === 'pointermove' && !moved.movementX && !moved.movementY) return;
    for (const type of events) removeEventListener(type, once, true);
    then();
  };
  for (const type of events) addEventListener(type, once, { capture: true, passive: true });
}
