import './zod-without-eval.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { CustomerApp } from './fill/customer-app.tsx';
import { CustomerError } from './fill/customer-error.tsx';
import { loadScreen } from './fill/customer-screens.ts';
import { registerWorker } from './fill/offline/register-worker.ts';
import './ui/styles.css';

// The entry of customer.html (/customer/{fid}/{id}, /preview, /fileUpload): no router, no query cache, no zod up
// front (docs/decisions/012-customer-entry.md).
const root = document.getElementById('root');
if (!root) throw new Error('customer.html has no #root');
registerWorker();
// The first screen renders once loaded, so the heading the server drew stays until the form replaces it.
void loadScreen(location.pathname).then((first) => {
  if (!first) return location.replace('/');
  createRoot(root).render(
    <StrictMode>
      <CustomerError>
        <CustomerApp first={first} />
      </CustomerError>
    </StrictMode>,
  );
});
