import type { ServerEnv } from './env.ts';
import { invalidArgument } from './errors.ts';
import { enums, int64, msToDuration, msToTimestamp, type temporal } from './proto.ts';
import { decodeSearchAttribute, indexedValueTypeName, withTypeMetadata } from './search-attributes.ts';
import { compileVisibilityQuery, VisibilityQueryError, type VisibilityRecord } from './visibility/query.ts';
import type { WorkflowRun } from './workflow-run.ts';

const Status = enums.WorkflowExecutionStatus;

const STATUS_NAMES: Record<number, string> = {
  [Status.WORKFLOW_EXECUTION_STATUS_RUNNING]: 'Running',
  [Status.WORKFLOW_EXECUTION_STATUS_COMPLETED]: 'Completed',
  [Status.WORKFLOW_EXECUTION_STATUS_FAILED]: 'Failed',
  [Status.WORKFLOW_EXECUTION_STATUS_CANCELED]: 'Canceled',
  [Status.WORKFLOW_EXECUTION_STATUS_TERMINATED]: 'Terminated',
  [Status.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW]: 'ContinuedAsNew',
  [Status.WORKFLOW_EXECUTION_STATUS_TIMED_OUT]: 'TimedOut',
};

function visibilityRecord(run: WorkflowRun, types: ReadonlyMap<string, number>): VisibilityRecord {
  const searchAttributes: Record<string, unknown> = {};
  for (const [name, payload] of Object.entries(run.searchAttributes)) {
    const value = decodeSearchAttribute(payload, types.get(name));
    if (value !== undefined) searchAttributes[name] = value;
  }
  return {
    workflowId: run.workflowId,
    runId: run.runId,
    workflowType: run.config.workflowType,
    status: STATUS_NAMES[run.status] ?? 'Running',
    startTime: new Date(run.startTime),
    closeTime: run.isOpen ? undefined : new Date(run.closeTime),
    executionTime: new Date(run.executionTime),
    taskQueue: run.config.taskQueue,
    searchAttributes,
  };
}

export function executionInfo(
  run: WorkflowRun,
  types: ReadonlyMap<string, number>,
): temporal.api.workflow.v1.IWorkflowExecutionInfo {
  const historyLength = run.history.events.length;
  return {
    execution: run.execution,
    type: { name: run.config.workflowType },
    startTime: msToTimestamp(run.startTime),
    closeTime: run.isOpen ? null : msToTimestamp(run.closeTime),
    status: run.status,
    historyLength: int64(historyLength),
    executionTime: msToTimestamp(run.executionTime),
    memo: { fields: run.memo },
    searchAttributes: { indexedFields: withTypeMetadata(run.searchAttributes, types) },
    taskQueue: run.config.taskQueue,
    stateTransitionCount: int64(historyLength),
    executionDuration: run.isOpen ? null : msToDuration(Math.max(0, run.closeTime - run.executionTime)),
    rootExecution: run.execution,
    firstRunId: run.config.firstExecutionRunId || run.runId,
    priority: run.config.priority,
  };
}

function compile(env: ServerEnv, namespace: string, query: string) {
  const types = env.namespaces.searchAttributeTypes(namespace);
  const typeNames = new Map([...types].map(([name, type]) => [name, indexedValueTypeName(type)]));
  try {
    return { types, compiled: compileVisibilityQuery(query, typeNames) };
  } catch (err) {
    if (err instanceof VisibilityQueryError) throw invalidArgument(`invalid query: ${err.message}`);
    throw err;
  }
}

type ListRequest = temporal.api.workflowservice.v1.ListWorkflowExecutionsRequest;
type ListResponse = temporal.api.workflowservice.v1.IListWorkflowExecutionsResponse;

export function listWorkflowExecutions(env: ServerEnv, request: ListRequest): ListResponse {
  const { types, compiled } = compile(env, request.namespace, request.query);
  const matching = env.store
    .runs(request.namespace)
    .map((run) => ({ run, record: visibilityRecord(run, types) }))
    .filter(({ record }) => compiled.matches(record))
    .sort((a, b) => compiled.compare(a.record, b.record));
  const offset = request.nextPageToken?.length
    ? Number(Buffer.from(request.nextPageToken).toString('utf8')) || 0
    : 0;
  const pageSize = request.pageSize > 0 ? request.pageSize : 1000;
  const page = matching.slice(offset, offset + pageSize);
  const next = offset + page.length;
  return {
    executions: page.map(({ run }) => executionInfo(run, types)),
    nextPageToken: next < matching.length ? Buffer.from(String(next), 'utf8') : null,
  };
}

export function countWorkflowExecutions(
  env: ServerEnv,
  request: temporal.api.workflowservice.v1.CountWorkflowExecutionsRequest,
): temporal.api.workflowservice.v1.ICountWorkflowExecutionsResponse {
  const { types, compiled } = compile(env, request.namespace, request.query);
  const count = env.store
    .runs(request.namespace)
    .filter((run) => compiled.matches(visibilityRecord(run, types))).length;
  return { count: int64(count), groups: [] };
}

export function describeWorkflowExecution(
  env: ServerEnv,
  request: temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest,
): temporal.api.workflowservice.v1.IDescribeWorkflowExecutionResponse {
  const run = env.store.find(
    request.namespace,
    request.execution?.workflowId ?? '',
    request.execution?.runId,
  );
  const types = env.namespaces.searchAttributeTypes(request.namespace);
  const { config, wft } = run;
  const ActivityState = enums.PendingActivityState;
  return {
    executionConfig: {
      taskQueue: run.normalTaskQueue(),
      workflowExecutionTimeout: msToDuration(config.executionTimeoutMs),
      workflowRunTimeout: msToDuration(config.runTimeoutMs),
      defaultWorkflowTaskTimeout: msToDuration(config.taskTimeoutMs),
      userMetadata: config.userMetadata,
    },
    workflowExecutionInfo: executionInfo(run, types),
    pendingActivities: [...run.activities.values()].map((a) => ({
      activityId: a.activityId,
      activityType: { name: a.activityType },
      state:
        a.cancelRequestedEventId > 0
          ? ActivityState.PENDING_ACTIVITY_STATE_CANCEL_REQUESTED
          : a.phase === 'started'
            ? ActivityState.PENDING_ACTIVITY_STATE_STARTED
            : ActivityState.PENDING_ACTIVITY_STATE_SCHEDULED,
      heartbeatDetails: a.heartbeatDetails,
      lastHeartbeatTime: a.lastHeartbeatTime ? msToTimestamp(a.lastHeartbeatTime) : null,
      lastStartedTime: a.startedTime ? msToTimestamp(a.startedTime) : null,
      attempt: a.attempt,
      maximumAttempts: a.retryPolicy.maximumAttempts,
      scheduledTime: msToTimestamp(a.currentAttemptScheduledTime),
      expirationTime: a.timeouts.scheduleToCloseMs
        ? msToTimestamp(a.scheduledTime + a.timeouts.scheduleToCloseMs)
        : null,
      lastFailure: a.lastFailure,
      lastWorkerIdentity: a.identity,
      nextAttemptScheduleTime: a.nextAttemptScheduleTime ? msToTimestamp(a.nextAttemptScheduleTime) : null,
    })),
    pendingWorkflowTask:
      wft.phase === 'none'
        ? null
        : {
            state:
              wft.phase === 'started'
                ? enums.PendingWorkflowTaskState.PENDING_WORKFLOW_TASK_STATE_STARTED
                : enums.PendingWorkflowTaskState.PENDING_WORKFLOW_TASK_STATE_SCHEDULED,
            scheduledTime: msToTimestamp(wft.scheduledTime),
            originalScheduledTime: msToTimestamp(wft.scheduledTime),
            startedTime: wft.phase === 'started' ? msToTimestamp(wft.startedTime) : null,
            attempt: wft.attempt,
          },
  };
}
