import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';
import { ENVIRONMENTS } from '../../config/config.ts';

/**
 * A subscriber URL. `eventTypes` empty means every event type. Secrets are sealed (src/platform/secret-box.ts);
 * during a rotation's overlap `previousSecret` signs too, until `previousSecretExpiresAt`.
 * Deleting sets `deletedAt` (deliveries keep their reference).
 */
export const WebhookEndpoint = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoints',
  properties: {
    id: p.uuid().primary(),
    companyId: p.uuid(),
    environment: p.enum(ENVIRONMENTS),
    url: p.text(),
    description: p.string().length(500).nullable(),
    eventTypes: p.json<string[]>(),
    enabled: p.boolean(),
    disabledReason: p.string().length(200).nullable(),
    secret: p.type('blob'),
    previousSecret: p.type('blob').nullable(),
    previousSecretExpiresAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
    deletedAt: p.datetime().nullable(),
  },
});
export type WebhookEndpoint = InferEntity<typeof WebhookEndpoint>;
