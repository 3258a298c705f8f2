// Applies committed migrations to DATABASE_URL (or the embedded database when it is unset).
import { loadConfig } from '../src/platform/config/config.ts';
import { createLogger } from '../src/platform/logging/logger.ts';
import { openDatabase } from '../src/platform/runtime/database.ts';

const config = loadConfig();
const database = await openDatabase(config, createLogger(config.logLevel === 'silent' ? 'silent' : 'info'));
console.log(`database ${database.location} is up to date`);
await database.close();
