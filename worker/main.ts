// Production entry point of the worker (docker-compose `worker` service). `npm start` runs it in-process.
import './threadpool.ts';
import { writeFile } from 'node:fs/promises';
import { openPassportChains } from '../src/adapters/chain/environment-chains.ts';
import { createContentStore } from '../src/adapters/ipfs/create.ts';
import { connectClient } from '../src/adapters/temporal/connection.ts';
import { installTemporalRuntime } from '../src/adapters/temporal/runtime.ts';
import { loadConfig } from '../src/platform/config/config.ts';
import { createLogger } from '../src/platform/logging/logger.ts';
import {
  httpMetricsSource,
  registerDatabaseMetrics,
  startMetricsServer,
} from '../src/platform/observability/metrics-endpoint.ts';
import { SignerBalances } from '../src/platform/observability/signer-balance.ts';
import { installTracing } from '../src/platform/observability/tracing.ts';
import { openDatabase } from '../src/platform/runtime/database.ts';
import { freePort } from '../src/platform/runtime/ports.ts';
import { onShutdown } from '../src/platform/runtime/shutdown.ts';
import { SecretBox } from '../src/platform/secret-box.ts';
import { startWorkerRole } from './worker-role.ts';

const READY_FILE = '/tmp/worker-ready';

const config = loadConfig();
const logger = createLogger(config.logLevel, { role: 'worker' });
if (!config.temporal.address) {
  logger.fatal(
    'TEMPORAL_ADDRESS is required for the worker (npm start runs a local Temporal for development)',
  );
  process.exit(2);
}
// The SDK core's Prometheus exposition on a loopback port of its own, served within ours at METRICS_PORT.
const coreMetricsPort = config.metrics.workerPort ? await freePort() : undefined;
installTemporalRuntime(
  logger,
  coreMetricsPort ? { prometheusBindAddress: `127.0.0.1:${coreMetricsPort}` } : {},
);
const tracing = installTracing(config.tracing, { role: 'worker' });
const database = await openDatabase(config, logger);
const chains = await openPassportChains(config, { dataDir: config.chain.dataDir, orm: database.orm });
const { client, connection: clientConnection } = await connectClient(
  config.temporal,
  config.temporal.address,
);
const workerRole = await startWorkerRole({
  config,
  logger,
  client,
  clientConnection,
  database,
  chains,
  contentStore: createContentStore(config.ipfs),
  secretBox: new SecretBox(config.secrets.dataEncryptionKey),
});
registerDatabaseMetrics(database.orm);
// The funded-balance alarm (dpp_chain_signer_balance_wei…; a warning line while a signer is low).
const signerBalances = new SignerBalances(config, logger, { orm: database.orm });
signerBalances.registerMetrics();
signerBalances.watch();
const metrics = config.metrics.workerPort
  ? await startMetricsServer({
      host: config.host,
      port: config.metrics.workerPort,
      access: config.metrics,
      sources: [httpMetricsSource(`http://127.0.0.1:${coreMetricsPort}/metrics`)],
    })
  : undefined;
await writeFile(READY_FILE, new Date().toISOString());
logger.info(
  { temporal: config.temporal.address, namespace: config.temporal.namespace, metrics: metrics?.url },
  'worker running',
);
onShutdown(logger, [
  ...workerRole,
  { name: 'Temporal client connection', run: () => clientConnection.close() },
  {
    name: 'chains',
    run: async () => {
      for (const environment of ['live', 'test'] as const)
        logger.info(
          {
            environment,
            // The transaction manager's totals (sent, nonceErrors, feeBumps, drops, reorgs, …).
            ...chains[environment].transactions.stats,
            mints: chains[environment].mints.stats,
          },
          'chain signer totals',
        );
      await chains.close();
    },
  },
  { name: 'metrics endpoint', run: async () => metrics?.close() },
  { name: 'trace export', run: async () => tracing?.shutdown() },
  { name: 'database', run: () => database.close() },
]);
