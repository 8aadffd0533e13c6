import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.ts';
import { Alert } from '../ui/alert.tsx';
import { SitePage } from './site-chrome.tsx';

const PAGES = {
  terms: { title: 'Terms of use', path: '/api/v1/site/terms' },
  privacy: { title: 'Privacy', path: '/api/v1/site/privacy' },
} as const;

/** /terms and /privacy: the words of this instance's operator (TERMS_FILE, PRIVACY_FILE), or the server's default. */
export function LegalPage({ page }: { page: keyof typeof PAGES }) {
  const { title, path } = PAGES[page];
  const text = useQuery({
    queryKey: ['site-text', page],
    queryFn: () => api<{ text: string }>(path, { expects: ['text'] }),
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
