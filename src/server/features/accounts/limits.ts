import type { FastifyInstance, FastifyRequest } from 'fastify';
import { networkOf } from '../../http/client-address.ts';
import { HttpError, waitWords } from '../../http/errors.ts';
import type { RateLimitRule } from '../../runtime/config.ts';
import { trustedDeviceOf } from './devices.ts';

export const attemptsMessage = (retryAfterSeconds: number) =>
  `Too many attempts. Try again in ${waitWords(retryAfterSeconds)}.`;
const tooManyAttempts = (retryAfterSeconds: number) =>
  new HttpError(429, 'RATE_LIMITED', attemptsMessage(retryAfterSeconds), {
    'retry-after': String(retryAfterSeconds),
  });

type Check = (request: FastifyRequest) => Promise<void>;

const emailOf = (request: FastifyRequest) => (request.body as { email: string }).email;
const networkOfRequest = (request: FastifyRequest) => networkOf(request.ip);

/**
 * The account routes' limits (docs/decisions/004-account-rate-limits.md). They run as pre-handlers, after
 * validation, where the normalised email is known.
 */
export function accountLimits(app: FastifyInstance) {
  const limits = app.config.rateLimits;
  /** One count keyed by `keyOf`: 429 with Retry-After past `rule`. */
  const counted = (rule: RateLimitRule, keyOf: (request: FastifyRequest) => string): Check => {
    const check = app.createRateLimit({ max: rule.max, timeWindow: rule.windowMs, keyGenerator: keyOf });
    return async (request) => {
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) throw tooManyAttempts(result.ttlInSeconds);
    };
  };
  const all =
    (...checks: Check[]): Check =>
    async (request) => {
      for (const check of checks) await check(request);
    };
  // Per address (a script spraying many emails) and per email (many addresses guessing one account).
  const perIpAndEmail = (name: string, perIp: RateLimitRule, perEmail: RateLimitRule) =>
    all(
      counted(perIp, (req) => `${name}:ip:${networkOfRequest(req)}`),
      counted(perEmail, (req) => `${name}:email:${emailOf(req)}`),
    );

  const loginByStrangers = perIpAndEmail('login', limits.loginPerIp, limits.loginPerEmail);
  const deviceOf = new WeakMap<FastifyRequest, string>();
  const loginByDevice = counted(limits.loginPerDevice, (req) => `login:device:${deviceOf.get(req) ?? ''}`);
  // Counts of codes mailed per email, read by the send-code route itself: past it the mail carries only its link.
  const codesMailed = app.createRateLimit({
    max: limits.resetCodesPerEmail.max,
    timeWindow: limits.resetCodesPerEmail.windowMs,
    keyGenerator: (req) => `resetCode:email:${emailOf(req)}`,
  });

  return {
    signUp: perIpAndEmail('signUp', limits.signUpPerIp, limits.signUpPerEmail),
    resendVerification: perIpAndEmail('resendVerification', limits.signUpPerIp, limits.signUpPerEmail),
    /**
     * A browser that has logged in to this account before is counted on its own: strangers' guesses at the
     * address cannot lock it out, and a stolen device cookie guesses no faster than a stranger.
     */
    login: async (request: FastifyRequest) => {
      const device = await trustedDeviceOf(app.db, request.headers.cookie, emailOf(request));
      if (!device) return loginByStrangers(request);
      deviceOf.set(request, device);
      return loginByDevice(request);
    },
    // Per email from one address, not per email alone: a stranger asking uses up only their own count.
    sendOtp: all(
      counted(limits.sendOtpPerIp, (req) => `sendOtp:ip:${networkOfRequest(req)}`),
      counted(limits.sendOtpPerEmail, (req) => `sendOtp:email:${emailOf(req)}:ip:${networkOfRequest(req)}`),
    ),
    /** Whether this reset mail may carry a code; counted once per call. */
    mayMailCode: async (request: FastifyRequest) => {
      const result = await codesMailed(request);
      return result.isAllowed || !result.isExceeded;
    },
    updatePassword: perIpAndEmail(
      'updatePassword',
      limits.updatePasswordPerIp,
      limits.updatePasswordPerEmail,
    ),
    // A link's secret cannot be guessed; this bounds the password hashing one address can ask for.
    resetPassword: counted(limits.updatePasswordPerIp, (req) => `resetPassword:ip:${networkOfRequest(req)}`),
  };
}
