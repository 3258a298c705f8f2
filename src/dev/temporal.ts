import { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Config } from '../config/config.ts';
import type { Logger } from '../logging/logger.ts';
import { searchAttributes } from '../temporal/search-attributes.ts';
import { startTemporalServer } from '../temporal-server/server.ts';

export interface DevTemporal {
  address: string;
  kind: 'configured' | 'official' | 'project';
  uiUrl: string | undefined;
  stop(): Promise<void>;
}

const OFFICIAL_START_TIMEOUT_MS = 15_000;
const customAttributes = Object.fromEntries(
  Object.values(searchAttributes).map((key) => [key.name, 'Keyword']),
);

/**
 * Temporal for `npm start`: TEMPORAL_ADDRESS when set; else the official dev server if it can be obtained
 * within a bounded wait (it is downloaded on first use); else the project's own server in dev mode, whose
 * workflows live in memory and do not survive a restart.
 */
export async function startDevTemporal(config: Config, logger: Logger, devPort = 7233): Promise<DevTemporal> {
  if (config.temporal.address) {
    return { address: config.temporal.address, kind: 'configured', uiUrl: undefined, stop: async () => {} };
  }
  if (config.temporal.devServer !== 'project') {
    try {
      const env = await withTimeout(
        TestWorkflowEnvironment.createLocal({
          server: {
            namespace: config.temporal.namespace,
            searchAttributes: Object.values(searchAttributes),
            ui: true,
          },
        }),
        OFFICIAL_START_TIMEOUT_MS,
      );
      const address = env.address;
      return { address, kind: 'official', uiUrl: 'http://localhost:8233', stop: () => env.teardown() };
    } catch (error) {
      if (config.temporal.devServer === 'official') throw error;
      logger.info(
        { reason: (error as Error).message.slice(0, 200) },
        'official Temporal dev server not available',
      );
    }
  }
  const server = await startTemporalServer({
    mode: 'dev',
    port: devPort,
    namespaces: [config.temporal.namespace],
    searchAttributes: customAttributes,
  }).catch(() =>
    startTemporalServer({
      mode: 'dev',
      port: 0,
      namespaces: [config.temporal.namespace],
      searchAttributes: customAttributes,
    }),
  );
  logger.warn(
    { address: server.address },
    'running the project’s in-memory Temporal server: workflows do not survive a restart (set TEMPORAL_ADDRESS for a real one)',
  );
  return { address: server.address, kind: 'project', uiUrl: undefined, stop: () => server.close() };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
