import { fileURLToPath } from 'node:url';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import {
  bundleWorkflowCode,
  DefaultLogger,
  Runtime,
  type WorkflowBundleWithSourceMap,
} from '@temporalio/worker';

/** The launcher, exactly as a project would point `existing-path` at it. */
export const SERVER_EXECUTABLE = fileURLToPath(new URL('../../bin/dpp-temporal-server', import.meta.url));

/** Per-test budget: a hang fails fast instead of stalling the suite. */
export const TEST_TIMEOUT_MS = 30_000;

let runtimeInstalled = false;

/**
 * Forwards core (Rust) logs at WARN and arms a whole-file watchdog. Call once per test file, first.
 */
export function setUpTestProcess(fileBudgetMs = 90_000): void {
  // The launcher runs `node` from PATH unless told otherwise; use the node running the tests.
  process.env.DPP_TEMPORAL_NODE ??= process.execPath;
  if (!runtimeInstalled) {
    runtimeInstalled = true;
    Runtime.install({
      logger: new DefaultLogger('WARN', (entry) => {
        // Failing activities are what several tests are about; the SDK logs each one at WARN.
        if (entry.message === 'Activity failed') return;
        console.error(`[sdk ${entry.level}] ${entry.message}`, entry.meta ? JSON.stringify(entry.meta) : '');
      }),
    });
  }
  setTimeout(() => {
    console.error(`watchdog: test file still running after ${fileBudgetMs} ms, aborting`);
    process.exit(1);
  }, fileBudgetMs).unref();
}

export function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  return TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: SERVER_EXECUTABLE } },
  });
}

export function bundleConformanceWorkflows(): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({
    workflowsPath: fileURLToPath(new URL('./workflows/conformance.ts', import.meta.url)),
    logger: new DefaultLogger('WARN'),
  });
}

let counter = 0;
export function uniqueId(prefix: string): string {
  counter++;
  return `${prefix}-${process.pid}-${counter}`;
}
