import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';
import { ENVIRONMENTS } from '../../config/config.ts';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'dead', 'stopped'] as const;

/** One event on its way to one endpoint (the delivery workflow `webhook:{eventId}:{endpointId}`). */
export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  properties: {
    id: p.uuid().primary(),
    companyId: p.uuid(),
    environment: p.enum(ENVIRONMENTS),
    eventId: p.uuid(),
    endpointId: p.uuid(),
    eventType: p.string().length(60),
    status: p.enum(DELIVERY_STATUSES),
    attemptCount: p.integer().default(0),
    nextAttemptAt: p.datetime().nullable(),
    lastStatusCode: p.integer().nullable(),
    lastError: p.text().nullable(),
    succeededAt: p.datetime().nullable(),
    deadLetteredAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type WebhookDelivery = InferEntity<typeof WebhookDelivery>;

/** One HTTP POST of a delivery. Not tenant-owned on its own: always read through its delivery. */
export const WebhookAttempt = defineEntity({
  name: 'WebhookAttempt',
  tableName: 'webhook_attempts',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    deliveryId: p.uuid(),
    attempt: p.integer(),
    startedAt: p.datetime(),
    durationMs: p.integer(),
    statusCode: p.integer().nullable(),
    error: p.text().nullable(),
    responseSnippet: p.text().nullable(),
    /** The headers the attempt was sent with (signatures included; never the secret); null: nothing sent. */
    requestHeaders: p.json<Record<string, string>>().nullable(),
    /** Claimed by the dispatcher and being sent: not an attempt with an outcome yet. */
    inFlight: p.boolean().default(false),
  },
});
export type WebhookAttempt = InferEntity<typeof WebhookAttempt>;
