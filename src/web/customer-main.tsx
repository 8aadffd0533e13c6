import './zod-without-eval.ts';
import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { HONEYPOT_FIELD } from '#common/answer-limits.ts';
import { CustomerApp } from './fill/customer-app.tsx';
import { CustomerError } from './fill/customer-error.tsx';
import { loadScreen } from './fill/customer-screens.ts';
import { saveDraft } from './fill/fill-storage.ts';
import { registerWorker } from './fill/offline/register-worker.ts';
import { readServerForm } from './fill/server-form-answers.ts';
import './ui/styles.css';

// The entry of customer.html (/customer/{fid}/{id}, /preview, /fileUpload): no router, no query cache, no zod up
// front (docs/decisions/012-customer-entry.md).
const root = document.getElementById('root');
if (!root) throw new Error('customer.html has no #root');
registerWorker();
// The first screen renders once loaded, so the heading the server drew stays until the form replaces it. What the
// customer typed in the server's form meanwhile goes into the saved answers first, and the focus stays where it was;
// a chosen file cannot be carried over, so then the server's form stays (it posts answers and files itself).
const landedOn = location.pathname;
void loadScreen(landedOn).then((first) => {
  if (!first) return location.replace('/');
  const typed = readServerForm(root, HONEYPOT_FIELD);
  if (typed.fileChosen) return history.replaceState(null, '', landedOn);
  if (first.data.state === 'ready' && Object.keys(typed.values).length > 0) {
    const { draft } = first.data;
    first.data.draft = { ...draft, values: { ...draft.values, ...typed.values } };
    saveDraft(first.data.draft);
  }
  flushSync(() =>
    createRoot(root).render(
      <StrictMode>
        <CustomerError>
          <CustomerApp first={first} />
        </CustomerError>
      </StrictMode>,
    ),
  );
  if (typed.focused) document.getElementById(typed.focused)?.focus({ preventScroll: true });
});
