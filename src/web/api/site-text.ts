import { api } from './client.ts';

/** The operator's words for the public site's Terms or Privacy page (TERMS_FILE, PRIVACY_FILE on the server). */
export type SiteTextPage = 'terms' | 'privacy';

export const fetchSiteText = (page: SiteTextPage) =>
  api<{ text: string }>(`/api/v1/site/${page}`, { expects: ['text'] });
