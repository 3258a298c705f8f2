import { call, type Environment } from './api.ts';

/** Developers › Logs: the company's API requests (GET /v1/request-logs). */

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

export interface LoggedBody {
  text: string | null;
  bytes: number;
  truncated: boolean;
}

export interface RequestLogDetail extends RequestLogSummary {
  query: Record<string, unknown> | null;
  clientAddress: string | null;
  userAgent: string | null;
  requestHeaders: Record<string, string>;
  requestBody: LoggedBody;
  responseBody: LoggedBody;
}

export interface LogFilter {
  status?: string;
  method?: string;
  pathPrefix?: string;
  /** An API key's id, or `user` / `oauth` for those kinds of credential. */
  madeWith?: string;
  from?: string;
  to?: string;
}

export const LOG_PAGE = 50;

export const requestLogs = {
  list: (env: Environment, filter: LogFilter, after?: string) => {
    const search = new URLSearchParams({ limit: String(LOG_PAGE) });
    const { madeWith, ...rest } = filter;
    for (const [name, value] of Object.entries(rest)) if (value) search.set(name, value);
    if (madeWith === 'user' || madeWith === 'oauth') search.set('credential', madeWith);
    else if (madeWith) search.set('apiKeyId', madeWith);
    if (after) search.set('after', after);
    return call<{ requestLogs: RequestLogSummary[]; nextCursor: string | null }>(
      env,
      'GET',
      `/v1/request-logs?${search}`,
    );
  },
  get: (env: Environment, id: string) =>
    call<{ requestLog: RequestLogDetail }>(env, 'GET', `/v1/request-logs/${encodeURIComponent(id)}`),
};
