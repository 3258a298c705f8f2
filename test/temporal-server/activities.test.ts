import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import proto from '@temporalio/proto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { msToDuration } from '../../src/temporal-server/proto.ts';
import { createActivities } from './activities.ts';
import {
  bundleConformanceWorkflows,
  createTimeSkippingEnv,
  setUpTestProcess,
  TEST_TIMEOUT_MS,
  uniqueId,
} from './helpers.ts';

setUpTestProcess();

const taskQueue = 'activities';
const { log, activities } = createActivities();
let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;

before(async () => {
  let bundle: WorkflowBundleWithSourceMap;
  [env, bundle] = await Promise.all([createTimeSkippingEnv(), bundleConformanceWorkflows()]);
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: bundle,
    activities,
  });
  running = worker.run();
});

after(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
});

const options = { timeout: TEST_TIMEOUT_MS };

describe('activities on the time-skipping server', () => {
  test('an activity result reaches the workflow', options, async () => {
    const result = await env.client.workflow.execute('greetWorkflow', {
      taskQueue,
      workflowId: uniqueId('greet'),
      args: ['Ada'],
    });
    assert.equal(result, 'Hello, Ada!');
  });

  test('retries with exponential backoff measured in virtual time', options, async () => {
    log.attemptScheduledTimes = [];
    const started = Date.now();
    const result = await env.client.workflow.execute('retryWorkflow', {
      taskQueue,
      workflowId: uniqueId('retry'),
      args: [4],
    });
    assert.equal(result.attempt, 4);
    const gaps = log.attemptScheduledTimes.slice(1).map((t, i) => t - log.attemptScheduledTimes[i]!);
    assert.equal(gaps.length, 3);
    for (const [i, expected] of [1000, 2000, 4000].entries()) {
      assert.ok(
        Math.abs(gaps[i]! - expected) < 250,
        `backoff ${i + 1} was ${gaps[i]} ms, expected ~${expected}`,
      );
    }
    assert.ok(result.elapsedMs >= 7000, `workflow saw ${result.elapsedMs} ms pass`);
    assert.ok(Date.now() - started < 5000, 'the 7 s of backoff were skipped');
  });

  test(
    'local activities run in the worker, retry there and leave markers instead of activity events',
    options,
    async () => {
      const workflowId = uniqueId('local-steps');
      const result = await env.client.workflow.execute('localSteps', {
        taskQueue,
        workflowId,
        args: ['Ada'],
      });
      assert.deepEqual(result, { attempt: 3, greetings: ['Hello, Ada!', 'Hello, Ada again!'] });
      const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
      const { EventType } = proto.temporal.api.enums.v1;
      const count = (type: number) =>
        (history.events ?? []).filter((event) => event.eventType === type).length;
      assert.equal(count(EventType.EVENT_TYPE_MARKER_RECORDED), 2, 'one marker per local activity');
      assert.equal(
        count(EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED),
        1,
        'only the regular activity goes through the server',
      );
    },
  );

  test('a non-retryable failure is not retried', options, async () => {
    const before = log.calls.alwaysFails ?? 0;
    const result = await env.client.workflow.execute('failureWorkflow', {
      taskQueue,
      workflowId: uniqueId('non-retryable'),
      args: ['nonRetryable'],
    });
    assert.deepEqual(result, { retryState: 'NON_RETRYABLE_FAILURE', type: 'Fatal', nonRetryable: true });
    assert.equal((log.calls.alwaysFails ?? 0) - before, 1);
  });

  test('an error type listed as non-retryable in the policy is not retried', options, async () => {
    const before = log.calls.alwaysFails ?? 0;
    const result = await env.client.workflow.execute('failureWorkflow', {
      taskQueue,
      workflowId: uniqueId('non-retryable-type'),
      args: ['typed'],
    });
    assert.equal(result.retryState, 'NON_RETRYABLE_FAILURE');
    assert.equal(result.type, 'BadInput');
    assert.equal((log.calls.alwaysFails ?? 0) - before, 1);
  });

  test('start-to-close timeout, retried up to the attempt limit', options, async () => {
    const before = log.calls.sleepy ?? 0;
    const result = await env.client.workflow.execute('timeoutWorkflow', {
      taskQueue,
      workflowId: uniqueId('start-to-close'),
      args: ['startToClose'],
    });
    assert.deepEqual(result, { retryState: 'MAXIMUM_ATTEMPTS_REACHED', timeoutType: 'START_TO_CLOSE' });
    assert.equal((log.calls.sleepy ?? 0) - before, 2);
  });

  test('heartbeat timeout', options, async () => {
    const result = await env.client.workflow.execute('timeoutWorkflow', {
      taskQueue,
      workflowId: uniqueId('heartbeat-timeout'),
      args: ['heartbeat'],
    });
    assert.deepEqual(result, { retryState: 'MAXIMUM_ATTEMPTS_REACHED', timeoutType: 'HEARTBEAT' });
  });

  test('heartbeat details are delivered to the next attempt', options, async () => {
    const result = await env.client.workflow.execute('heartbeatDetailsWorkflow', {
      taskQueue,
      workflowId: uniqueId('heartbeat-details'),
    });
    assert.deepEqual(result, { attempt: 2, details: 'checkpoint-1' });
  });

  test('a running activity learns of its cancellation through heartbeats', options, async () => {
    const before = log.cancelled;
    const result = await env.client.workflow.execute('cancelActivityWorkflow', {
      taskQueue,
      workflowId: uniqueId('cancel-activity'),
    });
    assert.equal(result, 'cancelled');
    assert.equal(log.cancelled - before, 1);
  });
});

describe('eager activity dispatch (raw RPCs, as a worker speaks them)', () => {
  const { CommandType, EventType } = proto.temporal.api.enums.v1;
  const schedule = (activityId: string, taskQueue: string): proto.temporal.api.command.v1.ICommand => ({
    commandType: CommandType.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK,
    scheduleActivityTaskCommandAttributes: {
      activityId,
      activityType: { name: 'rawActivity' },
      taskQueue: { name: taskQueue },
      startToCloseTimeout: msToDuration(10_000),
      requestEagerExecution: true,
    },
  });

  test(
    'an activity on the workflow’s own queue comes back with the task completion; others are queued',
    options,
    async () => {
      const service = env.connection.workflowService;
      const namespace = env.namespace ?? 'default';
      const queue = uniqueId('eager-queue');
      const workflowId = uniqueId('eager');
      await service.startWorkflowExecution({
        namespace,
        workflowId,
        workflowType: { name: 'rawWorkflow' },
        taskQueue: { name: queue },
        requestId: uniqueId('request'),
      });
      const task = await service.pollWorkflowTaskQueue({
        namespace,
        taskQueue: { name: queue },
        identity: 'raw-worker',
      });
      const completed: proto.temporal.api.workflowservice.v1.IRespondWorkflowTaskCompletedResponse =
        await service.respondWorkflowTaskCompleted({
          namespace,
          taskToken: task.taskToken,
          identity: 'raw-worker',
          commands: [schedule('own-queue', queue), schedule('other-queue', `${queue}-other`)],
        });

      assert.deepEqual(
        completed.activityTasks?.map((t) => [t.activityId, t.attempt]),
        [['own-queue', 1]],
        'only the activity on the workflow’s queue is dispatched eagerly',
      );
      await service.respondActivityTaskCompleted({
        namespace,
        taskToken: completed.activityTasks![0]!.taskToken,
        identity: 'raw-worker',
      });
      const queued = await service.pollActivityTaskQueue({
        namespace,
        taskQueue: { name: `${queue}-other` },
        identity: 'other-worker',
      });
      assert.equal(queued.activityId, 'other-queue');

      const { history } = await service.getWorkflowExecutionHistory({ namespace, execution: { workflowId } });
      const started = (history?.events ?? []).filter(
        (e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED,
      );
      const done = (history?.events ?? []).filter(
        (e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
      );
      assert.equal(done.length, 1, 'the eagerly run activity completed');
      assert.equal(started[0]?.activityTaskStartedEventAttributes?.identity, 'raw-worker');
      await service.terminateWorkflowExecution({ namespace, workflowExecution: { workflowId } });
    },
  );
});
