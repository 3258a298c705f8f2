import { type Logger, pino } from 'pino';

export type { Logger };

/** One JSON logger for the process; secrets that might ride along in objects are redacted. */
export function createLogger(level: string, base: Record<string, unknown> = {}): Logger {
  return pino({
    level,
    base: { service: 'dpp', ...base },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', '*.secret', '*.password', '*.key'],
      censor: '[redacted]',
    },
  });
}
