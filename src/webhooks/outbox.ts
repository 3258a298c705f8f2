import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEvent } from '../platform/db/entities/index.ts';
import { ownedBy, type TenantScope } from '../platform/db/tenant-scope.ts';
import type { EventType } from './event-types.ts';

/**
 * Queues a webhook event in the caller's unit of work, so it commits (or not) together with the state
 * change that caused it. Returns the event id subscribers will see.
 */
export function recordEvent(
  em: EntityManager,
  scope: TenantScope,
  eventType: EventType,
  data: Record<string, unknown>,
  occurredAt = new Date(),
): string {
  const event = em.create(OutboxEvent, {
    id: randomUUID(),
    ...ownedBy(scope),
    eventType,
    data,
    occurredAt,
    dispatchedAt: null,
  });
  return event.id;
}
