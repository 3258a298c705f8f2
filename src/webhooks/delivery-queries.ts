import { type EntityManager, raw } from '@mikro-orm/postgresql';
import { OutboxEvent, WebhookAttempt, WebhookDelivery } from '../platform/db/entities/index.ts';
import { DomainError } from '../platform/errors.ts';
import { getEndpoint } from './endpoints.ts';
import { envelopeBody } from './signing.ts';

export interface AttemptView {
  attempt: number;
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseSnippet: string | null;
  /** The headers this attempt was sent with (signature headers included; the secret never). */
  requestHeaders: Record<string, string> | null;
}

export interface DeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  endpointId: string;
  status: WebhookDelivery['status'];
  attemptCount: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  succeededAt: string | null;
  deadLetteredAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** The exact JSON body every attempt POSTs (the envelope of the event); null if the event is gone. */
  payload: string | null;
  attempts: AttemptView[];
}

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

/** Deliveries with their attempts in attempt order (attempts are read through their scoped deliveries). */
export async function withAttempts(
  em: EntityManager,
  deliveries: WebhookDelivery[],
): Promise<DeliveryView[]> {
  const attempts = deliveries.length
    ? await em.find(
        WebhookAttempt,
        { deliveryId: { $in: deliveries.map((d) => d.id) }, inFlight: false },
        { orderBy: { attempt: 'asc' } },
      )
    : [];
  const byDelivery = new Map<string, AttemptView[]>();
  for (const a of attempts) {
    const list = byDelivery.get(a.deliveryId) ?? [];
    list.push({
      attempt: a.attempt,
      startedAt: a.startedAt.toISOString(),
      durationMs: a.durationMs,
      statusCode: a.statusCode ?? null,
      error: a.error ?? null,
      responseSnippet: a.responseSnippet ?? null,
      requestHeaders: a.requestHeaders ?? null,
    });
    byDelivery.set(a.deliveryId, list);
  }
  const events = deliveries.length
    ? await em.find(OutboxEvent, { id: { $in: [...new Set(deliveries.map((d) => d.eventId))] } })
    : [];
  const payloads = new Map(
    events.map((e) => [
      e.id,
      envelopeBody({ eventId: e.id, eventType: e.eventType, occurredAt: e.occurredAt, data: e.data }),
    ]),
  );
  return deliveries.map((d) => ({
    id: d.id,
    eventId: d.eventId,
    eventType: d.eventType,
    endpointId: d.endpointId,
    status: d.status,
    attemptCount: d.attemptCount,
    nextAttemptAt: iso(d.nextAttemptAt),
    lastStatusCode: d.lastStatusCode ?? null,
    lastError: d.lastError ?? null,
    succeededAt: iso(d.succeededAt),
    deadLetteredAt: iso(d.deadLetteredAt),
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
    payload: payloads.get(d.eventId) ?? null,
    attempts: byDelivery.get(d.id) ?? [],
  }));
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * Keyset condition "after the cursor delivery" in the order (column, id). The cursor is a delivery id of
 * the scope; comparing in SQL keeps PostgreSQL's microsecond timestamps exact.
 */
async function afterCursor(
  em: EntityManager,
  after: string | undefined,
  column: 'created_at' | 'dead_lettered_at',
  direction: '<' | '>',
): Promise<Record<string, unknown>> {
  if (after === undefined) return {};
  if (!(await em.count(WebhookDelivery, { id: after }))) {
    throw new DomainError('invalid', 'invalid_cursor', 'The cursor is not a delivery of this listing.');
  }
  const condition = raw(
    (alias: string) =>
      `(${alias}.${column}, ${alias}.id) ${direction} (select c.${column}, c.id from webhook_deliveries c where c.id = ?)`,
    [after],
  );
  return { [condition]: [] };
}

function paged(views: DeliveryView[], limit: number): Page<DeliveryView> {
  const items = views.slice(0, limit);
  return { items, nextCursor: views.length > limit ? items[items.length - 1]!.id : null };
}

/** One endpoint's deliveries, newest first, optionally of one status. */
export async function listEndpointDeliveries(
  em: EntityManager,
  endpointId: string,
  query: { status?: WebhookDelivery['status'] | undefined; limit: number; after?: string | undefined },
): Promise<Page<DeliveryView>> {
  await getEndpoint(em, endpointId);
  const deliveries = await em.find(
    WebhookDelivery,
    {
      endpointId,
      ...(query.status ? { status: query.status } : {}),
      ...(await afterCursor(em, query.after, 'created_at', '<')),
    },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: query.limit + 1 },
  );
  return paged(await withAttempts(em, deliveries), query.limit);
}

/** Every delivery of one event of the scope (one per endpoint it went to), oldest first. */
export async function listEventDeliveries(em: EntityManager, eventId: string): Promise<DeliveryView[]> {
  if (!(await em.count(OutboxEvent, { id: eventId }))) {
    throw new DomainError('not_found', 'webhook_event_not_found', `No event ${eventId} here.`);
  }
  const deliveries = await em.find(
    WebhookDelivery,
    { eventId },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  return withAttempts(em, deliveries);
}

export interface DeadLetterFilter {
  endpointId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

/** The where clause of dead-lettered deliveries in [from, to). */
export function deadLetterWhere(filter: DeadLetterFilter): Record<string, unknown> {
  const at: Record<string, Date> = {};
  if (filter.from) at.$gte = filter.from;
  if (filter.to) at.$lt = filter.to;
  return {
    status: 'dead',
    ...(filter.endpointId ? { endpointId: filter.endpointId } : {}),
    ...(Object.keys(at).length ? { deadLetteredAt: at } : {}),
  };
}

/** The dead-letter queue: deliveries that used all six attempts, oldest dead-lettering first. */
export async function listDeadLetters(
  em: EntityManager,
  query: DeadLetterFilter & { limit: number; after?: string | undefined },
): Promise<Page<DeliveryView>> {
  const deliveries = await em.find(
    WebhookDelivery,
    { ...deadLetterWhere(query), ...(await afterCursor(em, query.after, 'dead_lettered_at', '>')) },
    { orderBy: { deadLetteredAt: 'asc', id: 'asc' }, limit: query.limit + 1 },
  );
  return paged(await withAttempts(em, deliveries), query.limit);
}
