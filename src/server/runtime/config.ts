import { resolve } from 'node:path';
import { z } from 'zod';
import type { Disk } from '../db/durable-dir.ts';
import { parseTrustProxy } from '../http/client-address.ts';
import type { FileSync } from '../storage/file-sync.ts';
import { parseStorageUrl, type S3Location } from '../storage/storage-url.ts';
import { DEFAULT_RATE_LIMITS, type RateLimitRule, type RateLimits } from './rate-limits.ts';

const MiB = 1024 * 1024;

/** A URL setting; `needsHost`: one without a host (`smtp://`, `smtp:/x@@`) is refused rather than read as localhost. */
const optionalUrl = (protocols: RegExp, hint: string, needsHost = false) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()))
    .refine((v) => v === undefined || (URL.canParse(v) && protocols.test(new URL(v).protocol)), hint)
    .refine(
      (v) => !needsHost || v === undefined || !URL.canParse(v) || new URL(v).hostname !== '',
      'must name the server, e.g. smtp://user:password@mail.example.com:587',
    );

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** A number of seconds from 0 to `max`. */
const seconds = (max: number, fallback: number) =>
  z.coerce
    .number({ error: `must be a number of seconds from 0 to ${max}` })
    .min(0, `must be a number of seconds from 0 to ${max}`)
    .max(max, `must be a number of seconds from 0 to ${max}`)
    .default(fallback);

/** The environment variables (the README's configuration table), validated once at start-up. */
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl(/^postgres(ql)?:$/, 'must be a postgres:// or postgresql:// URL'),
  SMTP_URL: optionalUrl(/^smtps?:$/, 'must be an smtp:// or smtps:// URL', true),
  MAIL_FROM: z.string().min(3).default('Easy Form <no-reply@localhost>'),
  PUBLIC_URL: optionalUrl(/^https?:$/, 'must be an http:// or https:// URL'),
  UPLOAD_MAX_BYTES: positiveInt(10 * MiB),
  UPLOAD_MAX_PIXELS: positiveInt(40_000_000),
  BODY_MIN_BYTES_PER_SECOND: positiveInt(2048),
  BODY_RATE_WINDOW_SECONDS: positiveInt(30),
  FORM_TIMEZONE: z
    .string()
    .default('Asia/Kolkata')
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as Asia/Kolkata'),
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((text, ctx) => {
      const trust = parseTrustProxy(text);
      if (typeof trust === 'string') {
        ctx.addIssue({ code: 'custom', message: trust });
        return z.NEVER;
      }
      return trust;
    }),
  RATE_LIMIT_MULTIPLIER: z.coerce.number().positive().default(1),
  RATE_LIMITS: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (!text?.trim()) return {};
      try {
        return RateLimitOverridesSchema.parse(JSON.parse(text));
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `must be JSON such as {"loginPerIp":{"max":200}}: ${String(error)}`,
        });
        return z.NEVER;
      }
    }),
  WEBHOOK_ALLOW_PRIVATE: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['true', 'false', ''], { error: 'must be true or false' }))
    .optional()
    .transform((v) => v === 'true'),
  EMBEDDED_SYNC: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['on', 'off', ''], { error: 'must be on or off' }))
    .optional()
    .transform((v) => v !== 'off'),
  STORAGE_URL: z.string().trim().optional(),
  METRICS_TOKEN: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine(
      (v) => v === undefined || v.length >= 16,
      'must be at least 16 characters (or unset: no /metrics)',
    ),
  WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  SHUTDOWN_DRAIN_SECONDS: seconds(300, 5),
  STARTUP_WAIT_SECONDS: seconds(3600, 120),
  AWS_REGION: z.string().trim().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TERMS_FILE: z.string().trim().optional(),
  PRIVACY_FILE: z.string().trim().optional(),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  /**
   * SHUTDOWN_DRAIN_SECONDS: after SIGTERM, how long the server goes on serving while its readiness answers 503, so a
   * load balancer stops sending it requests before it stops listening (docs/decisions/039-boot-and-health.md).
   */
  shutdownDrainMs: number;
  /**
   * STARTUP_WAIT_SECONDS: how long a start waits, trying again, for PostgreSQL or the S3 endpoint to become reachable
   * before it gives up (0: not at all). A refusal no wait can mend (a wrong password, no such bucket) stops it at once.
   */
  startupWaitMs: number;
  /** METRICS_TOKEN: GET /metrics answers only a request bearing it; unset, there is no /metrics. */
  metricsToken: string | undefined;
  /** WORKERS: server processes on this machine, sharing the port (node:cluster); more than 1 needs DATABASE_URL. */
  workers: number;
  /** STORAGE_URL: uploads in an S3-compatible bucket; unset keeps them on the local disk under DATA_DIR. */
  storage: S3Location | undefined;
  /** `memory://` keeps the embedded database in memory (tests). */
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  uploadMaxBytes: number;
  /** Largest decoded image (width × height) accepted; checked from the header, before decoding. */
  uploadMaxPixels: number;
  /**
   * A request body must arrive at this average rate over each window, or the connection is cut: a stalled or
   * trickling client is dropped, a slow but steady one finishes however long it takes (no total time limit).
   */
  bodyMinBytesPerSecond: number;
  bodyRateWindowMs: number;
  formTimezone: string;
  /**
   * Whose X-Forwarded-For to believe: 0 nobody (the socket address is the client), n the nearest n proxies, or the
   * proxies' own addresses and CIDR ranges. Never "everyone": that lets any client choose its own address.
   */
  trustProxy: number | string[];
  logLevel: string;
  /** Where the built web app lives; absent in API-only test apps. */
  webDir: string | undefined;
  siteTextFiles: { terms?: string; privacy?: string };
  rateLimits: RateLimits;
  /** The owner's notification window and poll (docs/decisions/021); tests make them short. */
  notifyWindowMs?: number;
  notifyPollMs?: number;
  /** How long the server waits for PostgreSQL's answer to one query (database.ts's default); tests make it short. */
  databaseQueryTimeoutMs?: number;
  /** How long an S3 endpoint may go without answering or taking an upload's bytes (s3-storage.ts); tests shorten it. */
  storageAnswerTimeoutMs?: number;
  /**
   * Whether webhooks may reach loopback, private and link-local addresses (WEBHOOK_ALLOW_PRIVATE=true): off by
   * default, so a form owner cannot make the server probe its own network (docs/decisions/023-webhooks.md).
   */
  webhookAllowPrivate: boolean;
  /**
   * The embedded engine syncs its WAL before a write is answered, and its data files before a checkpoint
   * (EMBEDDED_SYNC=on, the default; docs/decisions/007). Off: a power cut may lose the last seconds of writes.
   */
  embeddedSync: boolean;
  /** Where the embedded engine's syncs go; the power-cut test gives a model of a disk (db/durable-dir.ts). */
  disk?: Disk;
  /** Where the disk store's file syncs go; the power-cut test gives a model of a disk (storage/file-sync.ts). */
  fileSync?: FileSync;
  /** How often the embedded engine's churning tables are vacuumed (db/embedded-upkeep.ts); tests make it short. */
  vacuumEveryMs?: number;
  /** The webhook sender's poll and first retry delay; tests make them short. */
  webhookPollMs?: number;
  webhookBackoffMs?: number;
  /** Where log lines go instead of stdout; tests read it to check what is (not) logged. */
  logStream?: { write(line: string): void };
};

export { DEFAULT_RATE_LIMITS, type RateLimitRule, type RateLimits } from './rate-limits.ts';

const RateLimitOverridesSchema = z
  .partialRecord(
    z.enum(Object.keys(DEFAULT_RATE_LIMITS) as [keyof RateLimits, ...(keyof RateLimits)[]]),
    z
      .object({
        max: z.number().int().positive().optional(),
        windowMs: z.number().int().positive().optional(),
      })
      .strict(),
  )
  .default({});

export class ConfigError extends Error {}

/**
 * A start-up failure an operator fixes in a setting (DATABASE_URL, STORAGE_URL, PORT, HOST, DATA_DIR…): main.ts
 * prints its message, one line naming the setting, and exits 1 without a stack (the stack only at LOG_LEVEL=debug).
 */
export class StartupError extends Error {}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const storage = e.STORAGE_URL ? parseStorageUrl(e.STORAGE_URL, e.AWS_REGION) : undefined;
  if (typeof storage === 'string') throw new ConfigError(`Invalid configuration:\n  STORAGE_URL: ${storage}`);
  if (e.WORKERS > 1 && !e.DATABASE_URL)
    throw new ConfigError(
      `Invalid configuration:\n  WORKERS: ${e.WORKERS} processes need DATABASE_URL (PostgreSQL): the embedded ` +
        'database is opened by one process per data directory. Set DATABASE_URL, or WORKERS=1.',
    );
  const scale = (rule: RateLimitRule) => ({
    ...rule,
    max: Math.max(1, Math.round(rule.max * e.RATE_LIMIT_MULTIPLIER)),
  });
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    shutdownDrainMs: e.SHUTDOWN_DRAIN_SECONDS * 1000,
    startupWaitMs: e.STARTUP_WAIT_SECONDS * 1000,
    workers: e.WORKERS,
    metricsToken: e.METRICS_TOKEN,
    storage,
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    uploadMaxPixels: e.UPLOAD_MAX_PIXELS,
    bodyMinBytesPerSecond: e.BODY_MIN_BYTES_PER_SECOND,
    bodyRateWindowMs: e.BODY_RATE_WINDOW_SECONDS * 1000,
    formTimezone: e.FORM_TIMEZONE,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    embeddedSync: e.EMBEDDED_SYNC,
    webDir: resolve('dist/web'),
    siteTextFiles: { terms: e.TERMS_FILE, privacy: e.PRIVACY_FILE },
    rateLimits: Object.fromEntries(
      Object.entries(DEFAULT_RATE_LIMITS).map(([name, rule]) => [
        name,
        scale({ ...rule, ...e.RATE_LIMITS[name as keyof RateLimits] }),
      ]),
    ) as RateLimits,
  };
}
