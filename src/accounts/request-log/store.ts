import type { EntityManager } from '@mikro-orm/postgresql';
import { executeBound } from '../../platform/db/bound-statement.ts';
import type { RequestLogEntry } from './entry.ts';

const COLUMNS = `company_id uuid, environment text, created_at timestamptz, method text, path text, query jsonb,
  status integer, duration_ms double precision, request_id text, api_key_id uuid, user_id integer,
  oauth_client_id text, client_address text, user_agent text, request_headers jsonb, request_body text,
  request_body_bytes integer, request_body_truncated boolean, response_body text, response_body_bytes integer,
  response_body_truncated boolean, error_code text`;
const NAMES = COLUMNS.split(',').map((column) => column.trim().split(/\s+/)[0]!);

const row = (e: RequestLogEntry) => ({
  company_id: e.companyId,
  environment: e.environment,
  created_at: e.createdAt.toISOString(),
  method: e.method,
  path: e.path,
  query: e.query,
  status: e.status,
  duration_ms: e.durationMs,
  request_id: e.requestId,
  api_key_id: e.apiKeyId,
  user_id: e.userId,
  oauth_client_id: e.oauthClientId,
  client_address: e.clientAddress,
  user_agent: e.userAgent,
  request_headers: e.requestHeaders,
  request_body: e.requestBody.text,
  request_body_bytes: e.requestBody.bytes,
  request_body_truncated: e.requestBody.truncated,
  response_body: e.responseBody.text,
  response_body_bytes: e.responseBody.bytes,
  response_body_truncated: e.responseBody.truncated,
  error_code: e.errorCode,
});

const INSERT = `insert into request_logs (${NAMES.join(', ')})
  select ${NAMES.join(', ')} from jsonb_to_recordset($1::jsonb) as r(${COLUMNS})`;

/** Writes a batch of entries in one statement (one bound JSON parameter, whatever the batch's size). */
export async function insertEntries(em: EntityManager, entries: RequestLogEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await executeBound(em, INSERT, [JSON.stringify(entries.map(row))]);
}

/** Deletes a company's entries in one environment beyond the newest `maxRows`. Returns how many went. */
export async function trimToCap(
  em: EntityManager,
  scope: { companyId: string; environment: string },
  maxRows: number,
): Promise<number> {
  const rows = await em.execute<{ n: number }[]>(
    `with beyond as (
       select id from request_logs where company_id = ? and environment = ?
       order by created_at desc, id desc offset ?
     ), gone as (delete from request_logs l using beyond b where l.id = b.id returning 1)
     select count(*)::int as n from gone`,
    [scope.companyId, scope.environment, maxRows],
  );
  return rows[0]?.n ?? 0;
}

/** Deletes entries older than `retentionDays`, at most `limit` per call (oldest first). Returns how many went. */
export async function purgeOldEntries(
  em: EntityManager,
  retentionDays: number,
  limit = 10_000,
): Promise<number> {
  const rows = await em.execute<{ n: number }[]>(
    `with old as (
       select id from request_logs where created_at < now() - make_interval(days => ?)
       order by created_at limit ?
     ), gone as (delete from request_logs l using old o where l.id = o.id returning 1)
     select count(*)::int as n from gone`,
    [retentionDays, limit],
  );
  return rows[0]?.n ?? 0;
}
