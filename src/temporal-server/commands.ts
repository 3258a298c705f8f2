import { type EagerActivities, requestActivityCancel, scheduleActivity } from './activities.ts';
import {
  InvalidActivityAttributes,
  normalizeActivityTimeouts,
  retryPolicyWithDefaults,
} from './activity-retry.ts';
import { closeRun, continueAsNew } from './executions.ts';
import { durationToMs, enums, type ICommand, int64, msToDuration, type temporal, toNumber } from './proto.ts';
import { mergeMemo, mergeSearchAttributes, validateSearchAttributes } from './search-attributes.ts';
import type { WorkflowRun } from './workflow-run.ts';
import { emit } from './workflow-tasks.ts';

const C = enums.CommandType;
const E = enums.EventType;
const Cause = enums.WorkflowTaskFailedCause;
const Status = enums.WorkflowExecutionStatus;

const CLOSE_COMMANDS = new Set<number>([
  C.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION,
  C.COMMAND_TYPE_FAIL_WORKFLOW_EXECUTION,
  C.COMMAND_TYPE_CANCEL_WORKFLOW_EXECUTION,
  C.COMMAND_TYPE_CONTINUE_AS_NEW_WORKFLOW_EXECUTION,
]);

export function isCloseCommand(command: ICommand): boolean {
  return CLOSE_COMMANDS.has(command.commandType ?? 0);
}

export interface InvalidCommand {
  cause: number;
  message: string;
}

type ScheduleActivityAttributes = temporal.api.command.v1.IScheduleActivityTaskCommandAttributes;

function activityTimeouts(run: WorkflowRun, attrs: ScheduleActivityAttributes) {
  return normalizeActivityTimeouts(
    {
      scheduleToCloseMs: durationToMs(attrs.scheduleToCloseTimeout),
      scheduleToStartMs: durationToMs(attrs.scheduleToStartTimeout),
      startToCloseMs: durationToMs(attrs.startToCloseTimeout),
      heartbeatMs: durationToMs(attrs.heartbeatTimeout),
    },
    run.config.runTimeoutMs,
  );
}

const UNSUPPORTED: Record<number, [number, string]> = {
  [C.COMMAND_TYPE_START_CHILD_WORKFLOW_EXECUTION]: [
    Cause.WORKFLOW_TASK_FAILED_CAUSE_BAD_START_CHILD_EXECUTION_ATTRIBUTES,
    'child workflows',
  ],
  [C.COMMAND_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION]: [
    Cause.WORKFLOW_TASK_FAILED_CAUSE_BAD_SIGNAL_WORKFLOW_EXECUTION_ATTRIBUTES,
    'signalling other workflows',
  ],
  [C.COMMAND_TYPE_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION]: [
    Cause.WORKFLOW_TASK_FAILED_CAUSE_BAD_REQUEST_CANCEL_EXTERNAL_WORKFLOW_EXECUTION_ATTRIBUTES,
    'cancelling other workflows',
  ],
  [C.COMMAND_TYPE_PROTOCOL_MESSAGE]: [
    Cause.WORKFLOW_TASK_FAILED_CAUSE_BAD_UPDATE_WORKFLOW_EXECUTION_MESSAGE,
    'workflow updates',
  ],
  [C.COMMAND_TYPE_SCHEDULE_NEXUS_OPERATION]: [
    Cause.WORKFLOW_TASK_FAILED_CAUSE_BAD_SCHEDULE_NEXUS_OPERATION_ATTRIBUTES,
    'Nexus operations',
  ],
  [C.COMMAND_TYPE_REQUEST_CANCEL_NEXUS_OPERATION]: [
    Cause.WORKFLOW_TASK_FAILED_CAUSE_BAD_REQUEST_CANCEL_NEXUS_OPERATION_ATTRIBUTES,
    'Nexus operations',
  ],
};

/** Checks every command before any is applied, so a bad completion changes nothing but the task's fate. */
export function firstInvalidCommand(run: WorkflowRun, commands: ICommand[]): InvalidCommand | undefined {
  const activityIds = new Set([...run.activities.values()].map((a) => a.activityId));
  const timerIds = new Set(run.timers.keys());
  const types = run.env.namespaces.searchAttributeTypes(run.namespace);
  for (const command of commands) {
    const type = command.commandType ?? 0;
    const unsupported = UNSUPPORTED[type];
    if (unsupported) {
      return { cause: unsupported[0], message: `${unsupported[1]} are not supported by this server` };
    }
    try {
      if (type === C.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK) {
        const attrs = command.scheduleActivityTaskCommandAttributes;
        const bad = Cause.WORKFLOW_TASK_FAILED_CAUSE_BAD_SCHEDULE_ACTIVITY_ATTRIBUTES;
        if (!attrs?.activityId) return { cause: bad, message: 'ActivityId is not set on command.' };
        if (!attrs.activityType?.name) return { cause: bad, message: 'ActivityType is not set on command.' };
        if (activityIds.has(attrs.activityId)) {
          return {
            cause: Cause.WORKFLOW_TASK_FAILED_CAUSE_SCHEDULE_ACTIVITY_DUPLICATE_ID,
            message: `Activity ID ${attrs.activityId} is already in use.`,
          };
        }
        activityIds.add(attrs.activityId);
        activityTimeouts(run, attrs);
        retryPolicyWithDefaults(attrs.retryPolicy);
      } else if (type === C.COMMAND_TYPE_START_TIMER) {
        const attrs = command.startTimerCommandAttributes;
        const bad = Cause.WORKFLOW_TASK_FAILED_CAUSE_BAD_START_TIMER_ATTRIBUTES;
        if (!attrs?.timerId) return { cause: bad, message: 'TimerId is not set on command.' };
        if (durationToMs(attrs.startToFireTimeout) <= 0)
          return { cause: bad, message: 'A valid StartToFireTimeout is not set on command.' };
        if (timerIds.has(attrs.timerId)) {
          return {
            cause: Cause.WORKFLOW_TASK_FAILED_CAUSE_START_TIMER_DUPLICATE_ID,
            message: `Timer ID ${attrs.timerId} is already in use.`,
          };
        }
        timerIds.add(attrs.timerId);
      } else if (type === C.COMMAND_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES) {
        validateSearchAttributes(
          command.upsertWorkflowSearchAttributesCommandAttributes?.searchAttributes?.indexedFields,
          types,
        );
      } else if (type === C.COMMAND_TYPE_CONTINUE_AS_NEW_WORKFLOW_EXECUTION) {
        validateSearchAttributes(
          command.continueAsNewWorkflowExecutionCommandAttributes?.searchAttributes?.indexedFields,
          types,
        );
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const cause =
        err instanceof InvalidActivityAttributes
          ? Cause.WORKFLOW_TASK_FAILED_CAUSE_BAD_SCHEDULE_ACTIVITY_ATTRIBUTES
          : Cause.WORKFLOW_TASK_FAILED_CAUSE_BAD_SEARCH_ATTRIBUTES;
      return { cause, message };
    }
  }
  return undefined;
}

/** Applies validated commands; returns whether the workflow needs another task right away. */
/**
 * Applies the commands of a completed workflow task; returns whether the run needs another workflow task.
 * Activities the worker asked to run eagerly (on the workflow's own task queue) go into `eager.tasks`.
 */
export function applyCommands(
  run: WorkflowRun,
  commands: ICommand[],
  completedEventId: number,
  eager: EagerActivities,
): boolean {
  let needsTask = false;
  for (const command of commands) {
    if (!run.isOpen) break;
    needsTask = applyCommand(run, command, completedEventId, eager) || needsTask;
  }
  return needsTask;
}

function applyCommand(
  run: WorkflowRun,
  command: ICommand,
  completedEventId: number,
  eager: EagerActivities,
): boolean {
  const { identity } = eager;
  const { history } = run;
  const userMetadata = command.userMetadata ?? null;
  switch (command.commandType) {
    case C.COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK: {
      const attrs = command.scheduleActivityTaskCommandAttributes!;
      const taskQueue = attrs.taskQueue?.name || run.config.taskQueue;
      scheduleActivity(
        run,
        {
          activityId: attrs.activityId!,
          activityType: attrs.activityType!.name!,
          taskQueue,
          input: attrs.input ?? null,
          header: attrs.header ?? null,
          priority: attrs.priority ?? null,
          timeouts: activityTimeouts(run, attrs),
          retryPolicy: retryPolicyWithDefaults(attrs.retryPolicy),
        },
        completedEventId,
        userMetadata,
        // As the real server: only for the workflow's own task queue, whose worker is the one asking.
        attrs.requestEagerExecution && taskQueue === run.config.taskQueue ? eager : undefined,
      );
      return false;
    }
    case C.COMMAND_TYPE_REQUEST_CANCEL_ACTIVITY_TASK: {
      const scheduledEventId = toNumber(command.requestCancelActivityTaskCommandAttributes?.scheduledEventId);
      return requestActivityCancel(run, scheduledEventId, completedEventId);
    }
    case C.COMMAND_TYPE_START_TIMER: {
      const attrs = command.startTimerCommandAttributes!;
      startTimer(run, attrs.timerId!, durationToMs(attrs.startToFireTimeout), completedEventId, userMetadata);
      return false;
    }
    case C.COMMAND_TYPE_CANCEL_TIMER:
      return cancelTimer(
        run,
        command.cancelTimerCommandAttributes?.timerId ?? '',
        completedEventId,
        identity,
      );
    case C.COMMAND_TYPE_RECORD_MARKER: {
      const attrs = command.recordMarkerCommandAttributes;
      history.append({
        eventType: E.EVENT_TYPE_MARKER_RECORDED,
        markerRecordedEventAttributes: {
          markerName: attrs?.markerName,
          details: attrs?.details,
          header: attrs?.header,
          failure: attrs?.failure,
          workflowTaskCompletedEventId: int64(completedEventId),
        },
        userMetadata,
      });
      return false;
    }
    case C.COMMAND_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES: {
      const searchAttributes = command.upsertWorkflowSearchAttributesCommandAttributes?.searchAttributes;
      history.append({
        eventType: E.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES,
        upsertWorkflowSearchAttributesEventAttributes: {
          searchAttributes,
          workflowTaskCompletedEventId: int64(completedEventId),
        },
      });
      run.searchAttributes = mergeSearchAttributes(run.searchAttributes, searchAttributes?.indexedFields);
      return false;
    }
    case C.COMMAND_TYPE_MODIFY_WORKFLOW_PROPERTIES: {
      const upsertedMemo = command.modifyWorkflowPropertiesCommandAttributes?.upsertedMemo;
      history.append({
        eventType: E.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED,
        workflowPropertiesModifiedEventAttributes: {
          upsertedMemo,
          workflowTaskCompletedEventId: int64(completedEventId),
        },
      });
      run.memo = mergeMemo(run.memo, upsertedMemo?.fields);
      return false;
    }
    case C.COMMAND_TYPE_COMPLETE_WORKFLOW_EXECUTION:
      closeRun(run, Status.WORKFLOW_EXECUTION_STATUS_COMPLETED, () =>
        history.append({
          eventType: E.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED,
          workflowExecutionCompletedEventAttributes: {
            result: command.completeWorkflowExecutionCommandAttributes?.result,
            workflowTaskCompletedEventId: int64(completedEventId),
          },
        }),
      );
      return false;
    case C.COMMAND_TYPE_FAIL_WORKFLOW_EXECUTION:
      closeRun(run, Status.WORKFLOW_EXECUTION_STATUS_FAILED, () =>
        history.append({
          eventType: E.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
          workflowExecutionFailedEventAttributes: {
            failure: command.failWorkflowExecutionCommandAttributes?.failure,
            retryState: enums.RetryState.RETRY_STATE_RETRY_POLICY_NOT_SET,
            workflowTaskCompletedEventId: int64(completedEventId),
          },
        }),
      );
      return false;
    case C.COMMAND_TYPE_CANCEL_WORKFLOW_EXECUTION:
      closeRun(run, Status.WORKFLOW_EXECUTION_STATUS_CANCELED, () =>
        history.append({
          eventType: E.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED,
          workflowExecutionCanceledEventAttributes: {
            details: command.cancelWorkflowExecutionCommandAttributes?.details,
            workflowTaskCompletedEventId: int64(completedEventId),
          },
        }),
      );
      return false;
    case C.COMMAND_TYPE_CONTINUE_AS_NEW_WORKFLOW_EXECUTION:
      continueAsNew(run, command.continueAsNewWorkflowExecutionCommandAttributes ?? {}, completedEventId);
      return false;
    default:
      return false;
  }
}

function startTimer(
  run: WorkflowRun,
  timerId: string,
  durationMs: number,
  completedEventId: number,
  userMetadata: temporal.api.sdk.v1.IUserMetadata | null,
): void {
  const started = run.history.append({
    eventType: E.EVENT_TYPE_TIMER_STARTED,
    timerStartedEventAttributes: {
      timerId,
      startToFireTimeout: msToDuration(durationMs),
      workflowTaskCompletedEventId: int64(completedEventId),
    },
    userMetadata,
  });
  const handle = run.env.clock.after(durationMs, () => {
    if (run.timers.get(timerId)?.startedEventId !== started.eventId) return;
    run.timers.delete(timerId);
    emit(run, {
      needsWorkflowTask: true,
      timerId,
      write: () =>
        run.history.append({
          eventType: E.EVENT_TYPE_TIMER_FIRED,
          timerFiredEventAttributes: { timerId, startedEventId: int64(started.eventId) },
        }),
    });
  });
  run.timers.set(timerId, { timerId, startedEventId: started.eventId, handle });
}

/**
 * Cancels a timer. If it already fired while the task ran, the buffered TimerFired is dropped instead, as
 * the server does, so the workflow never sees both.
 */
function cancelTimer(run: WorkflowRun, timerId: string, completedEventId: number, identity: string): boolean {
  let startedEventId = run.timers.get(timerId)?.startedEventId;
  if (startedEventId !== undefined) {
    run.timers.get(timerId)?.handle.cancel();
    run.timers.delete(timerId);
  } else {
    const fired = run.buffered.findIndex((event) => event.timerId === timerId);
    if (fired < 0) return false;
    run.buffered.splice(fired, 1);
    startedEventId = findTimerStartedEventId(run, timerId);
  }
  run.history.append({
    eventType: E.EVENT_TYPE_TIMER_CANCELED,
    timerCanceledEventAttributes: {
      timerId,
      startedEventId: int64(startedEventId),
      workflowTaskCompletedEventId: int64(completedEventId),
      identity,
    },
  });
  return false;
}

function findTimerStartedEventId(run: WorkflowRun, timerId: string): number {
  for (let i = run.history.events.length - 1; i >= 0; i--) {
    const event = run.history.events[i]!;
    if (event.timerStartedEventAttributes?.timerId === timerId) return toNumber(event.eventId);
  }
  return 0;
}
