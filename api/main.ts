// Production entry point of the HTTP API (docker-compose `api` service). `npm start` runs src/dev/launcher.ts.
import { loadConfig } from '../src/config/config.ts';
import { createLogger } from '../src/logging/logger.ts';
import { openDatabase } from '../src/runtime/database.ts';
import { onShutdown } from '../src/runtime/shutdown.ts';
import { createApp } from './app.ts';
import { listen } from './server.ts';

const config = loadConfig();
const logger = createLogger(config.logLevel, { role: 'api' });
const database = await openDatabase(config, logger);
const http = await listen(createApp({ config, orm: database.orm, logger }), config.host, config.port);
logger.info({ url: http.url, database: database.location }, 'API listening');
onShutdown(logger, [
  { name: 'HTTP server', run: () => http.close(config.shutdownGraceMs) },
  { name: 'database', run: () => database.close() },
]);
