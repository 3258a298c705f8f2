import { fileURLToPath } from 'node:url';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { createLogger } from '../../src/logging/logger.ts';
import { registerSearchAttributes } from '../../src/temporal/register-search-attributes.ts';
import { searchAttributes } from '../../src/temporal/search-attributes.ts';

/** The project's server launcher, exactly as another project would point `existing-path` at it. */
export const PROJECT_SERVER = fileURLToPath(new URL('../../bin/dpp-temporal-server', import.meta.url));

export type TestServerKind = 'project' | 'official' | 'address';

/**
 * Which server the workflow suites run on:
 * - default: the project's Temporal-compatible server through `existing-path` (works offline);
 * - `TEMPORAL_TEST_SERVER=official`: the official binaries, downloaded by @temporalio/testing;
 * - `TEMPORAL_ADDRESS=host:port`: an already running server (time skipping is then not available).
 */
export function testServerKind(): TestServerKind {
  if (process.env.TEMPORAL_TEST_SERVER === 'official') return 'official';
  if (process.env.TEMPORAL_ADDRESS) return 'address';
  return 'project';
}

let runtimeInstalled = false;

/** Forwards SDK core logs at WARN (a hang or a failing task shows up in the test output). Once per process. */
export function installTestRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  process.env.DPP_TEMPORAL_NODE ??= process.execPath;
  Runtime.install({
    logger: new DefaultLogger('WARN', (entry) => {
      if (entry.message === 'Activity failed' || entry.message === 'Workflow failed') return;
      console.error(
        `[temporal ${entry.level}] ${entry.message}`,
        entry.meta ? JSON.stringify(entry.meta) : '',
      );
    }),
  });
}

/** A time-skipping environment on the selected server, with our search attributes registered. */
export async function createTestWorkflowEnvironment(
  mode: 'time-skipping' | 'local' = 'time-skipping',
): Promise<TestWorkflowEnvironment> {
  installTestRuntime();
  const kind = testServerKind();
  if (kind === 'address') {
    return TestWorkflowEnvironment.createFromExistingServer({ address: process.env.TEMPORAL_ADDRESS! });
  }
  const executable =
    kind === 'project' ? { executable: { type: 'existing-path' as const, path: PROJECT_SERVER } } : {};
  if (mode === 'local') {
    return TestWorkflowEnvironment.createLocal({
      server: { ...executable, searchAttributes: Object.values(searchAttributes) },
    });
  }
  const env = await TestWorkflowEnvironment.createTimeSkipping({ server: executable });
  await registerSearchAttributes(env.connection, env.namespace ?? 'default', createLogger('warn'));
  return env;
}

/** Fails the whole test file if it runs longer than `ms`, so a hang ends with a message instead of a CI timeout. */
export function armWatchdog(ms: number, what: string): void {
  setTimeout(() => {
    console.error(`watchdog: ${what} still running after ${ms} ms; aborting`);
    process.exit(1);
  }, ms).unref();
}
