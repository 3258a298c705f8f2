import { DefaultLogger, type LogLevel, Runtime } from '@temporalio/worker';
import type { Logger } from '../../platform/logging/logger.ts';

const PINO_LEVEL = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;

function sdkLevel(level: string): LogLevel {
  if (level === 'trace' || level === 'debug') return level.toUpperCase() as LogLevel;
  if (level === 'info') return 'INFO';
  if (level === 'warn') return 'WARN';
  return 'ERROR';
}

/**
 * Installs the Temporal SDK runtime of this process (once, before any Temporal connection): the SDK's own
 * logs (worker states, core warnings) become JSON lines of our log with `component: temporal-sdk`, and
 * SIGINT/SIGTERM are left to our shutdown, which stops the workers in order.
 */
export function installTemporalRuntime(
  logger: Logger,
  options: {
    /**
     * Where the SDK core serves its own Prometheus metrics (workflow and activity task latencies, polls,
     * cache): `127.0.0.1:port`, appended to our /metrics (src/platform/observability/metrics-endpoint.ts).
     */
    prometheusBindAddress?: string;
  } = {},
): void {
  const sdk = logger.child({ component: 'temporal-sdk' });
  Runtime.install({
    shutdownSignals: [],
    ...(options.prometheusBindAddress
      ? {
          telemetryOptions: {
            metrics: {
              prometheus: {
                bindAddress: options.prometheusBindAddress,
                useSecondsForDurations: true,
                countersTotalSuffix: true,
              },
            },
          },
        }
      : {}),
    logger: new DefaultLogger(sdkLevel(logger.level), (entry) =>
      sdk[PINO_LEVEL[entry.level]]({ ...entry.meta }, entry.message),
    ),
  });
}

/** For the workflow bundler, whose info output is webpack's multi-line build report: warnings only. */
export function bundlerLogger(): DefaultLogger {
  return new DefaultLogger('WARN', (entry) =>
    Runtime.instance().logger.log(entry.level, entry.message, entry.meta),
  );
}
