import { randomUUID } from 'node:crypto';
import type { EagerActivities } from './activities.ts';
import { applyCommands, firstInvalidCommand, isCloseCommand } from './commands.ts';
import { invalidArgument, notFound } from './errors.ts';
import {
  durationToMs,
  enums,
  type IFailure,
  type IPollWorkflowTaskQueueResponse,
  int64,
  msToDuration,
  msToTimestamp,
  type temporal,
} from './proto.ts';
import { answerQueries, dispatchLegacyQuery } from './queries.ts';
import type { PollerInfo } from './task-queues.ts';
import { encodeToken, type TaskToken } from './tokens.ts';
import type { BufferedEvent, WorkflowRun } from './workflow-run.ts';

const E = enums.EventType;
const Cause = enums.WorkflowTaskFailedCause;

/**
 * Records something that happened to the workflow from outside (signal, activity result, timer, ...).
 * While a workflow task is running the event is buffered and written when that task finishes, as the
 * server does; otherwise it is written now and, if it needs one, a workflow task is scheduled.
 */
export function emit(run: WorkflowRun, event: BufferedEvent): void {
  if (!run.isOpen) return;
  if (run.wft.phase === 'started') {
    run.buffered.push(event);
    return;
  }
  event.write();
  if (event.needsWorkflowTask) scheduleWorkflowTask(run);
}

/** Writes buffered events; returns whether any of them needs a workflow task. */
export function flushBuffered(run: WorkflowRun): boolean {
  const events = run.buffered;
  run.buffered = [];
  let needsTask = false;
  for (const event of events) {
    event.write();
    needsTask ||= event.needsWorkflowTask;
  }
  return needsTask;
}

/**
 * Schedules a workflow task unless one is pending. `first` marks the run's first task, which a start
 * delay holds back; `dispatch: false` leaves it off the queues (it is handed out eagerly instead).
 */
export function scheduleWorkflowTask(
  run: WorkflowRun,
  options: { first?: boolean; dispatch?: boolean } = {},
): void {
  const { wft } = run;
  if (!run.isOpen || wft.phase !== 'none') return;
  if (run.awaitingFirstTask && !options.first) return;
  run.awaitingFirstTask = false;
  const attempt = run.nextWorkflowTaskAttempt;
  const sticky = run.sticky;
  const event = run.history.append({
    eventType: E.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
    workflowTaskScheduledEventAttributes: {
      taskQueue: sticky
        ? {
            name: sticky.name,
            kind: enums.TaskQueueKind.TASK_QUEUE_KIND_STICKY,
            normalName: run.config.taskQueue,
          }
        : run.normalTaskQueue(),
      startToCloseTimeout: msToDuration(run.config.taskTimeoutMs),
      attempt,
    },
  });
  wft.phase = 'scheduled';
  wft.attempt = attempt;
  wft.scheduledEventId = event.eventId;
  wft.startedEventId = 0;
  wft.scheduledTime = run.env.clock.now();
  wft.lock = run.env.clock.lock();
  wft.queries.push(...run.bufferedQueries);
  run.bufferedQueries = [];
  if (options.dispatch !== false) dispatchWorkflowTask(run);
}

/** Puts the scheduled task on the run's sticky queue if it has one, else on its normal queue. */
export function dispatchWorkflowTask(run: WorkflowRun): void {
  const { wft, env } = run;
  wft.timer?.cancel();
  wft.timer = undefined;
  const seq = ++wft.dispatchSeq;
  const sticky = run.sticky;
  const queue = env.queues.get<IPollWorkflowTaskQueueResponse>(
    run.namespace,
    'workflow',
    sticky ? sticky.name : run.config.taskQueue,
  );
  queue.add({ start: (poller) => startWorkflowTask(run, seq, poller) });
  if (sticky && sticky.scheduleToStartTimeoutMs > 0) {
    // A sticky worker that does not pick the task up in time loses it to the normal queue (full history).
    wft.timer = env.clock.after(sticky.scheduleToStartTimeoutMs, () => {
      if (run.isOpen && wft.phase === 'scheduled' && wft.dispatchSeq === seq) {
        run.sticky = undefined;
        dispatchWorkflowTask(run);
      }
    });
  }
}

function startWorkflowTask(
  run: WorkflowRun,
  seq: number,
  poller: PollerInfo,
): IPollWorkflowTaskQueueResponse | undefined {
  const { wft, env } = run;
  if (!run.isOpen || wft.phase !== 'scheduled' || wft.dispatchSeq !== seq) return undefined;
  wft.timer?.cancel();
  const started = run.history.append({
    eventType: E.EVENT_TYPE_WORKFLOW_TASK_STARTED,
    workflowTaskStartedEventAttributes: {
      scheduledEventId: int64(wft.scheduledEventId),
      identity: poller.identity,
      requestId: randomUUID(),
      // Only feeds the SDK's continue-as-new suggestion; a rough estimate avoids re-encoding the history.
      historySizeBytes: int64(run.history.events.length * 256),
    },
  });
  wft.phase = 'started';
  wft.startedEventId = started.eventId;
  wft.startedTime = env.clock.now();
  const startedEventId = started.eventId;
  wft.timer = env.clock.after(run.config.taskTimeoutMs, () => {
    if (run.isOpen && wft.phase === 'started' && wft.startedEventId === startedEventId)
      timeOutWorkflowTask(run);
  });
  // A sticky worker has the run cached: it gets only what happened since its last completed task.
  const events = poller.sticky
    ? run.history.eventsAfter(run.lastCompletedStartedEventId)
    : [...run.history.events];
  return {
    taskToken: encodeToken({
      kind: 'workflow',
      namespace: run.namespace,
      runId: run.runId,
      scheduledEventId: wft.scheduledEventId,
      attempt: wft.attempt,
    }),
    workflowExecution: run.execution,
    workflowType: { name: run.config.workflowType },
    previousStartedEventId: int64(run.lastCompletedStartedEventId),
    startedEventId: int64(startedEventId),
    attempt: wft.attempt,
    history: { events },
    workflowExecutionTaskQueue: run.normalTaskQueue(),
    scheduledTime: msToTimestamp(wft.scheduledTime),
    startedTime: msToTimestamp(wft.startedTime),
    queries: Object.fromEntries(wft.queries.filter((q) => !q.settled).map((q) => [q.id, q.query])),
    messages: [],
  };
}

/** Ends the current task's bookkeeping (lock, timer); the caller writes the closing event. */
function endTask(run: WorkflowRun): void {
  const { wft } = run;
  wft.phase = 'none';
  wft.timer?.cancel();
  wft.timer = undefined;
  wft.lock?.release();
  wft.lock = undefined;
}

export function assertStartedTask(run: WorkflowRun, token: TaskToken): void {
  const { wft } = run;
  if (
    token.kind !== 'workflow' ||
    !run.isOpen ||
    wft.phase !== 'started' ||
    wft.scheduledEventId !== token.scheduledEventId ||
    wft.attempt !== token.attempt
  ) {
    throw notFound('Workflow task not found.');
  }
}

/** Fails the running task and schedules the next attempt (on the normal queue: stickiness is dropped). */
export function failStartedTask(
  run: WorkflowRun,
  cause: number,
  failure: IFailure | null | undefined,
  identity: string,
  countsAsAttempt = true,
): void {
  const { wft } = run;
  run.history.append({
    eventType: E.EVENT_TYPE_WORKFLOW_TASK_FAILED,
    workflowTaskFailedEventAttributes: {
      scheduledEventId: int64(wft.scheduledEventId),
      startedEventId: int64(wft.startedEventId),
      cause,
      failure,
      identity,
    },
  });
  run.nextWorkflowTaskAttempt = countsAsAttempt ? wft.attempt + 1 : 1;
  endTask(run);
  run.sticky = undefined;
  flushBuffered(run);
  scheduleWorkflowTask(run);
}

function timeOutWorkflowTask(run: WorkflowRun): void {
  const { wft } = run;
  run.history.append({
    eventType: E.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT,
    workflowTaskTimedOutEventAttributes: {
      scheduledEventId: int64(wft.scheduledEventId),
      startedEventId: int64(wft.startedEventId),
      timeoutType: enums.TimeoutType.TIMEOUT_TYPE_START_TO_CLOSE,
    },
  });
  run.nextWorkflowTaskAttempt = wft.attempt + 1;
  endTask(run);
  run.sticky = undefined;
  flushBuffered(run);
  scheduleWorkflowTask(run);
}

/** The run is closing: drop the task without writing anything more for it. */
export function abandonWorkflowTask(run: WorkflowRun): void {
  endTask(run);
}

/** Fails an in-flight task because the run is being closed from outside (terminate, timeout). */
export function failTaskForForcedClose(run: WorkflowRun): void {
  if (run.wft.phase !== 'started') return;
  const { wft } = run;
  run.history.append({
    eventType: E.EVENT_TYPE_WORKFLOW_TASK_FAILED,
    workflowTaskFailedEventAttributes: {
      scheduledEventId: int64(wft.scheduledEventId),
      startedEventId: int64(wft.startedEventId),
      cause: Cause.WORKFLOW_TASK_FAILED_CAUSE_FORCE_CLOSE_COMMAND,
    },
  });
  endTask(run);
}

type CompletedRequest = temporal.api.workflowservice.v1.RespondWorkflowTaskCompletedRequest;
type CompletedResponse = temporal.api.workflowservice.v1.IRespondWorkflowTaskCompletedResponse;

export function completeWorkflowTask(run: WorkflowRun, request: CompletedRequest): CompletedResponse {
  const { wft } = run;
  const identity = request.identity;
  answerQueries(run, request.queryResults);
  const commands = request.commands ?? [];
  const invalid = firstInvalidCommand(run, commands);
  if (invalid) {
    failStartedTask(run, invalid.cause, { message: invalid.message }, identity);
    throw invalidArgument(invalid.message);
  }
  // A run cannot close while events it has not seen are waiting: the worker must look at them first.
  if (commands.some(isCloseCommand) && run.buffered.some((event) => event.needsWorkflowTask)) {
    failStartedTask(run, Cause.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND, null, identity, false);
    return {};
  }
  const completed = run.history.append({
    eventType: E.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
    workflowTaskCompletedEventAttributes: {
      scheduledEventId: int64(wft.scheduledEventId),
      startedEventId: int64(wft.startedEventId),
      identity,
      binaryChecksum: request.binaryChecksum,
      workerVersion: request.workerVersionStamp,
      sdkMetadata: request.sdkMetadata,
      meteringMetadata: request.meteringMetadata,
    },
  });
  run.lastCompletedStartedEventId = wft.startedEventId;
  run.nextWorkflowTaskAttempt = 1;
  endTask(run);
  const stickyName = request.stickyAttributes?.workerTaskQueue?.name;
  run.sticky = stickyName
    ? {
        name: stickyName,
        scheduleToStartTimeoutMs: durationToMs(request.stickyAttributes?.scheduleToStartTimeout) || 10_000,
      }
    : undefined;
  const leftoverQueries = wft.queries;
  wft.queries = [];
  const eagerActivities: EagerActivities = { identity: identity ?? '', tasks: [] };
  const commandsNeedTask = applyCommands(run, commands, completed.eventId, eagerActivities);
  const activityTasks = eagerActivities.tasks;
  const bufferedNeedTask = flushBuffered(run);
  const needsTask = commandsNeedTask || bufferedNeedTask || request.forceCreateNewWorkflowTask;
  if (run.isOpen && needsTask) {
    run.bufferedQueries.unshift(...leftoverQueries);
    const eager = request.returnNewWorkflowTask && run.sticky !== undefined;
    scheduleWorkflowTask(run, { dispatch: !eager });
    if (eager) {
      const seq = ++wft.dispatchSeq;
      return { workflowTask: startWorkflowTask(run, seq, { identity, sticky: true }) ?? null, activityTasks };
    }
    return { activityTasks };
  }
  for (const query of [...leftoverQueries, ...run.bufferedQueries]) dispatchLegacyQuery(run, query);
  run.bufferedQueries = [];
  return { activityTasks };
}
