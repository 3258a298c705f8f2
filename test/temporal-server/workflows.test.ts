import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  Client,
  QueryNotRegisteredError,
  QueryRejectedError,
  WorkflowFailedError,
  type WorkflowHandle,
} from '@temporalio/client';
import {
  CancelledFailure,
  TerminatedFailure,
  TimeoutFailure,
  WorkflowExecutionAlreadyStartedError,
} from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
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
import { addSignal, failingQuery, proceedSignal, totalQuery } from './workflows/conformance.ts';

setUpTestProcess();

const cachedQueue = 'workflows-cached';
const uncachedQueue = 'workflows-uncached';
const { activities } = createActivities();
let env: TestWorkflowEnvironment;
const workers: Worker[] = [];
let running: Promise<unknown>;

before(async () => {
  let workflowBundle: WorkflowBundleWithSourceMap;
  [env, workflowBundle] = await Promise.all([createTimeSkippingEnv(), bundleConformanceWorkflows()]);
  const connection = env.nativeConnection;
  workers.push(await Worker.create({ connection, taskQueue: cachedQueue, workflowBundle, activities }));
  workers.push(
    await Worker.create({
      connection,
      taskQueue: uncachedQueue,
      workflowBundle,
      activities,
      maxCachedWorkflows: 0,
    }),
  );
  running = Promise.all(workers.map((w) => w.run()));
});

after(async () => {
  for (const worker of workers) worker.shutdown();
  await running;
  await env?.teardown();
});

const options = { timeout: TEST_TIMEOUT_MS };
const WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND = 1;

async function waitForEvent(
  handle: WorkflowHandle,
  predicate: (event: temporal.api.history.v1.IHistoryEvent) => boolean,
) {
  for (let i = 0; i < 500; i++) {
    if ((await handle.fetchHistory()).events?.some(predicate)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('event did not appear');
}

describe('workflows on the time-skipping server', () => {
  test('a 12-hour sleep is skipped in well under a second', options, async () => {
    const started = Date.now();
    const slept = await env.client.workflow.execute('sleeper', {
      taskQueue: cachedQueue,
      workflowId: uniqueId('sleep'),
      args: [12 * 60 * 60 * 1000],
    });
    assert.ok(slept >= 12 * 60 * 60 * 1000, `workflow saw ${slept} ms pass`);
    assert.ok(Date.now() - started < 1000, `took ${Date.now() - started} ms of real time`);
  });

  test('env.sleep and currentTimeMs move the virtual clock', options, async () => {
    const before = await env.currentTimeMs();
    await env.sleep(60 * 60 * 1000);
    const after = await env.currentTimeMs();
    assert.ok(after - before >= 60 * 60 * 1000);
  });

  for (const [label, taskQueue] of [
    ['cached', cachedQueue],
    ['uncached (maxCachedWorkflows: 0)', uncachedQueue],
  ] as const) {
    test(`signals and queries on a ${label} worker`, options, async () => {
      const handle = await env.client.workflow.start('accumulate', {
        taskQueue,
        workflowId: uniqueId('accumulate'),
        args: [3],
      });
      await handle.signal(addSignal, 5);
      assert.equal(await handle.query(totalQuery), 5);
      await handle.signal(addSignal, 7);
      assert.equal(await handle.query(totalQuery), 12);
      await assert.rejects(handle.query('no-such-query'), QueryNotRegisteredError);
      await assert.rejects(handle.query(failingQuery), /query handler failed/);
      await handle.signal(addSignal, 30);
      assert.equal(await handle.result(), 42);
      // A closed workflow can still be queried: the worker replays its history.
      assert.equal(await handle.query(totalQuery), 42);
    });
  }

  test('signal-with-start starts once, then signals the running workflow', options, async () => {
    const workflowId = uniqueId('signal-with-start');
    const first = await env.client.workflow.signalWithStart('accumulate', {
      taskQueue: cachedQueue,
      workflowId,
      args: [2],
      signal: addSignal,
      signalArgs: [1],
    });
    const second = await env.client.workflow.signalWithStart('accumulate', {
      taskQueue: cachedQueue,
      workflowId,
      args: [2],
      signal: addSignal,
      signalArgs: [10],
    });
    assert.equal(second.signaledRunId, first.signaledRunId);
    assert.equal(await first.result(), 11);
  });

  test('queries are rejected by condition once the workflow is closed', options, async () => {
    const client = new Client({ connection: env.connection, workflow: { queryRejectCondition: 'NOT_OPEN' } });
    const workflowId = uniqueId('rejected-query');
    await env.client.workflow.execute('greetWorkflow', { taskQueue: cachedQueue, workflowId, args: ['x'] });
    await assert.rejects(client.workflow.getHandle(workflowId).query(totalQuery), QueryRejectedError);
  });

  test('cancellation reaches the workflow', options, async () => {
    const handle = await env.client.workflow.start('waitForever', {
      taskQueue: cachedQueue,
      workflowId: uniqueId('cancel'),
    });
    await handle.cancel();
    await assert.rejects(
      handle.result(),
      (err: unknown) => err instanceof WorkflowFailedError && err.cause instanceof CancelledFailure,
    );
    assert.equal((await handle.describe()).status.name, 'CANCELLED');
  });

  test('termination closes the workflow', options, async () => {
    const handle = await env.client.workflow.start('waitForever', {
      taskQueue: cachedQueue,
      workflowId: uniqueId('terminate'),
    });
    await handle.terminate('enough');
    await assert.rejects(
      handle.result(),
      (err: unknown) => err instanceof WorkflowFailedError && err.cause instanceof TerminatedFailure,
    );
    assert.equal((await handle.describe()).status.name, 'TERMINATED');
  });

  test('workflow id conflicts: fail by default, USE_EXISTING returns the running run', options, async () => {
    const workflowId = uniqueId('conflict');
    const first = await env.client.workflow.start('waitForever', { taskQueue: cachedQueue, workflowId });
    await assert.rejects(
      env.client.workflow.start('waitForever', { taskQueue: cachedQueue, workflowId }),
      WorkflowExecutionAlreadyStartedError,
    );
    const existing = await env.client.workflow.start('waitForever', {
      taskQueue: cachedQueue,
      workflowId,
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    assert.equal(existing.firstExecutionRunId, first.firstExecutionRunId);
    const replaced = await env.client.workflow.start('waitForever', {
      taskQueue: cachedQueue,
      workflowId,
      workflowIdConflictPolicy: 'TERMINATE_EXISTING',
    });
    assert.notEqual(replaced.firstExecutionRunId, first.firstExecutionRunId);
    const firstRun = env.client.workflow.getHandle(workflowId, first.firstExecutionRunId);
    assert.equal((await firstRun.describe()).status.name, 'TERMINATED');
    await replaced.terminate();
  });

  test('continue-as-new chains runs under one workflow id', options, async () => {
    const workflowId = uniqueId('countdown');
    const result = await env.client.workflow.execute('countdown', {
      taskQueue: cachedQueue,
      workflowId,
      args: [3],
    });
    assert.equal(result, 'done after continue-as-new');
    const runs = [];
    for await (const execution of env.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
      runs.push(execution.status.name);
    }
    assert.deepEqual(runs.sort(), ['COMPLETED', 'CONTINUED_AS_NEW', 'CONTINUED_AS_NEW', 'CONTINUED_AS_NEW']);
  });

  test('the execution timeout closes a workflow that sleeps too long', options, async () => {
    await assert.rejects(
      env.client.workflow.execute('sleeper', {
        taskQueue: cachedQueue,
        workflowId: uniqueId('execution-timeout'),
        args: [2 * 60 * 60 * 1000],
        workflowExecutionTimeout: '1h',
      }),
      (err: unknown) => err instanceof WorkflowFailedError && err.cause instanceof TimeoutFailure,
    );
  });

  test(
    'a workflow with many activities and timers replays fully on an uncached worker',
    options,
    async () => {
      const result = await env.client.workflow.execute('manySteps', {
        taskQueue: uncachedQueue,
        workflowId: uniqueId('many-steps'),
        args: [10],
      });
      assert.equal(result, 10 * 'Hello, 0!'.length);
    },
  );

  test('a failing workflow task is retried until the workflow recovers', options, async () => {
    const handle = await env.client.workflow.start('failsUntilFixed', {
      taskQueue: cachedQueue,
      workflowId: uniqueId('fails-until-fixed'),
      workflowTaskTimeout: '1s',
    });
    await waitForEvent(handle, (e) => !!e.workflowTaskFailedEventAttributes);
    await handle.signal(proceedSignal);
    assert.equal(await handle.result(), 'fixed');
    const events = (await handle.fetchHistory()).events ?? [];
    const failed = events.find((e) => e.workflowTaskFailedEventAttributes);
    assert.equal(failed?.workflowTaskFailedEventAttributes?.failure?.message, 'not fixed yet');
    const attempts = events.map((e) => e.workflowTaskScheduledEventAttributes?.attempt ?? 0);
    assert.ok(Math.max(...attempts) >= 2, `attempts: ${attempts}`);
  });

  for (const [label, waitFor] of [
    ['completion is refused (unhandled command)', 0],
    ['next task is returned eagerly', 1],
  ] as const) {
    test(`a signal arriving while a task runs comes with the next task: ${label}`, options, async () => {
      const handle = await env.client.workflow.start('signalDuringTask', {
        taskQueue: cachedQueue,
        workflowId: uniqueId('signal-during-task'),
        args: [waitFor],
      });
      await waitForEvent(handle, (e) => !!e.workflowTaskStartedEventAttributes);
      await handle.signal(addSignal, 1);
      const result = await handle.result();
      // When the workflow closes right after its local activity, whether its code sees the signal before
      // returning is up to the SDK's job ordering; the server's part is refusing the first completion.
      if (waitFor > 0) assert.equal(result, 1);
      const events = (await handle.fetchHistory()).events ?? [];
      const signaled = events.findIndex((e) => e.workflowExecutionSignaledEventAttributes);
      const firstTaskEnd = events.findIndex(
        (e) => e.workflowTaskCompletedEventAttributes || e.workflowTaskFailedEventAttributes,
      );
      assert.ok(signaled > firstTaskEnd, 'the signal was buffered until the running task finished');
      const unhandled = events.some(
        (e) => e.workflowTaskFailedEventAttributes?.cause === WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND,
      );
      assert.equal(unhandled, waitFor === 0);
    });
  }
});
