const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LEVELS)[number];

export interface Logger {
  debug(message: string, ...extra: unknown[]): void;
  info(message: string, ...extra: unknown[]): void;
  warn(message: string, ...extra: unknown[]): void;
  error(message: string, ...extra: unknown[]): void;
}

export function parseLogLevel(value: string | undefined, fallback: LogLevel): LogLevel {
  const normalized = value?.toLowerCase();
  if (normalized === 'fatal') return 'error';
  return LEVELS.find((level) => level === normalized) ?? fallback;
}

/** Logs to stderr so stdout stays free for the "listening on" line that launchers read. */
export function createLogger(level: LogLevel): Logger {
  const threshold = LEVELS.indexOf(level);
  const at =
    (lvl: LogLevel) =>
    (message: string, ...extra: unknown[]) => {
      if (LEVELS.indexOf(lvl) < threshold) return;
      console.error(`[temporal-server] ${lvl.toUpperCase()} ${message}`, ...extra);
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
