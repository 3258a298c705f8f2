import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEvent } from '../platform/db/entities/index.ts';
import { ownedBy, type TenantScope } from '../platform/db/tenant-scope.ts';
import { DomainError } from '../platform/errors.ts';
import { getEndpoint } from './endpoints.ts';

/** Sent only on request to one endpoint (`data.endpointId`); not one of the nine spec types. */
export const TEST_EVENT_TYPE = 'webhook.test';

/**
 * Queues a `webhook.test` event for one endpoint. It goes through the outbox like any event; the
 * dispatcher sends a test event only to the endpoint named in `data.endpointId`, and it is signed,
 * retried and recorded like the spec's events. It is not one of the nine types and cannot be subscribed to.
 */
export async function sendTestEvent(
  em: EntityManager,
  scope: TenantScope,
  endpointId: string,
): Promise<string> {
  const endpoint = await getEndpoint(em, endpointId);
  if (!endpoint.enabled) {
    throw new DomainError(
      'conflict',
      'webhook_endpoint_disabled',
      'The endpoint is disabled; enable it (PATCH enabled: true) before sending a test event.',
    );
  }
  const event = em.create(OutboxEvent, {
    id: randomUUID(),
    ...ownedBy(scope),
    eventType: TEST_EVENT_TYPE,
    data: {
      endpointId,
      message: 'A test event from the DPP service: this endpoint receives and can verify webhooks.',
    },
    occurredAt: new Date(),
    dispatchedAt: null,
  });
  await em.flush();
  return event.id;
}
