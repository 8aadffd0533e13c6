import { OTP_MINUTES, VERIFICATION_LINK_HOURS } from '#common/accounts.ts';
import type { Mail } from '../../mail/mailer.ts';
import { escapeHtml } from '../../pages/html.ts';

export function verificationMail(to: string, fullName: string, link: string): Mail {
  return {
    to,
    subject: 'Verify your email for Easy Form',
    text: `Hi ${fullName}, confirm your email address by opening this link: ${link} — it is valid for ${VERIFICATION_LINK_HOURS} hours. If you did not sign up for Easy Form, ignore this mail.`,
    html: `<p>Hi ${escapeHtml(fullName)},</p>
<p>Confirm your email address to start building forms:</p>
<p><a href="${escapeHtml(link)}">Verify my email</a></p>
<p>The link is valid for ${VERIFICATION_LINK_HOURS} hours. If you did not sign up for Easy Form, ignore this mail.</p>`,
  };
}

/**
 * The reset mail: a link that sets a new password, and the code for the original client's page unless `code` is
 * null.
 */
export function resetMail(to: string, code: string | null, link: string): Mail {
  const valid = `valid for ${OTP_MINUTES} minutes and can be used once`;
  const ignore = 'If you did not ask to reset your password, ignore this mail: your password is unchanged.';
  if (!code) {
    return {
      to,
      subject: 'Reset your Easy Form password',
      text: `Open this link to set a new Easy Form password: ${link} — it is ${valid}. ${ignore}`,
      html: `<p>Open this link to set a new Easy Form password:</p>
<p><a href="${escapeHtml(link)}">Set a new password</a></p>
<p>It is ${valid}. ${ignore}</p>`,
    };
  }
  return {
    to,
    subject: 'Your Easy Form password reset code',
    text: `Your Easy Form password reset code is ${code}. Or open this link to set a new password: ${link} — both are ${valid}. ${ignore}`,
    html: `<p>Your Easy Form password reset code is</p>
<p style="font-size:24px;font-weight:bold;letter-spacing:4px">${code}</p>
<p>Or set a new password with this link: <a href="${escapeHtml(link)}">Set a new password</a></p>
<p>Both are ${valid}. ${ignore}</p>`,
  };
}
