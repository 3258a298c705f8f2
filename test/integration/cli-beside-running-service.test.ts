import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, test } from 'vitest';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/platform/db/embedded-postgres.ts';
import { freePort } from '../../src/platform/runtime/ports.ts';

// `npm start` holds the embedded PostgreSQL's data directory; the banner then tells a developer to run
// `npm run cli -- api-key:create`, which used to try to start a second server on the locked directory and fail.
let service: EmbeddedDatabase;
let env: NodeJS.ProcessEnv;
let scratch: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'dpp-cli-beside-'));
  const dataDir = join(scratch, 'pg');
  chmodSync(scratch, 0o755);
  const port = await freePort();
  service = await startEmbeddedPostgres({ dataDir, port });
  const { DATABASE_URL: _unset, ...rest } = process.env;
  env = { ...rest, EMBEDDED_PG_DIR: dataDir, EMBEDDED_PG_PORT: String(port), LOG_LEVEL: 'warn' };
}, 120_000);
afterAll(async () => {
  await service?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const cli = (...args: string[]) =>
  promisify(execFile)('sh', ['scripts/node24.sh', 'scripts/cli.ts', ...args], { env });

test('the CLI works while the service runs on the embedded database, and leaves that database running', async () => {
  const created = await cli('company:create', '--name', 'Beside Ltd');
  const companyId = /company\s+(\S+)/.exec(created.stdout)?.[1];
  assert.ok(companyId, created.stdout + created.stderr);

  const key = await cli('api-key:create', '--company', companyId, '--env', 'test');
  assert.match(key.stdout, /test API key for Beside Ltd/);

  const client = new pg.Client({ connectionString: service.url });
  await client.connect();
  try {
    const { rows } = await client.query('select name from companies where id = $1', [companyId]);
    assert.deepEqual(rows, [{ name: 'Beside Ltd' }]);
  } finally {
    await client.end();
  }
}, 180_000);
