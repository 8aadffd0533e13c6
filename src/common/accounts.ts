import { z } from 'zod';
import { isTimeZone, TIME_ZONE_MAX } from './zoned-time.ts';

/** Business constants for accounts (issue 2). */
export const PASSWORD_MIN_LENGTH = 8;
// argon2 hashes whatever it is given; an upper bound keeps a huge password from being a cheap denial of service.
export const PASSWORD_MAX_LENGTH = 256;
export const FULL_NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
export const VERIFICATION_LINK_HOURS = 24;
export const OTP_MINUTES = 10;
export const OTP_LENGTH = 6;
export const OTP_MAX_WRONG_TRIES = 5;
export const SESSION_DAYS = 30;
/** A browser an owner logged in from stays recognised this long (docs/decisions/004-account-rate-limits.md). */
export const DEVICE_DAYS = 365;

/**
 * The API's account messages, as clients know them (docs/api.md). Misspellings are corrected and recorded in docs/spec-deviations.md;
 * the login messages are kept word for word.
 */
export const ACCOUNT_MESSAGES = {
  emailNotFound: 'Email Id not found',
  passwordInvalid: 'Password Invalid',
  emailNotVerified: 'email not verified Please check Your email',
  signUpFailed: 'Something went wrong',
  otpSent: 'OTP sent successfully',
  otpFailed: 'Something went wrong',
  passwordUpdated: 'Password updated successfully',
  passwordUpdateFailed: 'Something went wrong',
} as const;

export const signUpSuccessMessage = (fullName: string): string => `Registration Successful with ${fullName}`;

export const EmailSchema = z
  .string({ error: 'Enter your email address' })
  .trim()
  .toLowerCase()
  .min(1, 'Enter your email address')
  .max(EMAIL_MAX_LENGTH, `Email must be at most ${EMAIL_MAX_LENGTH} characters`)
  .pipe(z.email({ error: 'Enter a valid email address' }));

export const PasswordSchema = z
  .string({ error: 'Enter a password' })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

export const FullNameSchema = z
  .string({ error: 'Enter your name' })
  .trim()
  .min(1, 'Enter your name')
  .max(FULL_NAME_MAX_LENGTH, `Name must be at most ${FULL_NAME_MAX_LENGTH} characters`);

const passwordsMatch = (value: { password: string; confirmPassword: string }) =>
  value.password === value.confirmPassword;
const mismatch = { message: 'Passwords do not match', path: ['confirmPassword'] };

export const SignUpBodySchema = z
  .object({
    fullName: FullNameSchema,
    email: EmailSchema,
    password: PasswordSchema,
    confirmPassword: z.string({ error: 'Confirm your password' }),
  })
  .refine(passwordsMatch, mismatch);
export type SignUpBody = z.infer<typeof SignUpBodySchema>;

export const ProfileSchema = z.object({ fullName: z.string(), email: z.string() });
export type Profile = z.infer<typeof ProfileSchema>;

export const SignUpResponseSchema = z.object({ data: ProfileSchema });

export const LoginBodySchema = z.object({
  email: EmailSchema,
  // Login checks the password against the stored hash; its length rules apply when it is set, not here.
  password: z.string({ error: 'Enter your password' }).min(1, 'Enter your password').max(PASSWORD_MAX_LENGTH),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

export const LoginResponseSchema = z.object({ token: z.string(), id: z.uuid() });
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

export const EmailBodySchema = z.object({ email: EmailSchema });
export type EmailBody = z.infer<typeof EmailBodySchema>;

export const OtpSchema = z
  .string({ error: 'Enter the code from the email' })
  .trim()
  .regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), `The code is ${OTP_LENGTH} digits`);

export const UpdatePasswordBodySchema = z
  .object({
    email: EmailSchema,
    otp: z.union([
      OtpSchema,
      z
        .number()
        .int()
        .transform((n) => String(n).padStart(OTP_LENGTH, '0')),
    ]),
    password: PasswordSchema,
    confirmPassword: z.string({ error: 'Confirm your password' }),
  })
  .refine(passwordsMatch, mismatch);
export type UpdatePasswordBody = z.input<typeof UpdatePasswordBodySchema>;

/** The secret of a reset link: 32 random bytes, base64url, as the server makes it. */
export const ResetKeySchema = z
  .string({ error: 'This reset link is not complete' })
  .regex(/^[A-Za-z0-9_-]{43}$/, 'This reset link is not complete');

/** Setting a new password with the link from the reset mail (no email or code: the link's secret is enough). */
export const ResetPasswordBodySchema = z
  .object({
    key: ResetKeySchema,
    password: PasswordSchema,
    confirmPassword: z.string({ error: 'Confirm your password' }),
  })
  .refine(passwordsMatch, mismatch);
export type ResetPasswordBody = z.infer<typeof ResetPasswordBodySchema>;

export const StatusResponseSchema = z.object({ ok: z.literal(true), message: z.string() });
export type StatusResponse = z.infer<typeof StatusResponseSchema>;

export const AccountIdParamsSchema = z.object({ id: z.uuid({ error: 'Not a valid account id' }) });

/** Settings tab: rename the account. */
export const UpdateProfileBodySchema = z.object({ fullName: FullNameSchema });
export type UpdateProfileBody = z.infer<typeof UpdateProfileBodySchema>;

/**
 * The owner's time zone, kept with the account: every time they read or enter is on its clock. Null: the zone of
 * the browser they are using.
 */
export const AccountTimeZoneSchema = z.object({
  timeZone: z
    .string({ error: 'timeZone must be a time zone name, such as Europe/Berlin, or null' })
    .max(TIME_ZONE_MAX, `timeZone must be at most ${TIME_ZONE_MAX} characters`)
    .refine(isTimeZone, { error: 'timeZone must be a time zone name, such as Europe/Berlin' })
    .nullable(),
});
export type AccountTimeZone = z.infer<typeof AccountTimeZoneSchema>;

/** Settings tab: change the password while signed in. */
export const ChangePasswordBodySchema = z
  .object({
    currentPassword: z
      .string({ error: 'Enter your current password' })
      .min(1, 'Enter your current password')
      .max(PASSWORD_MAX_LENGTH),
    password: PasswordSchema,
    confirmPassword: z.string({ error: 'Confirm your password' }),
  })
  .refine(passwordsMatch, mismatch);
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;
