import { fileURLToPath } from 'node:url';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import {
  armWatchdog,
  createTestWorkflowEnvironment,
  installTestRuntime,
  PROJECT_SERVER,
} from '../support/temporal.ts';

/** The launcher, exactly as a project would point `existing-path` at it. */
export const SERVER_EXECUTABLE = PROJECT_SERVER;

/** Per-test budget: a hang fails fast instead of stalling the suite. */
export const TEST_TIMEOUT_MS = 30_000;

/** Forwards core (Rust) logs at WARN and arms a whole-file watchdog. Call once per test file, first. */
export function setUpTestProcess(fileBudgetMs = 90_000): void {
  installTestRuntime();
  armWatchdog(fileBudgetMs, 'test file');
}

/**
 * A time-skipping environment on the selected server: the project's by default, the official test server
 * with TEMPORAL_TEST_SERVER=official (see test/support/temporal.ts).
 */
export function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  return createTestWorkflowEnvironment('time-skipping');
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
