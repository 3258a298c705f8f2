import type { EntityManager } from '@mikro-orm/postgresql';
import type { WorkflowGateway } from '../adapters/temporal/start.ts';
import { WebhookDelivery, WebhookEndpoint } from '../platform/db/entities/index.ts';
import { DomainError } from '../platform/errors.ts';
import { type DeadLetterFilter, deadLetterWhere } from './delivery-queries.ts';
import { endpointNotFound } from './endpoints.ts';
import { startDeliveryWorkflow } from './start-delivery.ts';

/** Most dead letters one bulk replay call starts; call again for the rest. */
export const MAX_BULK_REPLAY = 1000;
const START_CONCURRENCY = 16;

type Unreplayable = 'webhook_endpoint_deleted' | 'webhook_endpoint_disabled';

function blocker(endpoint: WebhookEndpoint | null | undefined): Unreplayable | null {
  if (!endpoint || endpoint.deletedAt) return 'webhook_endpoint_deleted';
  if (!endpoint.enabled) return 'webhook_endpoint_disabled';
  return null;
}

type ReplayOutcome = 'replayed' | 'not_dead' | 'still_running';

/**
 * Puts one dead delivery back on the road: a conditional UPDATE dead → pending claims it (of concurrent
 * replays exactly one wins), then a fresh workflow run starts under the same id with six new attempts
 * numbered after the earlier ones. If no run starts (an error, or the dead-lettering run has not closed
 * yet) the claim is undone, so the row stays dead and can be replayed again.
 */
async function replayClaimed(
  em: EntityManager,
  gateway: WorkflowGateway,
  delivery: WebhookDelivery,
): Promise<ReplayOutcome> {
  const claimed = await em.nativeUpdate(
    WebhookDelivery,
    { id: delivery.id, status: 'dead' },
    { status: 'pending', deadLetteredAt: null, nextAttemptAt: new Date(), updatedAt: new Date() },
  );
  if (claimed === 0) return 'not_dead';
  const undo = () =>
    em.nativeUpdate(
      WebhookDelivery,
      { id: delivery.id, status: 'pending', attemptCount: delivery.attemptCount },
      { status: 'dead', deadLetteredAt: delivery.deadLetteredAt, nextAttemptAt: null, updatedAt: new Date() },
    );
  let started: Awaited<ReturnType<typeof startDeliveryWorkflow>>;
  try {
    started = await startDeliveryWorkflow(
      gateway,
      {
        id: delivery.id,
        eventId: delivery.eventId,
        endpointId: delivery.endpointId,
        companyId: delivery.companyId,
        environment: delivery.environment,
        eventType: delivery.eventType,
      },
      'replay',
    );
  } catch (error) {
    await undo();
    throw error;
  }
  if (started.outcome !== 'started') {
    await undo();
    return 'still_running';
  }
  return 'replayed';
}

/** Replays one dead-lettered delivery of the scope; 404 if unknown, 409 if it is not dead or cannot be sent. */
export async function replayDeadLetter(
  em: EntityManager,
  gateway: WorkflowGateway,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const delivery = await em.findOne(WebhookDelivery, { id: deliveryId });
  if (!delivery) {
    throw new DomainError(
      'not_found',
      'webhook_delivery_not_found',
      `No webhook delivery ${deliveryId} here.`,
    );
  }
  if (delivery.status !== 'dead') {
    throw new DomainError(
      'conflict',
      'webhook_delivery_not_dead',
      `Delivery ${deliveryId} is ${delivery.status}; only dead-lettered deliveries are replayed.`,
    );
  }
  const reason = blocker(await em.findOne(WebhookEndpoint, { id: delivery.endpointId }));
  if (reason) {
    throw new DomainError(
      'conflict',
      reason,
      reason === 'webhook_endpoint_deleted'
        ? 'The delivery’s endpoint was deleted; its dead letters cannot be replayed.'
        : 'The delivery’s endpoint is disabled; enable it (PATCH enabled: true) and replay again.',
    );
  }
  const outcome = await replayClaimed(em, gateway, delivery);
  if (outcome === 'not_dead') {
    throw new DomainError(
      'conflict',
      'webhook_delivery_not_dead',
      `Delivery ${deliveryId} is already replayed.`,
    );
  }
  if (outcome === 'still_running') {
    throw new DomainError(
      'conflict',
      'webhook_delivery_busy',
      `The run that dead-lettered delivery ${deliveryId} is still closing; replay it again in a moment.`,
    );
  }
  return em.findOneOrFail(WebhookDelivery, { id: deliveryId }, { refresh: true });
}

export interface BulkReplayResult {
  replayed: number;
  /** Dead letters of deleted or disabled endpoints in the window: left dead. */
  skipped: number;
  /** More replayable dead letters remain in the window (call again). */
  hasMore: boolean;
}

/**
 * Replays the scope's dead letters in [from, to), oldest first, at most `limit` per call. Dead letters
 * whose endpoint is deleted or disabled are skipped and counted. An `endpointId` that is no endpoint of the
 * scope (another company's, or none) → 404, as on every other webhook route.
 */
export async function replayDeadLetters(
  em: EntityManager,
  gateway: WorkflowGateway,
  filter: DeadLetterFilter,
  limit = MAX_BULK_REPLAY,
): Promise<BulkReplayResult> {
  const where = deadLetterWhere(filter);
  const endpoints = await em.find(WebhookEndpoint, filter.endpointId ? { id: filter.endpointId } : {});
  if (filter.endpointId && endpoints.length === 0) throw endpointNotFound(filter.endpointId);
  const replayable = endpoints.filter((e) => blocker(e) === null).map((e) => e.id);
  const blocked = endpoints.filter((e) => blocker(e) !== null).map((e) => e.id);
  const candidates = replayable.length
    ? await em.find(
        WebhookDelivery,
        { ...where, endpointId: { $in: replayable } },
        { orderBy: { deadLetteredAt: 'asc', id: 'asc' }, limit: limit + 1 },
      )
    : [];
  const batch = candidates.slice(0, limit);
  let replayed = 0;
  for (let i = 0; i < batch.length; i += START_CONCURRENCY) {
    const results = await Promise.all(
      batch.slice(i, i + START_CONCURRENCY).map((d) => replayClaimed(em, gateway, d)),
    );
    replayed += results.filter((r) => r === 'replayed').length;
  }
  const skipped = blocked.length
    ? await em.count(WebhookDelivery, { ...where, endpointId: { $in: blocked } })
    : 0;
  return { replayed, skipped, hasMore: candidates.length > limit };
}
