import { defineEntity, type InferEntity, p } from '@mikro-orm/postgresql';
import { ENVIRONMENTS } from '../../config/config.ts';

/**
 * A webhook event waiting to be delivered, written in the same transaction as the state change that
 * caused it; the dispatcher marks it dispatched once delivery workflows are started.
 */
export const OutboxEvent = defineEntity({
  name: 'OutboxEvent',
  tableName: 'outbox_events',
  properties: {
    id: p.uuid().primary(),
    companyId: p.uuid(),
    environment: p.enum(ENVIRONMENTS),
    eventType: p.string().length(60),
    data: p.json<Record<string, unknown>>(),
    occurredAt: p.datetime(),
    dispatchedAt: p.datetime().nullable(),
  },
});
export type OutboxEvent = InferEntity<typeof OutboxEvent>;
