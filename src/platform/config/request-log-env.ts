import { z } from 'zod';

/** The request log's variables of the environment schema (src/platform/config/env.ts); docs/configuration.md. */
export const requestLogEnvShape = {
  REQUEST_LOG_ENABLED: z.enum(['true', 'false']).default('true'),
  REQUEST_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  REQUEST_LOG_MAX_ROWS: z.coerce.number().int().min(10).max(1_000_000).default(10_000),
  REQUEST_LOG_MAX_BODY_BYTES: z.coerce.number().int().min(256).max(1_048_576).default(16_384),
  REQUEST_LOG_PURGE_EVERY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
};

type RequestLogEnv = z.infer<z.ZodObject<typeof requestLogEnvShape>>;

/** How much of the request log is kept (docs/console.md "Developers › Logs"). */
export interface RequestLogConfig {
  /** False: no request is logged (REQUEST_LOG_ENABLED=false). */
  enabled: boolean;
  /** Entries older than this are purged (by the worker). */
  retentionDays: number;
  /** Most entries kept per company and environment; the oldest go first. */
  maxRowsPerCompany: number;
  /** Most bytes kept of each body (request and response); longer ones are cut and marked truncated. */
  maxBodyBytes: number;
  /** How often the worker purges old entries and trims every company's log to its cap. */
  purgeEveryMs: number;
}

export function requestLogConfig(e: RequestLogEnv): RequestLogConfig {
  return {
    enabled: e.REQUEST_LOG_ENABLED === 'true',
    retentionDays: e.REQUEST_LOG_RETENTION_DAYS,
    maxRowsPerCompany: e.REQUEST_LOG_MAX_ROWS,
    maxBodyBytes: e.REQUEST_LOG_MAX_BODY_BYTES,
    purgeEveryMs: e.REQUEST_LOG_PURGE_EVERY_SECONDS * 1000,
  };
}
