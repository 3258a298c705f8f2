import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canConnect } from '../src/platform/db/admin.ts';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../src/platform/db/embedded-postgres.ts';
import { freePort, isListening } from '../src/platform/runtime/ports.ts';

const MACHINE_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
const EMBEDDED_TEST_PORT = 54330;

/**
 * The PostgreSQL server tests create their databases on: TEST_DATABASE_URL, else DATABASE_URL, else the
 * machine's server on 127.0.0.1:5432 if it answers, else an embedded one (real binaries from npm).
 */
export async function resolveTestDatabaseServer(
  log: (line: string) => void,
): Promise<{ adminUrl: string; embedded?: EmbeddedDatabase }> {
  const configured = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (configured) return { adminUrl: configured };
  if (await canConnect(MACHINE_POSTGRES)) {
    log('tests: using PostgreSQL at 127.0.0.1:5432');
    return { adminUrl: MACHINE_POSTGRES };
  }
  log('tests: no PostgreSQL configured or on 127.0.0.1:5432; starting embedded PostgreSQL');
  // Another checkout's test run may hold the usual port.
  const port = (await isListening(EMBEDDED_TEST_PORT)) ? await freePort() : EMBEDDED_TEST_PORT;
  const embedded = await startEmbeddedPostgres({
    dataDir: '.data/test-postgres',
    port,
    database: 'postgres',
  }).catch(async () => {
    // Another test run of this checkout holds the data directory: this run gets one of its own.
    const dataDir = await mkdtemp(join(tmpdir(), 'dpp-test-postgres-'));
    log(`tests: .data/test-postgres is in use; a PostgreSQL of this run's own in ${dataDir}`);
    const own = await startEmbeddedPostgres({ dataDir, port: await freePort(), database: 'postgres' });
    // A run's own server is thrown away with its data (volume tests leave a gigabyte behind otherwise).
    return { url: own.url, stop: () => own.stop().then(() => rm(dataDir, { recursive: true, force: true })) };
  });
  return { adminUrl: embedded.url, embedded };
}
