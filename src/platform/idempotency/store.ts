import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../db/tenant-scope.ts';
import { DomainError } from '../errors.ts';

/** How long a key is remembered; after that the same key starts a new request. */
export const IDEMPOTENCY_TTL_HOURS = 24;
/** A first request that never stored its response (crashed process) stops blocking its key after this. */
export const ABANDONED_AFTER_SECONDS = 300;

export interface IdempotentRequest {
  key: string;
  method: string;
  path: string;
  /** Hex SHA-256 of method, path and the raw body bytes (see `requestHash`). */
  hash: string;
}

export interface StoredResponse {
  status: number;
  body: unknown;
}

export type Reservation = { kind: 'new' } | { kind: 'replay'; response: StoredResponse };

export function requestHash(method: string, path: string, rawBody: Buffer | undefined): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${path}\n`)
    .update(rawBody ?? Buffer.alloc(0))
    .digest('hex');
}

interface KeyRow {
  request_hash: string;
  response_status: number | null;
  response_body: unknown;
}

/**
 * Claims `key` for this request in one statement: a new key (or one older than the TTL) is taken over;
 * an existing one replays its stored response, or is refused when it came with another request or its
 * first request is still running.
 */
export async function reserveKey(
  em: EntityManager,
  scope: TenantScope,
  request: IdempotentRequest,
): Promise<Reservation> {
  const rows = await em.execute<{ request_hash: string }[]>(
    `insert into idempotency_keys as k (company_id, environment, key, method, path, request_hash)
     values (?, ?, ?, ?, ?, ?)
     on conflict (company_id, environment, key) do update
       set method = excluded.method, path = excluded.path, request_hash = excluded.request_hash,
           response_status = null, response_body = null, created_at = now()
       where k.created_at < now() - make_interval(hours => ?)
          or (k.response_status is null and k.created_at < now() - make_interval(secs => ?))
     returning request_hash`,
    [
      scope.companyId,
      scope.environment,
      request.key,
      request.method,
      request.path,
      request.hash,
      IDEMPOTENCY_TTL_HOURS,
      ABANDONED_AFTER_SECONDS,
    ],
  );
  if (rows.length === 1) return { kind: 'new' };
  const [existing] = await em.execute<KeyRow[]>(
    `select request_hash, response_status, response_body from idempotency_keys
     where company_id = ? and environment = ? and key = ?`,
    [scope.companyId, scope.environment, request.key],
  );
  if (!existing) return reserveKey(em, scope, request);
  if (existing.request_hash !== request.hash) {
    throw new DomainError(
      'rejected',
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request; use a new key for a new request.',
    );
  }
  if (existing.response_status === null) {
    throw new DomainError(
      'conflict',
      'idempotency_request_in_progress',
      'A request with this Idempotency-Key is still being processed; retry later.',
    );
  }
  return { kind: 'replay', response: { status: existing.response_status, body: existing.response_body } };
}

/** Stores the successful response so repeats of the request get it back. */
export async function completeKey(
  em: EntityManager,
  scope: TenantScope,
  key: string,
  response: StoredResponse,
): Promise<void> {
  await em.execute(
    'update idempotency_keys set response_status = ?, response_body = ? where company_id = ? and environment = ? and key = ?',
    [response.status, JSON.stringify(response.body), scope.companyId, scope.environment, key],
  );
}

/** Forgets a key whose request failed, so the client may retry it with the same key. */
export async function releaseKey(em: EntityManager, scope: TenantScope, key: string): Promise<void> {
  await em.execute(
    'delete from idempotency_keys where company_id = ? and environment = ? and key = ? and response_status is null',
    [scope.companyId, scope.environment, key],
  );
}

/**
 * Runs `produce` at most once per key: a repeat of the same request gets the stored response
 * (`replayed: true`). Only successful responses are stored; a failure frees the key for a retry.
 * Without a key `produce` just runs.
 *
 * `atomic` (for a `produce` that only writes to this database): the key, everything `produce` writes through
 * `em` and the stored response commit in one transaction. A process that dies mid-request then leaves
 * nothing behind, so the client's retry runs the request afresh at once (instead of waiting out an
 * abandoned reservation, or worse, writing a second time); a concurrent repeat waits for the first to
 * finish and replays it. Without `atomic` (a `produce` that starts workflows and may wait for them, which
 * must not hold a transaction open), the key is reserved first and a repeat meanwhile answers 409.
 */
export async function runIdempotent(
  em: EntityManager,
  scope: TenantScope,
  request: IdempotentRequest | null,
  produce: (em: EntityManager) => Promise<StoredResponse>,
  options: { atomic?: boolean } = {},
): Promise<StoredResponse & { replayed: boolean }> {
  if (!request) return { ...(await produce(em)), replayed: false };
  if (options.atomic) {
    return em.transactional(async (tx) => {
      const reservation = await reserveKey(tx, scope, request);
      if (reservation.kind === 'replay') return { ...reservation.response, replayed: true };
      const response = await produce(tx);
      await completeKey(tx, scope, request.key, response);
      return { ...response, replayed: false };
    });
  }
  const reservation = await reserveKey(em, scope, request);
  if (reservation.kind === 'replay') return { ...reservation.response, replayed: true };
  let response: StoredResponse;
  try {
    response = await produce(em);
  } catch (error) {
    await releaseKey(em, scope, request.key);
    throw error;
  }
  await completeKey(em, scope, request.key, response);
  return { ...response, replayed: false };
}
