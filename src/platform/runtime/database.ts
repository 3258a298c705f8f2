import type { Config } from '../config/config.ts';
import { startEmbeddedPostgres } from '../db/embedded-postgres.ts';
import { migrateExclusively } from '../db/migrate-lock.ts';
import { type Orm, openOrm } from '../db/orm.ts';
import type { Logger } from '../logging/logger.ts';

export interface OpenDatabase {
  orm: Orm;
  /** Where the database is, without credentials, for printing. */
  location: string;
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * Connects to DATABASE_URL, or starts the embedded PostgreSQL when it is unset; applies pending migrations (one
 * replica at a time: src/platform/db/migrate-lock.ts).
 */
export async function openDatabase(config: Config, logger: Logger): Promise<OpenDatabase> {
  let url = config.database.url;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!url) {
    logger.info(
      { dir: config.database.embeddedDir, port: config.database.embeddedPort },
      'starting embedded PostgreSQL',
    );
    const embedded = await startEmbeddedPostgres({
      dataDir: config.database.embeddedDir,
      port: config.database.embeddedPort,
      onLog: (line) => logger.trace({ postgres: line }),
    });
    url = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const orm = await openOrm(url, config.database.poolMax);
  const applied = await migrateExclusively(url, orm);
  if (applied.length > 0) logger.info({ migrations: applied }, 'applied database migrations');
  const parsed = new URL(url);
  return {
    orm,
    location: `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}${stopEmbedded ? ' (embedded)' : ''}`,
    embedded: Boolean(stopEmbedded),
    close: async () => {
      await orm.close(true);
      await stopEmbedded?.();
    },
  };
}
