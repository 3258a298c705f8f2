import type { EntityManager } from '@mikro-orm/postgresql';
import type { DeliveryMode, DeliveryRef, DeliveryStatus } from '../processes/webhook-delivery.ts';
import { storableText } from './http-post.ts';

/**
 * The delivery workflow's bookkeeping in `webhook_deliveries` and `webhook_attempts`. Every statement names
 * the delivery's company and environment, and each write is safe to repeat.
 */

export class DeliveryNotFoundError extends Error {
  constructor(ref: DeliveryRef) {
    super(`no webhook delivery of event ${ref.eventId} to endpoint ${ref.endpointId}`);
    this.name = 'DeliveryNotFound';
  }
}

export interface OpenedRow {
  deliveryId: string;
  status: DeliveryStatus;
  /** Attempts made before (by earlier runs), counting recorded attempt rows too. */
  attemptsBefore: number;
}

/**
 * Finds the delivery row by its unique (event, endpoint); for a replay, first puts it back to pending for a
 * fresh schedule (its attempts stay, numbered on from the last one).
 */
export async function openDeliveryRow(
  em: EntityManager,
  ref: DeliveryRef,
  mode: DeliveryMode,
): Promise<OpenedRow> {
  const where = 'event_id = ? and endpoint_id = ? and company_id = ? and environment = ?';
  const params = [ref.eventId, ref.endpointId, ref.companyId, ref.environment];
  if (mode === 'replay') {
    await em.execute(
      `update webhook_deliveries set status = 'pending', dead_lettered_at = null, succeeded_at = null,
         next_attempt_at = now(), updated_at = now()
       where ${where} and status <> 'pending'`,
      params,
    );
  }
  const rows = await em.execute<{ id: string; status: DeliveryStatus; attempts_before: number }[]>(
    `select d.id, d.status, greatest(d.attempt_count,
        coalesce((select max(a.attempt) from webhook_attempts a where a.delivery_id = d.id), 0)) as attempts_before
     from webhook_deliveries d where ${where}`,
    params,
  );
  const row = rows[0];
  if (!row) throw new DeliveryNotFoundError(ref);
  return { deliveryId: row.id, status: row.status, attemptsBefore: Number(row.attempts_before) };
}

export interface AttemptRecord {
  attempt: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseSnippet: string | null;
  /** The headers sent (signatures, never the secret); null when nothing was sent. */
  requestHeaders?: Record<string, string> | null;
}

/** The delivery row after an attempt (or a check that made none). */
export interface DeliveryUpdate {
  status: DeliveryStatus;
  attempt: number | null;
  statusCode: number | null;
  error: string | null;
  /** Milliseconds from now until the next attempt, when one follows. */
  nextAttemptInMs: number | null;
}

export interface AttemptContext {
  /** Null when the endpoint no longer exists in the delivery's scope. */
  endpoint: {
    id: string;
    url: string;
    enabled: boolean;
    deletedAt: Date | null;
    secret: Buffer;
    previousSecret: Buffer | null;
    previousSecretExpiresAt: Date | null;
  } | null;
  event: { id: string; eventType: string; occurredAt: Date; data: Record<string, unknown> };
}

/**
 * The columns an attempt needs, as both loadAttemptContext and the dispatcher's claim select them: the outbox
 * event (`event_id`, `event_type`, `occurred_at`, `data`) and the endpoint as it is now (`live_endpoint_id` null
 * when it no longer exists in the delivery's scope).
 */
export const ATTEMPT_CONTEXT_COLUMNS = `o.id as event_id, o.event_type, o.occurred_at, o.data,
  e.id as live_endpoint_id, e.url, e.enabled, e.deleted_at, e.secret, e.previous_secret, e.previous_secret_expires_at`;

const date = (value: unknown) => (value === null ? null : new Date(value as string | Date));

export function attemptContextOf(row: Record<string, unknown>): AttemptContext {
  return {
    event: {
      id: row.event_id as string,
      eventType: row.event_type as string,
      occurredAt: date(row.occurred_at)!,
      data: (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as Record<string, unknown>,
    },
    endpoint:
      row.live_endpoint_id === null
        ? null
        : {
            id: row.live_endpoint_id as string,
            url: row.url as string,
            enabled: row.enabled as boolean,
            deletedAt: date(row.deleted_at),
            secret: row.secret as Buffer,
            previousSecret: (row.previous_secret as Buffer | null) ?? null,
            previousSecretExpiresAt: date(row.previous_secret_expires_at),
          },
  };
}

/** The event and the endpoint as they are now, in one round trip. */
export async function loadAttemptContext(em: EntityManager, ref: DeliveryRef): Promise<AttemptContext> {
  const rows = await em.execute<Record<string, unknown>[]>(
    `select ${ATTEMPT_CONTEXT_COLUMNS}
     from outbox_events o
     left join webhook_endpoints e on e.id = ? and e.company_id = o.company_id and e.environment = o.environment
     where o.id = ? and o.company_id = ? and o.environment = ?`,
    [ref.endpointId, ref.eventId, ref.companyId, ref.environment],
  );
  const row = rows[0];
  if (!row) throw new Error(`event ${ref.eventId} is not in the outbox of its delivery's scope`);
  return attemptContextOf(row);
}

/**
 * Records one attempt (once per attempt number: a repeat keeps the first record; a claimed, in-flight attempt
 * gets its outcome) and brings the delivery row up to date: one statement, so all or nothing.
 */
export async function recordAttempt(
  em: EntityManager,
  ref: DeliveryRef,
  deliveryId: string,
  attempt: AttemptRecord | null,
  update: DeliveryUpdate,
): Promise<void> {
  await em.execute(
    `with attempt as (
       insert into webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error, response_snippet,
         request_headers)
       select id, ?, ?, ?, ?, ?, ?, ?::jsonb from webhook_deliveries
       where ?::boolean and id = ? and company_id = ? and environment = ?
       on conflict (delivery_id, attempt) do update set
         started_at = excluded.started_at, duration_ms = excluded.duration_ms, status_code = excluded.status_code,
         error = excluded.error, response_snippet = excluded.response_snippet,
         request_headers = excluded.request_headers, in_flight = false
       where webhook_attempts.in_flight
     )
     update webhook_deliveries set
       status = ?,
       attempt_count = greatest(attempt_count, coalesce(?::int, 0)),
       next_attempt_at = case when ?::int is null then null else now() + ?::int * interval '1 millisecond' end,
       last_status_code = coalesce(?::int, case when ?::int is null then last_status_code end),
       last_error = ?,
       succeeded_at = case when ? = 'succeeded' then coalesce(succeeded_at, now()) else succeeded_at end,
       updated_at = now()
     where id = ? and company_id = ? and environment = ?`,
    [
      attempt?.attempt ?? 0,
      attempt?.startedAt ?? new Date(0),
      attempt?.durationMs ?? 0,
      attempt?.statusCode ?? null,
      attempt?.error == null ? null : storableText(attempt.error),
      attempt?.responseSnippet ?? null,
      attempt?.requestHeaders ? JSON.stringify(attempt.requestHeaders) : null,
      attempt !== null,
      deliveryId,
      ref.companyId,
      ref.environment,
      update.status,
      update.attempt,
      update.nextAttemptInMs,
      update.nextAttemptInMs,
      update.statusCode,
      update.attempt,
      update.error === null ? null : storableText(update.error),
      update.status,
      deliveryId,
      ref.companyId,
      ref.environment,
    ],
  );
}

/** Moves a delivery that used its attempts to the dead-letter queue (no-op once it is there). */
export async function deadLetterRow(em: EntityManager, ref: DeliveryRef, deliveryId: string): Promise<void> {
  await em.execute(
    `update webhook_deliveries set status = 'dead', dead_lettered_at = now(), next_attempt_at = null,
       updated_at = now()
     where id = ? and company_id = ? and environment = ? and status = 'pending'`,
    [deliveryId, ref.companyId, ref.environment],
  );
}
