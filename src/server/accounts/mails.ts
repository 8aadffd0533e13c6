import { OTP_MINUTES, VERIFICATION_LINK_HOURS } from '#common/accounts.ts';
import { escapeHtml } from '../html.ts';
import type { Mail } from '../mail/mailer.ts';

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

export function resetCodeMail(to: string, code: string): Mail {
  return {
    to,
    subject: 'Your Easy Form password reset code',
    text: `Your Easy Form password reset code is ${code}. It is valid for ${OTP_MINUTES} minutes and can be used once. If you did not ask to reset your password, ignore this mail: your password is unchanged.`,
    html: `<p>Your Easy Form password reset code is</p>
<p style="font-size:24px;font-weight:bold;letter-spacing:4px">${code}</p>
<p>It is valid for ${OTP_MINUTES} minutes and can be used once. If you did not ask to reset your password, ignore this mail: your password is unchanged.</p>`,
  };
}
