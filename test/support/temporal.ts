import proto from '@temporalio/proto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { obtainTemporalCli, obtainTemporalTestServer } from '../../scripts/dev/temporal-binaries.ts';
import { startDevServer } from '../../scripts/dev/temporal-dev-server.ts';
import { registerSearchAttributes } from '../../src/adapters/temporal/register-search-attributes.ts';
import { createLogger } from '../../src/platform/logging/logger.ts';
import { searchAttributes } from '../../src/processes/search-attributes.ts';

/**
 * Which official server a suite runs on:
 * - 'time-skipping': the Java time-skipping test server (timers, retry backoffs and heartbeat timeouts pass at
 *   once while a client waits for a result);
 * - 'dev-server': the Temporal CLI's dev server in real time (end-to-end, crash and restart suites).
 * With TEMPORAL_ADDRESS set, every suite runs on that server instead (no time skipping: timers take their time).
 * The binaries come from test/support/global-setup.ts (TEMPORAL_CLI_PATH, TEMPORAL_TEST_SERVER_PATH).
 */
export type TestServerMode = 'time-skipping' | 'dev-server';

const KEYWORD = proto.temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;

let runtimeInstalled = false;

/** Forwards SDK core logs at WARN (a hang or a failing task shows up in the test output). Once per process. */
export function installTestRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  Runtime.install({
    logger: new DefaultLogger('WARN', (entry) => {
      if (entry.message === 'Activity failed' || entry.message === 'Workflow failed') return;
      // The Java test server does not advertise this capability; nothing of ours relies on it.
      if (entry.message.includes('activity_failure_include_heartbeat')) return;
      console.error(
        `[temporal ${entry.level}] ${entry.message}`,
        entry.meta ? JSON.stringify(entry.meta) : '',
      );
    }),
  });
}

/** A fresh server for one test file, with our search attributes registered. */
export async function createTestWorkflowEnvironment(
  mode: TestServerMode = 'time-skipping',
): Promise<TestWorkflowEnvironment> {
  installTestRuntime();
  if (process.env.TEMPORAL_ADDRESS) {
    const env = await TestWorkflowEnvironment.createFromExistingServer({
      address: process.env.TEMPORAL_ADDRESS,
    });
    await registerSearchAttributes(env.connection, env.namespace ?? 'default', createLogger('warn'));
    return env;
  }
  if (mode === 'dev-server') {
    const server = await startDevServer({ cliPath: (await obtainTemporalCli()).path, port: 0 });
    // Once in CI the first connection was reset by a dev server that answered its port but was not ready yet.
    let env: TestWorkflowEnvironment | undefined;
    for (let attempt = 1; !env; attempt++) {
      try {
        env = await TestWorkflowEnvironment.createFromExistingServer({ address: server.address });
      } catch (error) {
        if (attempt >= 5) {
          await server.stop();
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
      }
    }
    const teardown = env.teardown.bind(env);
    env.teardown = async () => {
      await teardown();
      await server.stop();
    };
    return env;
  }
  const { path } = await obtainTemporalTestServer();
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path } },
  });
  // The test server implements AddSearchAttributes but not ListSearchAttributes; each file gets a fresh one.
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(Object.values(searchAttributes).map((key) => [key.name, KEYWORD])),
  });
  return env;
}
