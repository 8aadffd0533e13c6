// The requests a client may make per address, email, device or owner in a window (RATE_LIMITS overrides them; the
// config reader, config.ts, scales and checks them).
export type RateLimitRule = { max: number; windowMs: number };

const MiB = 1024 * 1024;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Per IP and per email. A person retrying, or an office behind one address, stays far below these; a script that
 * guesses passwords or codes meets them within seconds. docs/decisions/004-account-rate-limits.md has the reasoning.
 */
export const DEFAULT_RATE_LIMITS = {
  loginPerIp: { max: 100, windowMs: 15 * MINUTE },
  loginPerEmail: { max: 10, windowMs: 15 * MINUTE },
  // A login from a browser the account has logged in from before is counted by that browser instead of by IP and
  // email, so strangers guessing cannot lock the owner out; a stolen device cookie still guesses no faster.
  loginPerDevice: { max: 10, windowMs: 15 * MINUTE },
  signUpPerIp: { max: 30, windowMs: HOUR },
  signUpPerEmail: { max: 5, windowMs: HOUR },
  sendOtpPerIp: { max: 30, windowMs: HOUR },
  // Counted per email from one address, not per email alone: a stranger asking for codes uses up only their own.
  sendOtpPerEmail: { max: 5, windowMs: HOUR },
  // Codes mailed to one email, from any address: what bounds code guessing. Past it a reset mail still goes out,
  // carrying only its link, which cannot be guessed.
  resetCodesPerEmail: { max: 5, windowMs: HOUR },
  updatePasswordPerIp: { max: 60, windowMs: 15 * MINUTE },
  updatePasswordPerEmail: { max: 10, windowMs: 15 * MINUTE },
  // A form filled on a phone makes one submission and a few uploads; a school or event network behind one address
  // may send many submissions in a minute, so these are generous.
  submissionsPerIp: { max: 60, windowMs: MINUTE },
  // Next and Back on the page without JavaScript store nothing but a short-lived draft of the page (ADR 024): bounded
  // apart from submissions, so a stranger cannot fill the database with drafts, and generous for a class of customers
  // behind one address stepping through a form.
  pageStepsPerIp: { max: 600, windowMs: HOUR },
  // Uploads from one address an hour, and what it may leave unclaimed (not yet part of a submission or profile)
  // within a day: anyone may upload without an account (the customer's page does), so these bound the disk a
  // stranger can fill. docs/decisions/015-upload-hardening.md has the reasoning.
  uploadsPerIp: { max: 300, windowMs: HOUR },
  unclaimedUploadsPerIp: { max: 100, windowMs: 24 * HOUR },
  unclaimedUploadBytesPerIp: { max: 500 * MiB, windowMs: 24 * HOUR },
  // Send test makes this server POST to an address the owner chose, at once: bounded per owner so an account cannot
  // turn it into a request cannon. An owner checking a receiver sends a handful.
  webhookTestPerOwner: { max: 10, windowMs: MINUTE },
} satisfies Record<string, RateLimitRule>;
export type RateLimits = typeof DEFAULT_RATE_LIMITS;
