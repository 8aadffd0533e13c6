import { Link } from 'react-router';
import { paths } from '../paths.ts';
import { SitePage } from './site-chrome.tsx';

/** /resources: what to read to use Easy Form and to run it. */
export function ResourcesPage() {
  return (
    <SitePage title="Resources" lead="How to build forms, read their answers and run your own Easy Form.">
      <h2>Getting started</h2>
      <ol>
        <li>
          <Link to={paths.signUp.href()}>Sign up</Link> with your e-mail address and follow the link we send
          you.
        </li>
        <li>
          Choose Create New or one of the <Link to={paths.templates.href()}>templates</Link>, add and rename
          questions; every change is saved as you go.
        </li>
        <li>Copy the form&apos;s public link, or mail it, to the people who should fill it in.</li>
        <li>Open Responses to read each answer, its photos and PDFs, and to download them as CSV.</li>
      </ol>
      <h2>Sending answers elsewhere</h2>
      <p>
        Webhooks, CSV and the JSON export and import are described on{' '}
        <Link to={paths.integrations.href()}>Integrations</Link>.
      </p>
      <h2>Running your own instance</h2>
      <p>
        Easy Form ships with its documentation in its source repository: <code>README.md</code> to install and
        start it, <code>docs/operations.md</code> to run it as a service, back it up, restore and upgrade it,{' '}
        <code>docs/security.md</code> for what it protects and how, and <code>docs/api.md</code> for its HTTP
        API.
      </p>
      <h2>Need a hand?</h2>
      <p>
        See <Link to={paths.support.href()}>Support</Link>.
      </p>
    </SitePage>
  );
}
