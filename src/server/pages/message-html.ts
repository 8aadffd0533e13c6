// The customer's pages around the form, drawn on the server as the React page draws them (the fill and
// form-unavailable components): the form's heading, the thank-you card, and the one-card message pages (closed,
// missing, not found, answers not sent). Owner text goes in dir="auto" elements, as in customer-form-html.ts.
import { FORM_CLOSED_MESSAGE, NOT_OPEN_YET_PREFIX, SUBMIT_SUCCESS_MESSAGE } from '#common/answer-limits.ts';
import type { PublicForm } from '#common/forms.ts';
import { linkParts, NEW_TAB_NOTE, OWNER_LINK_REL } from '#common/text-links.ts';
import { escapeHtml as e } from './html.ts';

/** Text the owner wrote, escaped, with its web addresses as links (LinkedText in the React page draws the same). */
const linkedHtml = (text: string) =>
  linkParts(text)
    .map((part) =>
      part.href === undefined
        ? e(part.text)
        : `<a href="${e(part.href)}" rel="${OWNER_LINK_REL}" target="_blank">${e(part.text)}<span class="visually-hidden">${NEW_TAB_NOTE}</span></a>`,
    )
    .join('');

/** The heading of fill-layout / form-heading: title and description. */
export function headingHtml(
  form: Pick<PublicForm, 'formTitle' | 'description'>,
  className: string,
  step?: string,
  /** What follows the description inside the heading (a page's title and bar). */
  after = '',
): string {
  const description = form.description
    ? `<p class="fill-description" dir="auto">${linkedHtml(form.description)}</p>`
    : '';
  return `<header class="${className}">${step ? `<p class="fill-step">${e(step)}</p>` : ''}<h1 dir="auto">${e(form.formTitle)}</h1>${description}${after}</header>`;
}

const SUCCESS_ICON =
  '<svg class="fill-success-icon" viewBox="0 0 48 48" width="64" height="64" aria-hidden="true"><circle cx="24" cy="24" r="24" fill="currentColor"/>' +
  '<path d="M14 24.5l6.5 6.5L34 17.5" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/></svg>';

/**
 * submit-success.tsx without its timer: the owner's thank-you, and their address as a link the customer follows
 * (no automatic redirect without a script: a timed refresh fails WCAG 2.2.1), or a way to answer again.
 */
export function thankYouHtml(form: PublicForm, againHref: string, redirect: URL | null): string {
  const message = form.thankYouMessage
    ? `<p class="fill-owner-message" dir="auto">${e(form.thankYouMessage)}</p>`
    : '';
  const next = redirect
    ? `<div class="fill-redirect"><p>Continue to <strong>${e(redirect.host)}</strong>.</p>` +
      `<a class="button button-primary button-block" href="${e(redirect.href)}">Continue now</a></div>`
    : `<a class="button button-primary button-block" href="${e(againHref)}">Submit another response</a>`;
  return (
    `<section class="fill-card fill-success" aria-labelledby="fill-success-title">${SUCCESS_ICON}` +
    `<h1 id="fill-success-title">${e(SUBMIT_SUCCESS_MESSAGE)}</h1>` +
    `<p>Your response to <strong dir="auto">${e(form.formTitle)}</strong> was sent.</p>${message}${next}</section>`
  );
}

/** A paragraph of a message page: ours, or the owner's own words (their direction, their line breaks). */
export type MessageParagraph = string | { ownerText: string };

const paragraphHtml = (p: MessageParagraph) =>
  typeof p === 'string' ? `<p>${e(p)}</p>` : `<p class="fill-owner-message" dir="auto">${e(p.ownerText)}</p>`;

/** form-unavailable.tsx's page: the site header and one card that says one thing. */
export function messageHtml(
  icon: string,
  title: string,
  paragraphs: MessageParagraph[],
  link?: { href: string; text: string; secondary?: boolean },
): string {
  const kind = link?.secondary ? 'button-secondary' : 'button-primary';
  const action = link
    ? `<a class="button ${kind} button-block" href="${e(link.href)}">${e(link.text)}</a>`
    : '';
  return (
    `<header class="site-header"><div class="container site-header-inner"><a href="/" class="brand" target="_top">` +
    `<span class="brand-mark" aria-hidden="true">E</span><span class="brand-name">Easy Form</span></a></div></header>` +
    `<main class="auth-main"><div class="card auth-card"><div class="icon-hero" aria-hidden="true">${e(icon)}</div>` +
    `<h1>${e(title)}</h1>${paragraphs.map(paragraphHtml).join('')}${action}</div></main>`
  );
}

/** What a closed form says: "not open yet" with when it opens, else closed with the owner's message or ours. */
function closedWords(message: string): { title: string; paragraphs: MessageParagraph[] } {
  if (message.startsWith(NOT_OPEN_YET_PREFIX)) {
    const when = message.slice(NOT_OPEN_YET_PREFIX.length).trim();
    return { title: 'This form is not open yet', paragraphs: [`${when} Come back then to fill it in.`] };
  }
  return {
    title: 'This form is closed',
    paragraphs: [
      message !== FORM_CLOSED_MESSAGE
        ? { ownerText: message }
        : 'It is no longer accepting responses. Ask whoever sent you the link if you need to reach them.',
    ],
  };
}

/**
 * form-unavailable.tsx's closed page: a closed form named by its title, in a card under it on the form's colours (the page around it
 * is customer-page.ts renderClosedPage), so the customer sees which form it is.
 */
export function closedFormHtml(form: Pick<PublicForm, 'formTitle'>, headingClass: string, message: string) {
  const { title, paragraphs } = closedWords(message);
  return (
    headingHtml({ formTitle: form.formTitle, description: '' }, headingClass) +
    `<section class="fill-card fill-closed" aria-labelledby="fill-closed-title">` +
    `<div class="icon-hero" aria-hidden="true">!</div><h2 id="fill-closed-title">${e(title)}</h2>` +
    `${paragraphs.map(paragraphHtml).join('')}</section>`
  );
}

/** form-unavailable.tsx's card for a link to no form. */
export const missingHtml = () =>
  messageHtml('?', 'This form is no longer available', ['Check the link with whoever sent it to you.']);

/** not-found-page.tsx's card, for a page address the server itself cannot read (web-app.ts answerUnreadableAddress). */
export const pageNotFoundHtml = () =>
  messageHtml(
    '?',
    'Page not found',
    ['There is nothing at this address. It may have moved, or the link may be mistyped.'],
    { href: '/', text: 'Go to the home page' },
  );
