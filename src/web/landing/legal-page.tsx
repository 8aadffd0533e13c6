import { useQuery } from '@tanstack/react-query';
import { fetchSiteText, type SiteTextPage } from '../api/site-text.ts';
import { Alert } from '../ui/alert.tsx';
import { SitePage } from './site-chrome.tsx';

const TITLES: Record<SiteTextPage, string> = { terms: 'Terms of use', privacy: 'Privacy' };

/** /terms and /privacy: the words of this instance's operator (TERMS_FILE, PRIVACY_FILE), or the server's default. */
export function LegalPage({ page }: { page: SiteTextPage }) {
  const title = TITLES[page];
  const text = useQuery({
    queryKey: ['site-text', page],
    queryFn: () => fetchSiteText(page),
  });
  return (
    <SitePage title={title}>
      <div className="site-text" aria-busy={text.isPending}>
        {text.isError ? (
          <Alert tone="error">
            This page could not be loaded. Check your connection and reload the page.
          </Alert>
        ) : (
          text.data?.text.split(/\n\s*\n/).map((paragraph, i) => <p key={i}>{paragraph}</p>)
        )}
      </div>
    </SitePage>
  );
}

export const TermsPage = () => <LegalPage page="terms" />;
export const PrivacyPage = () => <LegalPage page="privacy" />;
