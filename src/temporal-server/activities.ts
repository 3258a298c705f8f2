import { timeOut } from './activity-outcomes.ts';
import { type ActivityTimeouts, type RetryPolicyMs, retryPolicyToProto } from './activity-retry.ts';
import type { LockHandle, TimerHandle } from './clock.ts';
import {
  enums,
  type IFailure,
  type IHeader,
  type IPayloads,
  type IPollActivityTaskQueueResponse,
  int64,
  msToDuration,
  msToTimestamp,
  type temporal,
} from './proto.ts';
import type { PollerInfo } from './task-queues.ts';
import { encodeToken } from './tokens.ts';
import type { WorkflowRun } from './workflow-run.ts';

const E = enums.EventType;
const TimeoutType = enums.TimeoutType;

export interface ActivityState {
  readonly scheduledEventId: number;
  readonly activityId: string;
  readonly activityType: string;
  readonly taskQueue: string;
  readonly input: IPayloads | null;
  readonly header: IHeader | null;
  readonly priority: temporal.api.common.v1.IPriority | null;
  readonly timeouts: ActivityTimeouts;
  readonly retryPolicy: RetryPolicyMs;
  readonly scheduledTime: number;
  phase: 'scheduled' | 'started' | 'backoff' | 'closed';
  attempt: number;
  dispatchSeq: number;
  currentAttemptScheduledTime: number;
  nextAttemptScheduleTime: number;
  startedTime: number;
  identity: string;
  heartbeatDetails: IPayloads | null;
  lastHeartbeatTime: number;
  lastFailure: IFailure | null;
  /** ActivityTaskCancelRequested event id, 0 while no cancellation was requested. */
  cancelRequestedEventId: number;
  lock: LockHandle | undefined;
  attemptTimers: TimerHandle[];
  heartbeatTimer: TimerHandle | undefined;
  scheduleToCloseTimer: TimerHandle | undefined;
}

export interface ScheduleActivityInput {
  activityId: string;
  activityType: string;
  taskQueue: string;
  input: IPayloads | null;
  header: IHeader | null;
  priority: temporal.api.common.v1.IPriority | null;
  timeouts: ActivityTimeouts;
  retryPolicy: RetryPolicyMs;
}

/**
 * Activity tasks handed straight back to the worker completing the workflow task (eager dispatch), instead of
 * through its activity poll: `identity` is that worker.
 */
export interface EagerActivities {
  identity: string;
  tasks: IPollActivityTaskQueueResponse[];
}

export function scheduleActivity(
  run: WorkflowRun,
  input: ScheduleActivityInput,
  completedEventId: number,
  userMetadata: temporal.api.sdk.v1.IUserMetadata | null,
  eager?: EagerActivities,
): void {
  const { timeouts } = input;
  const event = run.history.append({
    eventType: E.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
    activityTaskScheduledEventAttributes: {
      activityId: input.activityId,
      activityType: { name: input.activityType },
      taskQueue: { name: input.taskQueue, kind: enums.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      header: input.header,
      input: input.input,
      scheduleToCloseTimeout: msToDuration(timeouts.scheduleToCloseMs),
      scheduleToStartTimeout: msToDuration(timeouts.scheduleToStartMs),
      startToCloseTimeout: msToDuration(timeouts.startToCloseMs),
      heartbeatTimeout: msToDuration(timeouts.heartbeatMs),
      workflowTaskCompletedEventId: int64(completedEventId),
      retryPolicy: retryPolicyToProto(input.retryPolicy),
      priority: input.priority,
    },
    userMetadata,
  });
  const now = run.env.clock.now();
  const state: ActivityState = {
    ...input,
    scheduledEventId: event.eventId,
    scheduledTime: now,
    phase: 'scheduled',
    attempt: 1,
    dispatchSeq: 0,
    currentAttemptScheduledTime: now,
    nextAttemptScheduleTime: 0,
    startedTime: 0,
    identity: '',
    heartbeatDetails: null,
    lastHeartbeatTime: 0,
    lastFailure: null,
    cancelRequestedEventId: 0,
    lock: undefined,
    attemptTimers: [],
    heartbeatTimer: undefined,
    scheduleToCloseTimer: undefined,
  };
  run.activities.set(state.scheduledEventId, state);
  if (timeouts.scheduleToCloseMs > 0) {
    state.scheduleToCloseTimer = run.env.clock.after(timeouts.scheduleToCloseMs, () => {
      if (isLive(run, state)) timeOut(run, state, TimeoutType.TIMEOUT_TYPE_SCHEDULE_TO_CLOSE);
    });
  }
  dispatchAttempt(run, state, eager);
}

export function isLive(run: WorkflowRun, state: ActivityState): boolean {
  return run.isOpen && state.phase !== 'closed' && run.activities.get(state.scheduledEventId) === state;
}

export function clearAttemptTimers(state: ActivityState): void {
  for (const timer of state.attemptTimers) timer.cancel();
  state.attemptTimers = [];
  state.heartbeatTimer?.cancel();
  state.heartbeatTimer = undefined;
}

/** Offers the current attempt to the task queue's pollers, or starts it at once for `eager`'s worker. */
export function dispatchAttempt(run: WorkflowRun, state: ActivityState, eager?: EagerActivities): void {
  const { clock, queues } = run.env;
  clearAttemptTimers(state);
  state.phase = 'scheduled';
  state.lock ??= clock.lock();
  state.currentAttemptScheduledTime = clock.now();
  state.nextAttemptScheduleTime = 0;
  const seq = ++state.dispatchSeq;
  if (eager) {
    const task = startAttempt(run, state, seq, { identity: eager.identity, sticky: false });
    if (task) {
      eager.tasks.push(task);
      return;
    }
  }
  queues
    .get<IPollActivityTaskQueueResponse>(run.namespace, 'activity', state.taskQueue)
    .add({ start: (poller) => startAttempt(run, state, seq, poller) });
  if (state.timeouts.scheduleToStartMs > 0) {
    state.attemptTimers.push(
      clock.after(state.timeouts.scheduleToStartMs, () => {
        if (isLive(run, state) && state.phase === 'scheduled' && state.dispatchSeq === seq) {
          timeOut(run, state, TimeoutType.TIMEOUT_TYPE_SCHEDULE_TO_START);
        }
      }),
    );
  }
}

function startAttempt(
  run: WorkflowRun,
  state: ActivityState,
  seq: number,
  poller: PollerInfo,
): IPollActivityTaskQueueResponse | undefined {
  if (!isLive(run, state) || state.phase !== 'scheduled' || state.dispatchSeq !== seq) return undefined;
  const { clock } = run.env;
  clearAttemptTimers(state);
  state.phase = 'started';
  state.startedTime = clock.now();
  state.identity = poller.identity;
  const attempt = state.attempt;
  const stillRunning = () => isLive(run, state) && state.phase === 'started' && state.attempt === attempt;
  state.attemptTimers.push(
    clock.after(state.timeouts.startToCloseMs, () => {
      if (stillRunning()) timeOut(run, state, TimeoutType.TIMEOUT_TYPE_START_TO_CLOSE);
    }),
  );
  armHeartbeatTimer(run, state);
  const { timeouts } = state;
  return {
    taskToken: encodeToken({
      kind: 'activity',
      namespace: run.namespace,
      runId: run.runId,
      scheduledEventId: state.scheduledEventId,
      attempt,
    }),
    workflowNamespace: run.namespace,
    workflowType: { name: run.config.workflowType },
    workflowExecution: run.execution,
    activityType: { name: state.activityType },
    activityId: state.activityId,
    header: state.header,
    input: state.input,
    heartbeatDetails: state.heartbeatDetails,
    scheduledTime: msToTimestamp(state.scheduledTime),
    currentAttemptScheduledTime: msToTimestamp(state.currentAttemptScheduledTime),
    startedTime: msToTimestamp(state.startedTime),
    attempt,
    scheduleToCloseTimeout: msToDuration(timeouts.scheduleToCloseMs),
    startToCloseTimeout: msToDuration(timeouts.startToCloseMs),
    heartbeatTimeout: msToDuration(timeouts.heartbeatMs),
    retryPolicy: retryPolicyToProto(state.retryPolicy),
    priority: state.priority,
  };
}

function armHeartbeatTimer(run: WorkflowRun, state: ActivityState): void {
  state.heartbeatTimer?.cancel();
  if (state.timeouts.heartbeatMs <= 0) return;
  const attempt = state.attempt;
  const timer = run.env.clock.after(state.timeouts.heartbeatMs, () => {
    if (isLive(run, state) && state.phase === 'started' && state.attempt === attempt) {
      timeOut(run, state, TimeoutType.TIMEOUT_TYPE_HEARTBEAT);
    }
  });
  state.heartbeatTimer = timer;
}

/** Records a heartbeat; returns whether cancellation was requested. */
export function recordHeartbeat(
  run: WorkflowRun,
  state: ActivityState,
  details: IPayloads | null | undefined,
): boolean {
  if (details) state.heartbeatDetails = details;
  state.lastHeartbeatTime = run.env.clock.now();
  armHeartbeatTimer(run, state);
  return state.cancelRequestedEventId > 0;
}

export function closeActivity(run: WorkflowRun, state: ActivityState): void {
  clearAttemptTimers(state);
  state.scheduleToCloseTimer?.cancel();
  state.lock?.release();
  state.lock = undefined;
  state.phase = 'closed';
  run.activities.delete(state.scheduledEventId);
}

/** Releases everything an activity holds when its run closes. */
export function abandonActivity(run: WorkflowRun, state: ActivityState): void {
  closeActivity(run, state);
}

/**
 * Handles a RequestCancelActivityTask command. An activity not yet running is canceled on the spot (and
 * the workflow needs a new task to learn it); a running one is told through its next heartbeat.
 */
export function requestActivityCancel(
  run: WorkflowRun,
  scheduledEventId: number,
  completedEventId: number,
): boolean {
  const state = run.activities.get(scheduledEventId);
  if (!state) return false;
  const requested = run.history.append({
    eventType: E.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED,
    activityTaskCancelRequestedEventAttributes: {
      scheduledEventId: int64(scheduledEventId),
      workflowTaskCompletedEventId: int64(completedEventId),
    },
  });
  state.cancelRequestedEventId = requested.eventId;
  if (state.phase === 'started') return false;
  closeActivity(run, state);
  run.history.append({
    eventType: E.EVENT_TYPE_ACTIVITY_TASK_CANCELED,
    activityTaskCanceledEventAttributes: {
      latestCancelRequestedEventId: int64(requested.eventId),
      scheduledEventId: int64(scheduledEventId),
      startedEventId: int64(0),
    },
  });
  return true;
}
