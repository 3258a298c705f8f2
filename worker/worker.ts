import { fileURLToPath } from 'node:url';
import type { NativeConnection } from '@temporalio/worker';
import { Worker, type WorkerOptions } from '@temporalio/worker';
import { type ActivityDeps, createActivities } from '../activities/index.ts';
import { ENVIRONMENTS } from '../src/config/config.ts';
import { taskQueueFor } from '../src/temporal/task-queues.ts';

export const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

export interface WorkerSetup {
  connection: NativeConnection;
  namespace: string;
  taskQueuePrefix: string;
  activityDeps: Omit<ActivityDeps, 'environment'>;
  /** Extra worker options (tests set maxCachedWorkflows, a prebuilt bundle, …). */
  options?: Partial<WorkerOptions>;
}

/** One worker per environment's task queue; the workflow code is bundled once and shared. */
export async function createWorkers(setup: WorkerSetup): Promise<Worker[]> {
  const { bundleWorkflowCode } = await import('@temporalio/worker');
  const workflowBundle = setup.options?.workflowBundle ?? (await bundleWorkflowCode({ workflowsPath }));
  return Promise.all(
    ENVIRONMENTS.map((environment) =>
      Worker.create({
        connection: setup.connection,
        namespace: setup.namespace,
        taskQueue: taskQueueFor(setup.taskQueuePrefix, environment),
        workflowBundle,
        activities: createActivities({ ...setup.activityDeps, environment }),
        ...setup.options,
      }),
    ),
  );
}

/** Runs the workers until `shutdown()` is called on them (SIGINT/SIGTERM in the entry points). */
export async function runWorkers(workers: Worker[]): Promise<void> {
  await Promise.all(workers.map((worker) => worker.run()));
}
