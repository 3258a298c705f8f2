import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities } from './activities.ts';
import {
  bundleConformanceWorkflows,
  createTimeSkippingEnv,
  setUpTestProcess,
  TEST_TIMEOUT_MS,
  uniqueId,
} from './helpers.ts';
import { proceedSignal } from './workflows/conformance.ts';

setUpTestProcess();

let env: TestWorkflowEnvironment;
let workflowBundle: WorkflowBundleWithSourceMap;

before(async () => {
  [env, workflowBundle] = await Promise.all([createTimeSkippingEnv(), bundleConformanceWorkflows()]);
});

after(async () => {
  await env?.teardown();
});

describe('workers on the time-skipping server', () => {
  test('a workflow continues on a new worker after its worker shut down', {
    timeout: TEST_TIMEOUT_MS,
  }, async () => {
    const taskQueue = uniqueId('swap');
    const { log, activities } = createActivities();
    const workflowId = uniqueId('two-steps');
    const first = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle,
      activities,
    });
    const handle = await first.runUntil(async () => {
      const started = await env.client.workflow.start('twoSteps', { taskQueue, workflowId });
      // Wait until the first activity completed and the workflow task after it did too: the workflow
      // then sits waiting for the signal.
      for (;;) {
        const events = (await started.fetchHistory()).events ?? [];
        const idle = events.at(-1)?.workflowTaskCompletedEventAttributes;
        if (idle && events.some((e) => e.activityTaskCompletedEventAttributes)) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return started;
    });
    assert.equal(log.calls.greet, 1);

    await handle.signal(proceedSignal);
    const second = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle,
      activities,
    });
    const result = await second.runUntil(handle.result());
    assert.deepEqual(result, ['Hello, first!', 'Hello, second!']);
    assert.equal(log.calls.greet, 2, 'each activity ran exactly once');
    const events = (await handle.fetchHistory()).events ?? [];
    assert.equal(events.filter((e) => e.activityTaskScheduledEventAttributes).length, 2);
    assert.equal(events.filter((e) => e.activityTaskCompletedEventAttributes).length, 2);
  });

  test('200 concurrent workflows complete', { timeout: 60_000 }, async () => {
    const taskQueue = uniqueId('concurrent');
    const { activities } = createActivities();
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle,
      activities,
      maxConcurrentWorkflowTaskExecutions: 50,
    });
    const results = await worker.runUntil(
      Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          env.client.workflow.execute('greetWorkflow', {
            taskQueue,
            workflowId: uniqueId(`concurrent-${i}`),
            args: [`#${i}`],
          }),
        ),
      ),
    );
    assert.equal(results.length, 200);
    for (const [i, result] of results.entries()) assert.equal(result, `Hello, #${i}!`);
  });
});
