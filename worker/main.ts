// Production entry point of the worker (docker-compose `worker` service). `npm start` runs it in-process.
import { writeFile } from 'node:fs/promises';
import { Runtime } from '@temporalio/worker';
import { openPassportChains } from '../src/chain/environment-chains.ts';
import { loadConfig } from '../src/config/config.ts';
import { SecretBox } from '../src/crypto/secret-box.ts';
import { createContentStore } from '../src/ipfs/create.ts';
import { createLogger } from '../src/logging/logger.ts';
import { openDatabase } from '../src/runtime/database.ts';
import { onShutdown } from '../src/runtime/shutdown.ts';
import { connectClient, connectWorker } from '../src/temporal/connection.ts';
import { registerSearchAttributes } from '../src/temporal/register-search-attributes.ts';
import { startOutboxDispatcher } from '../src/webhooks/dispatcher.ts';
import { environmentDeps } from './environment-deps.ts';
import { createWorkers, runWorkers } from './worker.ts';

const READY_FILE = '/tmp/worker-ready';

const config = loadConfig();
const logger = createLogger(config.logLevel, { role: 'worker' });
if (!config.temporal.address) {
  logger.fatal(
    'TEMPORAL_ADDRESS is required for the worker (npm start runs a local Temporal for development)',
  );
  process.exit(2);
}
Runtime.install({ shutdownSignals: [] });
const database = await openDatabase(config, logger);
const chains = await openPassportChains(config, { dataDir: config.chain.dataDir });
const { client, connection: clientConnection } = await connectClient(
  config.temporal,
  config.temporal.address,
);
await registerSearchAttributes(clientConnection, config.temporal.namespace, logger);
const connection = await connectWorker(config.temporal, config.temporal.address);
const workers = await createWorkers({
  connection,
  namespace: config.temporal.namespace,
  taskQueuePrefix: config.temporal.taskQueuePrefix,
  environments: environmentDeps({
    config,
    orm: database.orm,
    logger,
    secretBox: new SecretBox(config.secrets.dataEncryptionKey),
    contentStore: createContentStore(config.ipfs),
    chains,
  }),
});
const running = runWorkers(workers);
const dispatcher = startOutboxDispatcher({
  orm: database.orm,
  gateway: { client, taskQueuePrefix: config.temporal.taskQueuePrefix },
  logger,
});
await writeFile(READY_FILE, new Date().toISOString());
logger.info({ temporal: config.temporal.address, namespace: config.temporal.namespace }, 'worker running');
onShutdown(logger, [
  { name: 'outbox dispatcher', run: () => dispatcher.stop() },
  {
    name: 'workers',
    run: async () => {
      for (const worker of workers) worker.shutdown();
      await running;
    },
  },
  {
    name: 'Temporal connections',
    run: async () => {
      await connection.close();
      await clientConnection.close();
    },
  },
  { name: 'chains', run: () => chains.close() },
  { name: 'database', run: () => database.close() },
]);
