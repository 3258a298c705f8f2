import type { EntityManager } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { DomainError } from '../../platform/errors.ts';

export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx', 'failed'] as const;
export const CREDENTIAL_KINDS = ['apiKey', 'user', 'oauth'] as const;

export interface RequestLogFilter {
  /** `failed`: every status from 400. */
  statusClass?: (typeof STATUS_CLASSES)[number] | undefined;
  method?: string | undefined;
  /** The path starts with this (`/v1/dpp` finds `/v1/dpp/mint`). */
  pathPrefix?: string | undefined;
  apiKeyId?: string | undefined;
  credential?: (typeof CREDENTIAL_KINDS)[number] | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  limit: number;
  /** The id of the last entry of the previous page. */
  after?: string | undefined;
}

/** Who made a request: an API key (its name and public prefix), a person, or an OAuth client. */
export type Credential =
  | { kind: 'apiKey'; apiKeyId: string; name: string | null; prefix: string | null }
  | { kind: 'user'; userId: number; email: string | null }
  | { kind: 'oauth'; clientId: string };

export interface RequestLogSummary {
  id: string;
  createdAt: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
  errorCode: string | null;
  credential: Credential | null;
}

export interface Body {
  text: string | null;
  bytes: number;
  truncated: boolean;
}

export interface RequestLogDetail extends RequestLogSummary {
  query: Record<string, unknown> | null;
  clientAddress: string | null;
  userAgent: string | null;
  requestHeaders: Record<string, string>;
  requestBody: Body;
  responseBody: Body;
}

const SUMMARY = `l.id, l.created_at, l.method, l.path, l.status, l.duration_ms, l.request_id, l.error_code,
  l.api_key_id, k.name as key_name, k.prefix as key_prefix, l.user_id, u.email as user_email, l.oauth_client_id`;
const JOINS = `left join api_keys k on k.id = l.api_key_id
  left join users u on u.id = l.user_id and u.company_id = l.company_id`;

type Row = Record<string, unknown>;

function credentialOf(r: Row): Credential | null {
  if (r.api_key_id) {
    return {
      kind: 'apiKey',
      apiKeyId: r.api_key_id as string,
      name: (r.key_name as string | null) ?? null,
      prefix: (r.key_prefix as string | null) ?? null,
    };
  }
  if (r.user_id !== null && r.user_id !== undefined) {
    return { kind: 'user', userId: Number(r.user_id), email: (r.user_email as string | null) ?? null };
  }
  if (r.oauth_client_id) return { kind: 'oauth', clientId: r.oauth_client_id as string };
  return null;
}

function summaryOf(r: Row): RequestLogSummary {
  return {
    id: r.id as string,
    createdAt: new Date(r.created_at as string).toISOString(),
    method: r.method as string,
    path: r.path as string,
    status: Number(r.status),
    durationMs: Number(r.duration_ms),
    requestId: r.request_id as string,
    errorCode: (r.error_code as string | null) ?? null,
    credential: credentialOf(r),
  };
}

const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

function conditions(filter: RequestLogFilter): { sql: string[]; params: unknown[] } {
  const sql: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, ...values: unknown[]) => {
    sql.push(clause);
    params.push(...values);
  };
  const status = filter.statusClass;
  if (status === 'failed') add('l.status >= 400');
  else if (status) add('l.status between ? and ?', Number(status[0]) * 100, Number(status[0]) * 100 + 99);
  if (filter.method) add('l.method = ?', filter.method.toUpperCase());
  if (filter.pathPrefix) add(`l.path like ? escape '\\'`, `${filter.pathPrefix.replace(/[\\%_]/g, '\\$&')}%`);
  if (filter.apiKeyId) add('l.api_key_id = ?', filter.apiKeyId);
  if (filter.credential === 'apiKey') add('l.api_key_id is not null');
  if (filter.credential === 'user') add('l.user_id is not null');
  if (filter.credential === 'oauth') add('l.oauth_client_id is not null');
  if (filter.from) add('l.created_at >= ?', filter.from);
  if (filter.to) add('l.created_at < ?', filter.to);
  return { sql, params };
}

/**
 * A company's request log in one environment, newest first, a page at a time. The table holds at most
 * REQUEST_LOG_MAX_ROWS entries per company and environment, so a filter reads at most that many.
 */
export async function listRequestLogs(
  em: EntityManager,
  scope: TenantScope,
  filter: RequestLogFilter,
): Promise<{ items: RequestLogSummary[]; nextCursor: string | null }> {
  const where = conditions(filter);
  if (filter.after !== undefined) {
    const [cursor] = await em.execute(
      'select 1 from request_logs where id = ? and company_id = ? and environment = ?',
      [filter.after, scope.companyId, scope.environment],
    );
    if (!cursor)
      throw new DomainError('invalid', 'invalid_cursor', 'The cursor is not an entry of this log.');
    where.sql.push('(l.created_at, l.id) < (select c.created_at, c.id from request_logs c where c.id = ?)');
    where.params.push(filter.after);
  }
  const rows = await em.execute<Row[]>(
    `select ${SUMMARY} from request_logs l ${JOINS}
     where l.company_id = ? and l.environment = ?${where.sql.map((c) => ` and ${c}`).join('')}
     order by l.created_at desc, l.id desc limit ?`,
    [scope.companyId, scope.environment, ...where.params, filter.limit + 1],
  );
  const items = rows.slice(0, filter.limit).map(summaryOf);
  return { items, nextCursor: rows.length > filter.limit ? items[items.length - 1]!.id : null };
}

/** One entry of the scope's log, with its headers and bodies; 404 for any other company's or environment's. */
export async function getRequestLog(
  em: EntityManager,
  scope: TenantScope,
  id: string,
): Promise<RequestLogDetail> {
  const [r] = await em.execute<Row[]>(
    `select ${SUMMARY}, l.query, l.client_address, l.user_agent, l.request_headers, l.request_body,
       l.request_body_bytes, l.request_body_truncated, l.response_body, l.response_body_bytes,
       l.response_body_truncated
     from request_logs l ${JOINS}
     where l.id = ? and l.company_id = ? and l.environment = ?`,
    [id, scope.companyId, scope.environment],
  );
  if (!r) throw new DomainError('not_found', 'request_log_not_found', `No request log entry ${id} here.`);
  return {
    ...summaryOf(r),
    query: r.query === null ? null : json(r.query),
    clientAddress: (r.client_address as string | null) ?? null,
    userAgent: (r.user_agent as string | null) ?? null,
    requestHeaders: json(r.request_headers),
    requestBody: {
      text: (r.request_body as string | null) ?? null,
      bytes: Number(r.request_body_bytes),
      truncated: r.request_body_truncated === true,
    },
    responseBody: {
      text: (r.response_body as string | null) ?? null,
      bytes: Number(r.response_body_bytes),
      truncated: r.response_body_truncated === true,
    },
  };
}
