import { fileURLToPath } from 'node:url';
import type { NativeConnection } from '@temporalio/worker';
import { Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type EnvironmentDeps } from '../activities/index.ts';
import { bundlerLogger } from '../src/adapters/temporal/runtime.ts';
import type { Environment } from '../src/platform/config/config.ts';
import { ENVIRONMENTS } from '../src/platform/config/config.ts';
import { currentTracing } from '../src/platform/observability/tracing.ts';
import {
  workerObservability,
  workflowInterceptorModulesFor,
} from '../src/platform/observability/worker-observability.ts';
import { taskQueueFor } from '../src/processes/task-queues.ts';

export const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

/**
 * Settings every worker of ours runs with (tests included), measured with `npm run bench -- mint`:
 * - two workflow threads: each workflow activation runs inside a V8 context with a deadlock watchdog that
 *   costs a thread start per call, so one thread is what limits a busy worker;
 * - workflow task slots for 100: a mint's first and last workflow tasks hold their slot while their local
 *   activity runs (prepareMint, recordMint: database, IPFS), so the SDK's 40 left a burst of mints queued
 *   for a slot before their first step;
 * - pollers that scale with the backlog: the SDK's fixed ten (two of them for new workflows) took a burst of
 *   new workflows off the queue one round trip at a time.
 */
export const workerTuning = {
  workflowThreadPoolSize: 2,
  maxConcurrentWorkflowTaskExecutions: 100,
  workflowTaskPollerBehavior: { type: 'autoscaling' },
  activityTaskPollerBehavior: { type: 'autoscaling' },
} satisfies Partial<WorkerOptions>;

export interface WorkerSetup {
  connection: NativeConnection;
  namespace: string;
  taskQueuePrefix: string;
  /** The activities' dependencies for each environment served by this worker. */
  environments: Partial<Record<Environment, EnvironmentDeps>>;
  /** Extra worker options (tests set maxCachedWorkflows, a prebuilt bundle, …). */
  options?: Partial<WorkerOptions>;
}

/**
 * One worker per environment's task queue; the workflow code is bundled once (with our and the SDK's
 * OpenTelemetry workflow interceptors) and shared. Metrics and traces: src/platform/observability/.
 */
export async function createWorkers(setup: WorkerSetup): Promise<Worker[]> {
  const { bundleWorkflowCode } = await import('@temporalio/worker');
  const tracing = currentTracing();
  const workflowBundle =
    setup.options?.workflowBundle ??
    (await bundleWorkflowCode({
      workflowsPath,
      workflowInterceptorModules: workflowInterceptorModulesFor(tracing),
      logger: bundlerLogger(),
    }));
  const served = ENVIRONMENTS.filter((environment) => setup.environments[environment]);
  return Promise.all(
    served.map((environment) =>
      Worker.create({
        connection: setup.connection,
        namespace: setup.namespace,
        taskQueue: taskQueueFor(setup.taskQueuePrefix, environment),
        workflowBundle,
        activities: createActivities(setup.environments[environment]!),
        ...workerObservability(tracing),
        ...workerTuning,
        ...setup.options,
      }),
    ),
  );
}

/** Runs the workers until `shutdown()` is called on them (SIGINT/SIGTERM in the entry points). */
export async function runWorkers(workers: Worker[]): Promise<void> {
  await Promise.all(workers.map((worker) => worker.run()));
}
