import type { Config } from '../../src/platform/config/config.ts';
import type { Logger } from '../../src/platform/logging/logger.ts';
import { freePort, isListening } from '../../src/platform/runtime/ports.ts';
import { obtainTemporalCli } from './temporal-binaries.ts';
import { startDevServer } from './temporal-dev-server.ts';

export interface DevTemporal {
  address: string;
  kind: 'configured' | 'dev-server';
  uiUrl: string | undefined;
  stop(): Promise<void>;
}

/**
 * Temporal for `npm start`: TEMPORAL_ADDRESS when set; else the official dev server (Temporal CLI, obtained
 * by scripts/dev/temporal-binaries.ts) with its SQLite database in the data directory, so workflows and their
 * histories survive a restart, and the Web UI.
 */
export async function startDevTemporal(config: Config, logger: Logger): Promise<DevTemporal> {
  if (config.temporal.address) {
    return { address: config.temporal.address, kind: 'configured', uiUrl: undefined, stop: async () => {} };
  }
  const cli = await obtainTemporalCli({ log: (line) => logger.info(line) });
  // Another server on the usual ports (say a second checkout) must not stop this one from starting.
  const wanted = config.temporal.devPort;
  const port = (await isListening(wanted)) ? await freePort() : wanted;
  const uiPort = port === wanted && !(await isListening(wanted + 1000)) ? wanted + 1000 : await freePort();
  const server = await startDevServer({
    cliPath: cli.path,
    port,
    uiPort,
    dbFilename: config.temporal.devDbFile,
    namespace: config.temporal.namespace,
    output: (line) => logger.debug({ component: 'temporal-dev-server' }, line),
  });
  logger.info(
    { address: server.address, ui: server.uiUrl, cli: cli.path, obtained: cli.how },
    'Temporal dev server started',
  );
  return { address: server.address, kind: 'dev-server', uiUrl: server.uiUrl, stop: () => server.stop() };
}
