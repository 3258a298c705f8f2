import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import {
  buildInto,
  executableIn,
  goInstall,
  isExecutable,
  runTool,
  secondsSince,
  TOOL_CACHE,
} from './tool-cache.ts';

/**
 * The official Temporal servers for development and tests, pinned:
 * - the Temporal CLI (`temporal server start-dev`: real server, SQLite persistence, Web UI). v1.5.1 is the
 *   newest release `go install` can build from the module proxy: from v1.6.0 its go.mod replaces a nested
 *   module with a local path, which `go install module@version` refuses.
 * - the time-skipping test server, `io.temporal:temporal-test-server` from Maven Central (the same server the
 *   SDK downloads as a native image for `createTimeSkipping`).
 */
export const TEMPORAL_CLI_VERSION = '1.5.1';
export const TEMPORAL_TEST_SERVER_VERSION = '1.38.0';

export type ObtainedHow = 'configured' | 'cached' | 'sdk-download' | 'built';

export interface ObtainedBinary {
  /** An executable for `{ executable: { type: 'existing-path', path } }`. */
  path: string;
  how: ObtainedHow;
}

export interface ObtainOptions {
  /** Where binaries are kept between runs (default `.cache/temporal` in the project). */
  cacheDir?: string;
  log?: (line: string) => void;
  /** Skip the SDK's own download (tests of the build path). */
  skipSdkDownload?: boolean;
}

export class TemporalBinaryUnavailable extends Error {}

const DEFAULT_CACHE = join(TOOL_CACHE, 'temporal');
const SDK_DOWNLOAD_TIMEOUT_MS = 120_000;

/**
 * The Temporal CLI: TEMPORAL_CLI_PATH → cached build → the SDK's own download (machines with internet) →
 * `go install` from the module proxy → an error that says how to get one. Callers that have
 * TEMPORAL_ADDRESS do not need a binary at all.
 */
export async function obtainTemporalCli(options: ObtainOptions = {}): Promise<ObtainedBinary> {
  const log = options.log ?? (() => {});
  const configured = process.env.TEMPORAL_CLI_PATH;
  if (configured) return { path: configured, how: 'configured' };
  const cacheDir = options.cacheDir ?? DEFAULT_CACHE;
  const dir = join(cacheDir, `cli-v${TEMPORAL_CLI_VERSION}`);
  const path = join(dir, 'temporal');
  if (await isExecutable(path)) return { path, how: 'cached' };

  if (!options.skipSdkDownload) {
    const downloaded = await trySdkDownload('dev-server', join(cacheDir, 'sdk-download-cli'), log);
    if (downloaded) return { path: downloaded, how: 'sdk-download' };
  }

  log(
    `temporal: building the Temporal CLI v${TEMPORAL_CLI_VERSION} from the Go module proxy into ${dir} (once; a few minutes)`,
  );
  const started = Date.now();
  try {
    await buildInto(dir, (staging) =>
      goInstall(
        staging,
        `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION}`,
        `-X github.com/temporalio/cli/temporalcli.Version=${TEMPORAL_CLI_VERSION}`,
      ),
    );
  } catch (error) {
    throw new TemporalBinaryUnavailable(
      `Could not obtain the Temporal CLI: ${(error as Error).message}\n` +
        'Install Go ≥ 1.25 (the module proxy must be reachable), or install the Temporal CLI yourself and set ' +
        'TEMPORAL_CLI_PATH, or run a Temporal server and set TEMPORAL_ADDRESS=host:port.',
    );
  }
  log(`temporal: built the Temporal CLI in ${secondsSince(started)} s`);
  return { path, how: 'built' };
}

/**
 * The time-skipping test server: TEMPORAL_TEST_SERVER_PATH → cached → the SDK's own download → the Java
 * server resolved from Maven Central with a small wrapper that takes the SDK's command line → an error.
 */
export async function obtainTemporalTestServer(options: ObtainOptions = {}): Promise<ObtainedBinary> {
  const log = options.log ?? (() => {});
  const configured = process.env.TEMPORAL_TEST_SERVER_PATH;
  if (configured) return { path: configured, how: 'configured' };
  const cacheDir = options.cacheDir ?? DEFAULT_CACHE;
  const dir = join(cacheDir, `test-server-${TEMPORAL_TEST_SERVER_VERSION}`);
  const path = join(dir, 'temporal-test-server');
  if (await isExecutable(path)) return { path, how: 'cached' };

  if (!options.skipSdkDownload) {
    const downloaded = await trySdkDownload('time-skipping', join(cacheDir, 'sdk-download-test-server'), log);
    if (downloaded) return { path: downloaded, how: 'sdk-download' };
  }

  log(
    `temporal: resolving io.temporal:temporal-test-server:${TEMPORAL_TEST_SERVER_VERSION} from Maven Central into ${dir} (once)`,
  );
  const started = Date.now();
  try {
    await buildInto(dir, async (staging) => {
      await runTool('java', ['-version']);
      await writeFile(join(staging, 'pom.xml'), testServerPom());
      await runTool('mvn', [
        '-q',
        '-B',
        '-f',
        join(staging, 'pom.xml'),
        'dependency:copy-dependencies',
        `-DoutputDirectory=${join(staging, 'lib')}`,
        '-DincludeScope=runtime',
      ]);
      // The wrapper lives beside its jars and finds them relative to itself, so the cache can move.
      await writeFile(join(staging, 'temporal-test-server'), testServerWrapper());
      await chmod(join(staging, 'temporal-test-server'), 0o755);
    });
  } catch (error) {
    throw new TemporalBinaryUnavailable(
      `Could not obtain the Temporal test server: ${(error as Error).message}\n` +
        'Install a JDK ≥ 11 and Maven (Maven Central must be reachable), or set TEMPORAL_TEST_SERVER_PATH to a ' +
        'temporal-test-server executable.',
    );
  }
  log(`temporal: resolved the test server in ${secondsSince(started)} s`);
  return { path, how: 'built' };
}

function testServerPom(): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.dpp</groupId>
  <artifactId>temporal-test-server-runtime</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>io.temporal</groupId>
      <artifactId>temporal-test-server</artifactId>
      <version>${TEMPORAL_TEST_SERVER_VERSION}</version>
    </dependency>
    <!-- The server logs through SLF4J 1.7; without a binding it prints a warning at every start. -->
    <dependency>
      <groupId>org.slf4j</groupId>
      <artifactId>slf4j-nop</artifactId>
      <version>1.7.36</version>
    </dependency>
  </dependencies>
</project>
`;
}

/** `temporal-test-server <port> [--enable-time-skipping]`, the command line the SDK gives its test server. */
function testServerWrapper(): string {
  return `#!/bin/sh
# io.temporal:temporal-test-server ${TEMPORAL_TEST_SERVER_VERSION} (Maven Central), started as the SDK starts its
# native test server. Short-lived JVMs: small heap, fast start.
here=$(cd "$(dirname "$0")" && pwd)
exec java -Xms64m -Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss1m \\
  -cp "$here/lib/*" io.temporal.testserver.TestServer "$@"
`;
}

/**
 * The SDK downloads the official binaries from temporal.download when it can. We start one server through it
 * (that is the only way the SDK downloads), stop it, and keep the file it left in `downloadDir`.
 */
async function trySdkDownload(
  kind: 'dev-server' | 'time-skipping',
  downloadDir: string,
  log: (line: string) => void,
): Promise<string | undefined> {
  const existing = await executableIn(downloadDir);
  if (existing) return existing;
  await mkdir(downloadDir, { recursive: true });
  const executable = { type: 'cached-download' as const, downloadDir };
  let timer: NodeJS.Timeout | undefined;
  try {
    const env = await Promise.race([
      kind === 'dev-server'
        ? TestWorkflowEnvironment.createLocal({ server: { executable } })
        : TestWorkflowEnvironment.createTimeSkipping({ server: { executable } }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer')), SDK_DOWNLOAD_TIMEOUT_MS);
      }),
    ]);
    await env.teardown();
  } catch (error) {
    log(`temporal: the SDK's download of the ${kind} server is not available here (${firstLine(error)})`);
    return undefined;
  } finally {
    clearTimeout(timer);
  }
  return executableIn(downloadDir);
}

function firstLine(error: unknown): string {
  return String((error as Error).message ?? error)
    .split('\n')[0]!
    .slice(0, 160);
}
