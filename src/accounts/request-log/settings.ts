import { z } from 'zod';

/** How much of the request log is kept (docs/console.md "Developers › Logs", docs/configuration.md). */
export interface RequestLogSettings {
  /** False: no request is logged (REQUEST_LOG_ENABLED=false). */
  enabled: boolean;
  /** Entries older than this are purged. */
  retentionDays: number;
  /** Most entries kept per company and environment; the oldest go first. */
  maxRowsPerCompany: number;
  /** Most bytes kept of each body (request and response); longer ones are cut and marked truncated. */
  maxBodyBytes: number;
}

const settingsEnv = z.object({
  REQUEST_LOG_ENABLED: z.enum(['true', 'false']).default('true'),
  REQUEST_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  REQUEST_LOG_MAX_ROWS: z.coerce.number().int().min(10).max(1_000_000).default(10_000),
  REQUEST_LOG_MAX_BODY_BYTES: z.coerce.number().int().min(256).max(1_048_576).default(16_384),
});

/** The settings from the environment's REQUEST_LOG_* variables, each with its default. */
export function requestLogSettings(env: Record<string, string | undefined>): RequestLogSettings {
  const e = settingsEnv.parse({
    REQUEST_LOG_ENABLED: env.REQUEST_LOG_ENABLED || undefined,
    REQUEST_LOG_RETENTION_DAYS: env.REQUEST_LOG_RETENTION_DAYS || undefined,
    REQUEST_LOG_MAX_ROWS: env.REQUEST_LOG_MAX_ROWS || undefined,
    REQUEST_LOG_MAX_BODY_BYTES: env.REQUEST_LOG_MAX_BODY_BYTES || undefined,
  });
  return {
    enabled: e.REQUEST_LOG_ENABLED === 'true',
    retentionDays: e.REQUEST_LOG_RETENTION_DAYS,
    maxRowsPerCompany: e.REQUEST_LOG_MAX_ROWS,
    maxBodyBytes: e.REQUEST_LOG_MAX_BODY_BYTES,
  };
}
