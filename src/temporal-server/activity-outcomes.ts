/** How an activity ends: completion, cancellation, failure or timeout (the last two possibly retried). */
import { randomUUID } from 'node:crypto';
import {
  type ActivityState,
  clearAttemptTimers,
  closeActivity,
  dispatchAttempt,
  isLive,
} from './activities.ts';
import { activityRetryDecision } from './activity-retry.ts';
import { enums, type IFailure, type IPayloads, int64 } from './proto.ts';
import type { WorkflowRun } from './workflow-run.ts';
import { emit } from './workflow-tasks.ts';

const E = enums.EventType;
const TimeoutType = enums.TimeoutType;

// ActivityTaskStarted is written only when the activity reaches a final outcome, as the server does.
function writeStarted(run: WorkflowRun, state: ActivityState): number {
  return run.history.append({
    eventType: E.EVENT_TYPE_ACTIVITY_TASK_STARTED,
    activityTaskStartedEventAttributes: {
      scheduledEventId: int64(state.scheduledEventId),
      identity: state.identity,
      requestId: randomUUID(),
      attempt: state.attempt,
      lastFailure: state.lastFailure,
    },
  }).eventId;
}

export function completeActivity(
  run: WorkflowRun,
  state: ActivityState,
  result: IPayloads | null | undefined,
  identity: string,
): void {
  closeActivity(run, state);
  emit(run, {
    needsWorkflowTask: true,
    write: () => {
      const startedEventId = writeStarted(run, state);
      run.history.append({
        eventType: E.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
        activityTaskCompletedEventAttributes: {
          result,
          scheduledEventId: int64(state.scheduledEventId),
          startedEventId: int64(startedEventId),
          identity,
        },
      });
    },
  });
}

export function cancelActivity(
  run: WorkflowRun,
  state: ActivityState,
  details: IPayloads | null | undefined,
  identity: string,
): void {
  closeActivity(run, state);
  emit(run, {
    needsWorkflowTask: true,
    write: () => {
      const startedEventId = writeStarted(run, state);
      run.history.append({
        eventType: E.EVENT_TYPE_ACTIVITY_TASK_CANCELED,
        activityTaskCanceledEventAttributes: {
          details,
          latestCancelRequestedEventId: int64(state.cancelRequestedEventId),
          scheduledEventId: int64(state.scheduledEventId),
          startedEventId: int64(startedEventId),
          identity,
        },
      });
    },
  });
}

export function failActivity(
  run: WorkflowRun,
  state: ActivityState,
  failure: IFailure | null | undefined,
  lastHeartbeatDetails: IPayloads | null | undefined,
  identity: string,
): void {
  if (lastHeartbeatDetails) state.heartbeatDetails = lastHeartbeatDetails;
  settleFailure(run, state, failure ?? { message: 'activity failed' }, identity, false);
}

const TIMEOUT_NAMES: Record<number, string> = {
  [TimeoutType.TIMEOUT_TYPE_START_TO_CLOSE]: 'StartToClose',
  [TimeoutType.TIMEOUT_TYPE_SCHEDULE_TO_START]: 'ScheduleToStart',
  [TimeoutType.TIMEOUT_TYPE_SCHEDULE_TO_CLOSE]: 'ScheduleToClose',
  [TimeoutType.TIMEOUT_TYPE_HEARTBEAT]: 'Heartbeat',
};

export function timeOut(run: WorkflowRun, state: ActivityState, timeoutType: number): void {
  const failure: IFailure = {
    message: `activity ${TIMEOUT_NAMES[timeoutType]} timeout`,
    source: 'Server',
    timeoutFailureInfo: { timeoutType, lastHeartbeatDetails: state.heartbeatDetails },
    cause: timeoutType === TimeoutType.TIMEOUT_TYPE_SCHEDULE_TO_CLOSE ? state.lastFailure : null,
  };
  settleFailure(run, state, failure, state.identity, true);
}

/** Retries the attempt if the policy allows it, otherwise records the final failure or timeout. */
function settleFailure(
  run: WorkflowRun,
  state: ActivityState,
  failure: IFailure,
  identity: string,
  timedOut: boolean,
) {
  const { clock } = run.env;
  const now = clock.now();
  const expiration =
    state.timeouts.scheduleToCloseMs > 0 ? state.scheduledTime + state.timeouts.scheduleToCloseMs : 0;
  const decision = activityRetryDecision(state.retryPolicy, state.attempt, failure, now, expiration);
  if (decision.retry && state.cancelRequestedEventId === 0) {
    clearAttemptTimers(state);
    state.lock?.release();
    state.lock = undefined;
    state.phase = 'backoff';
    state.lastFailure = failure;
    state.attempt++;
    state.nextAttemptScheduleTime = now + decision.delayMs;
    state.attemptTimers.push(
      clock.after(decision.delayMs, () => {
        if (isLive(run, state) && state.phase === 'backoff') dispatchAttempt(run, state);
      }),
    );
    return;
  }
  const retryState = decision.retry ? enums.RetryState.RETRY_STATE_CANCEL_REQUESTED : decision.retryState;
  const wasStarted = state.phase === 'started';
  closeActivity(run, state);
  emit(run, {
    needsWorkflowTask: true,
    write: () => {
      const startedEventId = wasStarted ? writeStarted(run, state) : 0;
      const common = {
        failure,
        scheduledEventId: int64(state.scheduledEventId),
        startedEventId: int64(startedEventId),
        retryState,
      };
      if (timedOut) {
        run.history.append({
          eventType: E.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT,
          activityTaskTimedOutEventAttributes: common,
        });
      } else {
        run.history.append({
          eventType: E.EVENT_TYPE_ACTIVITY_TASK_FAILED,
          activityTaskFailedEventAttributes: { ...common, identity },
        });
      }
    },
  });
}
