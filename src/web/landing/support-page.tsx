import { Link } from 'react-router';
import { paths } from '../paths.ts';
import { SitePage } from './site-chrome.tsx';

/** /support: where to get help, and how to report a security problem privately. */
export function SupportPage() {
  return (
    <SitePage title="Support" lead="Where to ask, and what to tell us so we can help quickly.">
      <h2>About a form you filled in</h2>
      <p>
        The person or business who sent you the link owns the form and its answers: ask them to change or
        remove what you sent. This instance&apos;s operator is named in its{' '}
        <Link to={paths.privacy.href()}>privacy notice</Link>.
      </p>
      <h2>Using Easy Form</h2>
      <p>
        Start with <Link to={paths.resources.href()}>Resources</Link>. For a problem with this server (mail
        that does not arrive, an account you cannot open), contact the operator who runs it.
      </p>
      <h2>A bug or an idea</h2>
      <p>
        Open an issue on the project&apos;s source repository. Say what you did, what you expected and what
        happened, with the browser and the page&apos;s address; a screenshot helps.
      </p>
      <h2>A security problem</h2>
      <p>
        Please do not report a vulnerability in a public issue. Use the source repository&apos;s private
        vulnerability reporting (its Security tab, then Report a vulnerability), which reaches the maintainers
        alone. Say what an attacker can do and who they must be, the version and the configuration that
        matter, and the smallest steps that show it. You get an answer within three working days and credit in
        the release notes unless you prefer otherwise.
      </p>
    </SitePage>
  );
}
