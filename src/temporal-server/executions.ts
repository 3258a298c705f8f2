import { randomUUID } from 'node:crypto';
import { abandonActivity } from './activities.ts';
import type { ServerEnv } from './env.ts';
import { notFound } from './errors.ts';
import {
  durationToMs,
  enums,
  type IPayload,
  int64,
  msToDuration,
  msToTimestamp,
  type temporal,
} from './proto.ts';
import { dispatchLegacyQuery } from './queries.ts';
import { type RunConfig, WorkflowRun } from './workflow-run.ts';
import {
  abandonWorkflowTask,
  emit,
  failTaskForForcedClose,
  flushBuffered,
  scheduleWorkflowTask,
} from './workflow-tasks.ts';

const E = enums.EventType;
const Status = enums.WorkflowExecutionStatus;

export interface InitialSignal {
  signalName: string;
  input: temporal.api.common.v1.IPayloads | null;
  header: temporal.api.common.v1.IHeader | null;
  identity: string;
  requestId: string;
}

/** Creates a run, writes WorkflowExecutionStarted and schedules its first workflow task. */
export function createRun(
  env: ServerEnv,
  config: RunConfig,
  memo: Record<string, IPayload>,
  searchAttributes: Record<string, IPayload>,
  options: { runId?: string; signal?: InitialSignal } = {},
): WorkflowRun {
  const run = new WorkflowRun(env, options.runId ?? randomUUID(), config, memo, searchAttributes);
  env.store.add(run);
  run.history.append({
    eventType: E.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED,
    workflowExecutionStartedEventAttributes: {
      workflowType: { name: config.workflowType },
      taskQueue: run.normalTaskQueue(),
      input: config.input,
      header: config.header,
      workflowExecutionTimeout: msToDuration(config.executionTimeoutMs),
      workflowRunTimeout: msToDuration(config.runTimeoutMs),
      workflowTaskTimeout: msToDuration(config.taskTimeoutMs),
      continuedExecutionRunId: config.continuedExecutionRunId,
      initiator: config.initiator,
      continuedFailure: config.continuedFailure,
      lastCompletionResult: config.lastCompletionResult,
      originalExecutionRunId: run.runId,
      identity: config.identity,
      firstExecutionRunId: config.firstExecutionRunId || run.runId,
      retryPolicy: config.retryPolicy,
      attempt: config.attempt,
      workflowExecutionExpirationTime: config.executionExpirationTime
        ? msToTimestamp(config.executionExpirationTime)
        : null,
      firstWorkflowTaskBackoff: config.firstWorkflowTaskBackoffMs
        ? msToDuration(config.firstWorkflowTaskBackoffMs)
        : null,
      memo: { fields: memo },
      searchAttributes: { indexedFields: searchAttributes },
      workflowId: config.workflowId,
      priority: config.priority,
      rootWorkflowExecution: run.execution,
    },
    userMetadata: config.userMetadata,
    links: config.links,
  });
  if (options.signal) {
    run.requestIds.add(options.signal.requestId);
    writeSignal(run, options.signal);
  }
  const runDeadlines = [
    config.runTimeoutMs ? run.startTime + config.firstWorkflowTaskBackoffMs + config.runTimeoutMs : 0,
    config.executionExpirationTime,
  ].filter((deadline) => deadline > 0);
  if (runDeadlines.length > 0) {
    run.closeTimers.push(env.clock.at(Math.min(...runDeadlines), () => timeOutRun(run)));
  }
  if (config.firstWorkflowTaskBackoffMs > 0) {
    run.closeTimers.push(
      env.clock.after(config.firstWorkflowTaskBackoffMs, () => scheduleWorkflowTask(run, { first: true })),
    );
  } else {
    scheduleWorkflowTask(run, { first: true });
  }
  return run;
}

function writeSignal(run: WorkflowRun, signal: InitialSignal): void {
  run.history.append({
    eventType: E.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED,
    workflowExecutionSignaledEventAttributes: {
      signalName: signal.signalName,
      input: signal.input,
      header: signal.header,
      identity: signal.identity,
      requestId: signal.requestId,
    },
  });
}

export function requireOpen(run: WorkflowRun): void {
  if (!run.isOpen) throw notFound('workflow execution already completed');
}

export function signalRun(run: WorkflowRun, signal: InitialSignal): void {
  requireOpen(run);
  if (signal.requestId && run.requestIds.has(signal.requestId)) return;
  if (signal.requestId) run.requestIds.add(signal.requestId);
  emit(run, { needsWorkflowTask: true, write: () => writeSignal(run, signal) });
}

export function requestCancelRun(run: WorkflowRun, identity: string, reason: string): void {
  requireOpen(run);
  if (run.cancelRequested) return;
  run.cancelRequested = true;
  emit(run, {
    needsWorkflowTask: true,
    write: () =>
      run.history.append({
        eventType: E.EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED,
        workflowExecutionCancelRequestedEventAttributes: { cause: reason, identity },
      }),
  });
}

/** Closes a run from outside: an in-flight task is failed and buffered events are written first. */
function forceClose(run: WorkflowRun, status: number, writeCloseEvent: () => void): void {
  failTaskForForcedClose(run);
  flushBuffered(run);
  closeRun(run, status, writeCloseEvent);
}

export function terminateRun(
  run: WorkflowRun,
  reason: string,
  details: temporal.api.common.v1.IPayloads | null | undefined,
  identity: string,
): void {
  requireOpen(run);
  forceClose(run, Status.WORKFLOW_EXECUTION_STATUS_TERMINATED, () =>
    run.history.append({
      eventType: E.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
      workflowExecutionTerminatedEventAttributes: { reason, details, identity },
    }),
  );
}

function timeOutRun(run: WorkflowRun): void {
  if (!run.isOpen) return;
  forceClose(run, Status.WORKFLOW_EXECUTION_STATUS_TIMED_OUT, () =>
    run.history.append({
      eventType: E.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT,
      workflowExecutionTimedOutEventAttributes: { retryState: enums.RetryState.RETRY_STATE_TIMEOUT },
    }),
  );
}

/** Writes the close event and releases everything the run holds (task, activities, timers, queries). */
export function closeRun(run: WorkflowRun, status: number, writeCloseEvent: () => void): void {
  if (!run.isOpen) return;
  if (run.wft.phase !== 'none') abandonWorkflowTask(run);
  writeCloseEvent();
  run.status = status;
  run.closeTime = run.env.clock.now();
  for (const activity of [...run.activities.values()]) abandonActivity(run, activity);
  for (const timer of run.timers.values()) timer.handle.cancel();
  run.timers.clear();
  for (const timer of run.closeTimers) timer.cancel();
  run.sticky = undefined;
  run.buffered = [];
  const queries = [...run.wft.queries, ...run.bufferedQueries];
  run.wft.queries = [];
  run.bufferedQueries = [];
  for (const query of queries) dispatchLegacyQuery(run, query);
  run.history.notify();
}

type ContinueAsNewAttributes = temporal.api.command.v1.IContinueAsNewWorkflowExecutionCommandAttributes;

export function continueAsNew(
  run: WorkflowRun,
  attrs: ContinueAsNewAttributes,
  completedEventId: number,
): void {
  const { config } = run;
  const newRunId = randomUUID();
  const next: RunConfig = {
    ...config,
    workflowType: attrs.workflowType?.name || config.workflowType,
    taskQueue: attrs.taskQueue?.name || config.taskQueue,
    input: attrs.input ?? null,
    header: attrs.header ?? config.header,
    runTimeoutMs: durationToMs(attrs.workflowRunTimeout) || config.runTimeoutMs,
    taskTimeoutMs: durationToMs(attrs.workflowTaskTimeout) || config.taskTimeoutMs,
    retryPolicy: attrs.retryPolicy ?? config.retryPolicy,
    requestId: randomUUID(),
    continuedExecutionRunId: run.runId,
    initiator: attrs.initiator || enums.ContinueAsNewInitiator.CONTINUE_AS_NEW_INITIATOR_WORKFLOW,
    continuedFailure: attrs.failure ?? null,
    lastCompletionResult: attrs.lastCompletionResult ?? null,
    firstWorkflowTaskBackoffMs: durationToMs(attrs.backoffStartInterval),
    attempt: 1,
    userMetadata: null,
  };
  const memo = attrs.memo?.fields ?? run.memo;
  const searchAttributes = attrs.searchAttributes?.indexedFields ?? run.searchAttributes;
  closeRun(run, Status.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW, () =>
    run.history.append({
      eventType: E.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW,
      workflowExecutionContinuedAsNewEventAttributes: {
        newExecutionRunId: newRunId,
        workflowType: { name: next.workflowType },
        taskQueue: { name: next.taskQueue, kind: enums.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
        input: next.input,
        workflowRunTimeout: msToDuration(next.runTimeoutMs),
        workflowTaskTimeout: msToDuration(next.taskTimeoutMs),
        workflowTaskCompletedEventId: int64(completedEventId),
        backoffStartInterval: attrs.backoffStartInterval,
        initiator: next.initiator,
        failure: attrs.failure,
        lastCompletionResult: attrs.lastCompletionResult,
        header: next.header,
        memo: { fields: memo },
        searchAttributes: { indexedFields: searchAttributes },
      },
    }),
  );
  run.nextRunId = newRunId;
  createRun(run.env, next, { ...memo }, { ...searchAttributes }, { runId: newRunId });
}
