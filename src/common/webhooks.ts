import { z } from 'zod';

/** Webhooks a form may have (docs/decisions/023-webhooks.md). */
export const MAX_WEBHOOKS_PER_FORM = 5;
export const MAX_WEBHOOK_URL_LENGTH = 2000;

/** POST /api/formWebhooks/:fid: where each new response is POSTed. http or https only. */
export const NewWebhookSchema = z
  .object({
    url: z
      .string()
      .trim()
      .min(1, 'Enter the address to send responses to')
      .max(MAX_WEBHOOK_URL_LENGTH, `At most ${MAX_WEBHOOK_URL_LENGTH} characters`)
      .refine((url) => {
        if (!URL.canParse(url)) return false;
        const parsed = new URL(url);
        return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
      }, 'Must be an http:// or https:// address'),
  })
  .strict();
export type NewWebhook = z.infer<typeof NewWebhookSchema>;

export const WebhookParamsSchema = z.object({
  fid: z.uuid({ error: 'Not a valid form id' }),
  webhookId: z.uuid({ error: 'Not a valid webhook id' }),
});

export const DeliveryParamsSchema = WebhookParamsSchema.extend({
  deliveryId: z.string().regex(/^[1-9][0-9]{0,17}$/, 'Not a valid delivery id'),
});

export const DeliveryStatusSchema = z.enum(['pending', 'succeeded', 'failed']);

/** One POST to the receiver: when, its status code (null when none came back), how long it took, and why it failed. */
export const WebhookAttemptSchema = z.object({
  at: z.string(),
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
});
export type WebhookAttempt = z.infer<typeof WebhookAttemptSchema>;

export const WebhookDeliverySchema = z.object({
  id: z.string(),
  submissionId: z.string(),
  status: DeliveryStatusSchema,
  attempts: z.number().int(),
  createdAt: z.string(),
  nextAttemptAt: z.string().nullable(),
  lastAttempt: WebhookAttemptSchema.nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookViewSchema = z.object({
  id: z.string(),
  url: z.string(),
  createdAt: z.string(),
  /** The most recent deliveries, newest first. */
  deliveries: z.array(WebhookDeliverySchema),
});
export type WebhookView = z.infer<typeof WebhookViewSchema>;

export const WebhookListSchema = z.object({ webhooks: z.array(WebhookViewSchema) });

/** The POST answer: the webhook and its secret, shown this once. */
export const CreatedWebhookSchema = WebhookViewSchema.extend({ secret: z.string() });

export const DeletedWebhookSchema = z.object({ deleted: z.literal(true) });

/** GET /api/formWebhooks/:fid/:webhookId/deliveries/:deliveryId: the delivery and every attempt, oldest first. */
export const DeliveryAttemptsSchema = z.object({
  delivery: WebhookDeliverySchema,
  attempts: z.array(WebhookAttemptSchema),
});
export type DeliveryAttempts = z.infer<typeof DeliveryAttemptsSchema>;

/**
 * POST /api/formWebhooks/:fid/:webhookId/test: one signed `webhook.test` POST with example answers, sent at once and
 * not retried; the answer is its attempt, whether the receiver took it or not.
 */
export const TestDeliverySchema = z.object({ attempt: WebhookAttemptSchema });

/**
 * POST /api/formWebhooks/:fid/:webhookId/deliveries/:deliveryId/resend: a failed delivery is sent again as a new
 * delivery of the same response (its own attempts and 24-hour retry window); 409 unless the delivery failed.
 */
export const ResentDeliverySchema = z.object({ delivery: WebhookDeliverySchema });

/** POST /api/formWebhooks/:fid/:webhookId/secret: a new signing secret, shown this once; the old one stops at once. */
export const RotatedSecretSchema = z.object({ secret: z.string() });
