// Production entry point of the HTTP API (docker-compose `api` service). `npm start` runs scripts/dev/launcher.ts.

import { connectClient } from '../src/adapters/temporal/connection.ts';
import { installTemporalRuntime } from '../src/adapters/temporal/runtime.ts';
import { loadConfig } from '../src/platform/config/config.ts';
import { createLogger } from '../src/platform/logging/logger.ts';
import { installTracing } from '../src/platform/observability/tracing.ts';
import { openDatabase } from '../src/platform/runtime/database.ts';
import { temporalCheck } from '../src/platform/runtime/readiness.ts';
import { onShutdown } from '../src/platform/runtime/shutdown.ts';
import { SecretBox } from '../src/platform/secret-box.ts';
import { createApp } from './app.ts';
import { listen } from './server.ts';

const config = loadConfig();
const logger = createLogger(config.logLevel, { role: 'api' });
installTemporalRuntime(logger);
const tracing = installTracing(config.tracing, { role: 'api' });
const database = await openDatabase(config, logger);
const client = config.temporal.address
  ? (await connectClient(config.temporal, config.temporal.address)).client
  : undefined;
if (!client) logger.warn('TEMPORAL_ADDRESS is not set: endpoints that run workflows answer 503');
const app = createApp({
  config,
  orm: database.orm,
  logger,
  secretBox: new SecretBox(config.secrets.dataEncryptionKey),
  ...(client ? { workflows: { client, taskQueuePrefix: config.temporal.taskQueuePrefix } } : {}),
  // PostgreSQL and each configured chain are checked by createApp.
  readiness: client ? { temporal: temporalCheck(client) } : {},
});
const http = await listen(app, config.host, config.port, {
  bodyReadTimeoutMs: config.limits.bodyReadTimeoutMs,
});
logger.info({ url: http.url, database: database.location }, 'API listening');
onShutdown(logger, [
  { name: 'HTTP server', run: () => http.close(config.shutdownGraceMs) },
  { name: 'Temporal connection', run: async () => client?.connection.close() },
  { name: 'trace export', run: async () => tracing?.shutdown() },
  { name: 'database', run: () => database.close() },
]);
