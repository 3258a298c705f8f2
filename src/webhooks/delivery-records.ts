import type { EntityManager } from '@mikro-orm/postgresql';
import { executeBound } from '../platform/db/bound-statement.ts';
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

/** One attempt's outcome (or a check that made none) to record, with the delivery row's new state. */
export interface AttemptResultRow {
  ref: DeliveryRef;
  deliveryId: string;
  attempt: AttemptRecord | null;
  update: DeliveryUpdate;
}

// Each input row records its attempt (once per attempt number: a repeat keeps the first record; a claimed,
// in-flight attempt gets its outcome) and brings its delivery row up to date, all rows in one statement, so
// all or nothing. Every row names its delivery's company and environment.
const RECORD_ATTEMPTS = `
  with input as (
    select * from jsonb_to_recordset($1::jsonb) as r(
      delivery_id uuid, company_id uuid, environment text, attempt int, started_at timestamptz, duration_ms int,
      status_code int, error text, response_snippet text, request_headers jsonb, status text, counted int,
      next_in_ms int, last_status_code int, last_error text)
  ),
  attempt as (
    insert into webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error, response_snippet,
      request_headers)
    select d.id, i.attempt, i.started_at, i.duration_ms, i.status_code, i.error, i.response_snippet,
      i.request_headers
    from input i join webhook_deliveries d
      on d.id = i.delivery_id and d.company_id = i.company_id and d.environment = i.environment
    where i.attempt is not null
    on conflict (delivery_id, attempt) do update set
      started_at = excluded.started_at, duration_ms = excluded.duration_ms, status_code = excluded.status_code,
      error = excluded.error, response_snippet = excluded.response_snippet,
      request_headers = excluded.request_headers, in_flight = false
    where webhook_attempts.in_flight
  )
  update webhook_deliveries d set
    status = i.status,
    attempt_count = greatest(d.attempt_count, coalesce(i.counted, 0)),
    next_attempt_at = case when i.next_in_ms is null then null else now() + i.next_in_ms * interval '1 millisecond' end,
    last_status_code = coalesce(i.last_status_code, case when i.counted is null then d.last_status_code end),
    last_error = i.last_error,
    succeeded_at = case when i.status = 'succeeded' then coalesce(d.succeeded_at, now()) else d.succeeded_at end,
    updated_at = now()
  from input i
  where d.id = i.delivery_id and d.company_id = i.company_id and d.environment = i.environment`;

/**
 * Records attempts and brings their deliveries up to date in one statement (see RECORD_ATTEMPTS); the
 * dispatcher writes a batch of first attempts at once, the delivery workflow one attempt at a time. A
 * delivery appears at most once per call (its first row counts), in id order so concurrent writers lock rows
 * in the same order.
 */
export async function recordAttempts(em: EntityManager, rows: readonly AttemptResultRow[]): Promise<void> {
  const unique = new Map<string, AttemptResultRow>();
  for (const row of rows) if (!unique.has(row.deliveryId)) unique.set(row.deliveryId, row);
  if (unique.size === 0) return;
  const input = [...unique.values()]
    .sort((a, b) => (a.deliveryId < b.deliveryId ? -1 : 1))
    .map(({ ref, deliveryId, attempt, update }) => ({
      delivery_id: deliveryId,
      company_id: ref.companyId,
      environment: ref.environment,
      attempt: attempt?.attempt ?? null,
      started_at: attempt?.startedAt.toISOString() ?? null,
      duration_ms: attempt?.durationMs ?? null,
      status_code: attempt?.statusCode ?? null,
      error: attempt?.error == null ? null : storableText(attempt.error),
      response_snippet: attempt?.responseSnippet ?? null,
      request_headers: attempt?.requestHeaders ?? null,
      status: update.status,
      counted: update.attempt,
      next_in_ms: update.nextAttemptInMs,
      last_status_code: update.statusCode,
      last_error: update.error === null ? null : storableText(update.error),
    }));
  await executeBound(em, RECORD_ATTEMPTS, [JSON.stringify(input)]);
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
