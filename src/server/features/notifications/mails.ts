// The mails of owner notifications and respondent copies: an HTML part escaped with the shared escapeHtml, and a
// text part. docs/decisions/021-response-notifications.md.
import { formatSpecDate } from '#common/forms.ts';
import { truncateText } from '#common/unstorable-text.ts';
import type { Mail } from '../../mail/mailer.ts';
import { escapeHtml } from '../../pages/html.ts';
import type { SubmissionForMail } from './deps.ts';

/** Responses listed one by one in a digest; the rest are counted, with a link to them all. */
export const DIGEST_LISTED = 50;

type MailContext = { title: string; timeZone: string; linkOf: (submissionId: string) => string };

/** A title on one line: a header cannot carry a line break, and a subject should stay readable. */
const oneLine = (text: string, max: number) => truncateText(text.replace(/\s+/g, ' ').trim(), max);

const answersText = (s: SubmissionForMail) =>
  s.answers.length === 0 ? '(no answers)' : s.answers.map((a) => `${a.question}: ${a.text}`).join('\n');

const answersHtml = (s: SubmissionForMail) =>
  s.answers.length === 0
    ? '<p>(no answers)</p>'
    : `<dl>${s.answers
        .map(
          (a) =>
            `<dt style="font-weight:bold;margin-top:8px">${escapeHtml(a.question)}</dt><dd style="margin:0;white-space:pre-wrap">${escapeHtml(a.text)}</dd>`,
        )
        .join('')}</dl>`;

/** One response: its answers by question and the link to it in the owner's dashboard. */
export function responseMail(to: string, s: SubmissionForMail, c: MailContext): Mail {
  const title = oneLine(c.title, 120);
  const when = formatSpecDate(s.createdAt, c.timeZone);
  const link = c.linkOf(s.id);
  return {
    to,
    subject: `New response to "${title}"`,
    text: `A new response to "${title}" arrived on ${when}.\n\n${answersText(s)}\n\nOpen it: ${link}\n\nYou get this mail because notifications are on for this form; turn them off in the form's editor.`,
    html: `<p>A new response to <strong>${escapeHtml(title)}</strong> arrived on ${escapeHtml(when)}.</p>
${answersHtml(s)}
<p><a href="${escapeHtml(link)}">Open the response</a></p>
<p style="color:#666">You get this mail because notifications are on for this form; turn them off in the form's editor.</p>`,
  };
}

/** A short line for a digest: the first answers, cut short. */
const summaryOf = (s: SubmissionForMail) =>
  oneLine(
    s.answers
      .slice(0, 3)
      .map((a) => a.text)
      .join(' · ') || '(no answers)',
    140,
  );

/** Several responses that arrived within one window (`total`; the first of them in `items`): a line and a link each. */
export function digestMail(
  to: string,
  items: readonly SubmissionForMail[],
  total: number,
  c: MailContext & { allLink: string },
): Mail {
  const title = oneLine(c.title, 120);
  const listed = items.slice(0, DIGEST_LISTED);
  const more = Math.max(0, total - listed.length);
  const lines = listed.map(
    (s) => `- ${formatSpecDate(s.createdAt, c.timeZone)}: ${summaryOf(s)}\n  ${c.linkOf(s.id)}`,
  );
  const moreText = more > 0 ? `\n…and ${more} more: ${c.allLink}` : '';
  return {
    to,
    subject: `${total} new responses to "${title}"`,
    text: `${total} new responses to "${title}" arrived in the last few minutes.\n\n${lines.join('\n')}${moreText}\n\nAll responses: ${c.allLink}\n\nYou get this mail because notifications are on for this form; turn them off in the form's editor.`,
    html: `<p>${total} new responses to <strong>${escapeHtml(title)}</strong> arrived in the last few minutes.</p>
<ul>${listed
      .map(
        (s) =>
          `<li>${escapeHtml(formatSpecDate(s.createdAt, c.timeZone))}: ${escapeHtml(summaryOf(s))} — <a href="${escapeHtml(c.linkOf(s.id))}">open</a></li>`,
      )
      .join('')}</ul>
${more > 0 ? `<p>…and ${more} more.</p>` : ''}
<p><a href="${escapeHtml(c.allLink)}">All responses</a></p>
<p style="color:#666">You get this mail because notifications are on for this form; turn them off in the form's editor.</p>`,
  };
}

/**
 * The respondent's copy goes to an address a stranger typed, so it carries nothing to follow: the answers as plain
 * text, who sends it and why, and no link at all.
 */
export function respondentCopyMail(
  to: string,
  s: SubmissionForMail,
  c: { title: string; timeZone: string; site: string },
): Mail {
  const title = oneLine(c.title, 120);
  const when = formatSpecDate(s.createdAt, c.timeZone);
  const why = `This address was typed into the form "${title}" on ${c.site} on ${when}, and the form's owner asked Easy Form to send respondents a copy of their answers. If you did not fill in this form, ignore this mail: nothing else will be sent and no account was made.`;
  return {
    to,
    subject: `Your response to "${title}"`,
    text: `Thank you for your response. Here is a copy of what you sent:\n\n${answersText(s)}\n\n${why}`,
    html: `<p>Thank you for your response. Here is a copy of what you sent:</p>
${answersHtml(s)}
<p style="color:#666">${escapeHtml(why)}</p>`,
  };
}
