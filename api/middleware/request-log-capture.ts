import type { MikroORM } from '@mikro-orm/postgresql';
import type { Next } from 'koa';
import type { RequestLogEntry } from '../../src/accounts/request-log/entry.ts';
import { redactHeaders, redactJson } from '../../src/accounts/request-log/redact.ts';
import { NO_BODY, storedBody } from '../../src/accounts/request-log/stored-body.ts';
import { RequestLogWriter } from '../../src/accounts/request-log/writer.ts';
import type { RequestLogConfig } from '../../src/platform/config/request-log-env.ts';
import type { Logger } from '../../src/platform/logging/logger.ts';
import { countRequestLogEntries } from '../../src/platform/observability/metrics.ts';
import type { AppContext } from '../context.ts';

/** Request headers the log keeps (credentials among them shown redacted); the rest say nothing to a developer. */
const KEPT_HEADERS = [
  'authorization',
  'content-type',
  'content-length',
  'accept',
  'user-agent',
  'idempotency-key',
  'x-service-env',
  'x-request-id',
  'origin',
];

/** Not a company's API traffic: reading the log itself, and the console's own page loads (its people's reads). */
function isLogged(ctx: AppContext): boolean {
  const principal = ctx.state.principal;
  if (!principal) return false;
  if (ctx.path === '/v1/request-logs' || ctx.path.startsWith('/v1/request-logs/')) return false;
  const read = ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.method === 'OPTIONS';
  return !(read && principal.kind === 'user' && principal.sessionId !== undefined);
}

/**
 * The entry of a finished request. The cheap fields are read now; the bodies are redacted and serialised
 * later, when the writer's batch is built (the returned function), so that work is not on the request's path.
 */
function entryOf(
  ctx: AppContext,
  startedAt: Date,
  durationMs: number,
  settings: RequestLogConfig,
): () => RequestLogEntry {
  const principal = ctx.state.principal!;
  const headers: Record<string, string | string[] | undefined> = {};
  for (const name of KEPT_HEADERS) if (ctx.headers[name] !== undefined) headers[name] = ctx.headers[name];
  const body = ctx.body as Record<string, unknown> | undefined;
  const problem = ctx.status >= 400 && body && typeof body === 'object' && typeof body.code === 'string';
  const query = Object.keys(ctx.query).length > 0 ? { ...ctx.query } : null;
  const rawBody = ctx.state.rawBody;
  const requestType = ctx.get('content-type');
  const responseType = ctx.response.get('content-type');
  const fields = {
    companyId: principal.companyId,
    environment: principal.environment,
    createdAt: startedAt,
    method: ctx.method,
    path: ctx.path,
    status: ctx.status,
    durationMs: Math.round(durationMs * 10) / 10,
    requestId: ctx.state.requestId,
    apiKeyId: principal.kind === 'apiKey' ? principal.apiKeyId : null,
    userId: principal.kind === 'user' ? principal.userId : null,
    oauthClientId: principal.kind === 'oauth' ? principal.clientId : null,
    clientAddress: ctx.state.clientAddress ?? null,
    userAgent: ctx.get('user-agent') || null,
    errorCode: problem ? (body.code as string) : null,
  };
  return () => ({
    ...fields,
    query: query === null ? null : (redactJson(query) as Record<string, unknown>),
    requestHeaders: redactHeaders(headers),
    requestBody: rawBody ? storedBody(rawBody, requestType, settings.maxBodyBytes) : NO_BODY,
    responseBody: storedBody(body, responseType, settings.maxBodyBytes),
  });
}

/**
 * Developers › Logs: every request made with a company's credential goes to its request log (method, path,
 * status, duration, credential, request id, bodies redacted and capped), queued after the answer is decided
 * and written in batches off the request's path. Nothing here can fail or slow a request: a capture that
 * throws is logged and counted. Settings: config.requestLog (REQUEST_LOG_*); the worker purges old entries.
 */
export function companyRequestLog(orm: MikroORM, logger: Logger, settings: RequestLogConfig) {
  if (!settings.enabled) return async (_ctx: AppContext, next: Next) => next();
  const writer = new RequestLogWriter({
    em: () => orm.em.fork(),
    logger,
    settings,
  });
  const middleware = async (ctx: AppContext, next: Next) => {
    const startedAt = new Date();
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      try {
        if (isLogged(ctx)) {
          writer.add(entryOf(ctx, startedAt, Number(process.hrtime.bigint() - started) / 1e6, settings));
        }
      } catch (error) {
        countRequestLogEntries('failed', 1);
        logger.warn({ err: error }, 'capturing a request for the request log failed');
      }
    }
  };
  return middleware;
}
