import { z } from 'zod';
import { DELIVERY_STATUSES } from '../../../src/platform/db/entities/webhook-delivery.ts';
import { MAX_ROTATION_OVERLAP_SECONDS } from '../../../src/webhooks/endpoint-secrets.ts';
import { EVENT_TYPES } from '../../../src/webhooks/event-types.ts';
import { webhookUrlSyntaxProblem } from '../../../src/webhooks/url-safety.ts';

export const webhookUrlField = z
  .string()
  .trim()
  .min(1)
  .superRefine((value, ctx) => {
    const problem = webhookUrlSyntaxProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe(
    'http(s) URL, at most 2048 characters, no user:password. In live it must resolve to public addresses ' +
      'only (else 422 webhook_url_not_allowed).',
  );

const eventTypesField = z
  .array(z.enum(EVENT_TYPES))
  .max(EVENT_TYPES.length)
  .describe('Event types to receive; empty or omitted means all of them.');

const descriptionField = z.string().trim().max(500).nullable();

export const createEndpointBody = z
  .object({
    url: webhookUrlField,
    description: descriptionField.optional(),
    eventTypes: eventTypesField.optional(),
    enabled: z.boolean().default(true),
  })
  .strict();

export const updateEndpointBody = z
  .object({
    url: webhookUrlField.optional(),
    description: descriptionField.optional(),
    eventTypes: eventTypesField.optional(),
    enabled: z.boolean().optional(),
  })
  .strict();

export const rotateSecretBody = z
  .object({
    overlapSeconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_ROTATION_OVERLAP_SECONDS)
      .default(86_400)
      .describe('How long the previous secret keeps signing (0: retire it now). Default one day, at most 7.'),
  })
  .strict();

export const endpointIdParams = z.object({ id: z.uuid({ message: 'Webhook endpoint ids are UUIDs' }) });

export const endpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  eventTypes: z.array(z.string()).describe('Empty: every event type.'),
  enabled: z.boolean(),
  disabledReason: z
    .string()
    .nullable()
    .describe(
      'Why the service disabled the endpoint; null otherwise. Reserved: the service disables no endpoint on ' +
        'its own at present (a 410 Gone is retried like any other failed attempt).',
    ),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  secretRotation: z
    .object({ previousSecretExpiresAt: z.iso.datetime() })
    .nullable()
    .describe('During a rotation overlap: until when the previous secret still signs.'),
});

const attemptSchema = z.object({
  attempt: z.number().int(),
  startedAt: z.iso.datetime(),
  durationMs: z.number().int(),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  responseSnippet: z.string().nullable().describe('The first 2 KiB of the response body.'),
  requestHeaders: z
    .record(z.string(), z.string())
    .nullable()
    .describe(
      'The headers this attempt was sent with: content-type, user-agent and the signature headers ' +
        '(service-signature, webhook-id, webhook-timestamp, webhook-signature); never the secret. Null when ' +
        'nothing was sent (or for attempts made before this was recorded).',
    ),
});

export const deliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  endpointId: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attemptCount: z.number().int(),
  nextAttemptAt: z.iso.datetime().nullable(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  succeededAt: z.iso.datetime().nullable(),
  deadLetteredAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  payload: z
    .string()
    .nullable()
    .describe('The exact JSON body every attempt of this delivery POSTs (the signed bytes).'),
  attempts: z.array(attemptSchema),
});

export const deliveryPage = z.object({
  success: z.literal(true),
  deliveries: z.array(deliverySchema),
  nextCursor: z.string().nullable().describe('Pass as `after` for the next page; null on the last page.'),
});

export const pageQuery = {
  limit: z.coerce.number().int().min(1).max(200).default(50),
  after: z.uuid().optional().describe('The nextCursor of the previous page.'),
};
