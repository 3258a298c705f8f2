import { type ActivityState, recordHeartbeat } from './activities.ts';
import { cancelActivity, completeActivity, failActivity } from './activity-outcomes.ts';
import type { ServerEnv } from './env.ts';
import { notFound } from './errors.ts';
import type { CallContext, Handler } from './grpc-server.ts';
import { enums, type temporal, type WorkflowRequest } from './proto.ts';
import { respondQueryTaskCompleted } from './queries.ts';
import { decodeToken } from './tokens.ts';
import type { WorkflowRun } from './workflow-run.ts';
import {
  assertStartedTask,
  completeWorkflowTask,
  dispatchWorkflowTask,
  failStartedTask,
} from './workflow-tasks.ts';

function runFromToken(env: ServerEnv, token: { namespace: string; runId: string }): WorkflowRun {
  const run = env.store.runById(token.namespace, token.runId);
  if (!run) throw notFound('Workflow execution not found.');
  return run;
}

function activityFromToken(env: ServerEnv, bytes: Uint8Array): { run: WorkflowRun; state: ActivityState } {
  const token = decodeToken(bytes);
  if (token.kind !== 'activity') throw notFound('Activity task not found.');
  const run = runFromToken(env, token);
  const state = run.activities.get(token.scheduledEventId);
  if (!run.isOpen || !state || state.attempt !== token.attempt || state.phase !== 'started') {
    throw notFound('Activity task not found.');
  }
  return { run, state };
}

function activityById(
  env: ServerEnv,
  request: { namespace: string; workflowId: string; runId: string; activityId: string },
): { run: WorkflowRun; state: ActivityState } {
  const run = env.store.find(request.namespace, request.workflowId, request.runId);
  const state = [...run.activities.values()].find((a) => a.activityId === request.activityId);
  if (!run.isOpen || !state || state.phase !== 'started') throw notFound('Activity task not found.');
  return { run, state };
}

/** Gives a sticky worker's pending task back to the normal queue (worker shut down or sticky reset). */
function dropStickiness(run: WorkflowRun): void {
  if (!run.sticky) return;
  run.sticky = undefined;
  if (run.isOpen && run.wft.phase === 'scheduled') dispatchWorkflowTask(run);
}

export function workerHandlers(env: ServerEnv): Record<string, Handler> {
  const poll = async (
    kind: 'workflow' | 'activity',
    request: {
      namespace: string;
      identity: string;
      workerInstanceKey: string;
      taskQueue?: temporal.api.taskqueue.v1.ITaskQueue | null;
    },
    ctx: CallContext,
  ) => {
    env.namespaces.get(request.namespace);
    if (env.queues.isStopped(request.workerInstanceKey)) return {};
    const taskQueue = request.taskQueue;
    const sticky = taskQueue?.kind === enums.TaskQueueKind.TASK_QUEUE_KIND_STICKY;
    const queue = env.queues.get<object>(request.namespace, kind, taskQueue?.name ?? '');
    const poller = { identity: request.identity, sticky, workerKey: request.workerInstanceKey };
    const task = await queue.poll(poller, ctx, env.pollTimeoutMs, env.clock.now());
    return task ?? {};
  };

  return {
    PollWorkflowTaskQueue: (request: WorkflowRequest<'PollWorkflowTaskQueueRequest'>, ctx: CallContext) =>
      poll('workflow', request, ctx),
    PollActivityTaskQueue: (request: WorkflowRequest<'PollActivityTaskQueueRequest'>, ctx: CallContext) =>
      poll('activity', request, ctx),

    RespondWorkflowTaskCompleted: (request: WorkflowRequest<'RespondWorkflowTaskCompletedRequest'>) => {
      const token = decodeToken(request.taskToken);
      const run = runFromToken(env, token);
      assertStartedTask(run, token);
      return completeWorkflowTask(run, request);
    },
    RespondWorkflowTaskFailed: (request: WorkflowRequest<'RespondWorkflowTaskFailedRequest'>) => {
      const token = decodeToken(request.taskToken);
      const run = runFromToken(env, token);
      assertStartedTask(run, token);
      failStartedTask(run, request.cause, request.failure, request.identity);
      return {};
    },
    RespondQueryTaskCompleted: (request: WorkflowRequest<'RespondQueryTaskCompletedRequest'>) => {
      const token = decodeToken(request.taskToken);
      if (token.kind !== 'query') throw notFound('Query task not found.');
      respondQueryTaskCompleted(token.queryId, request);
      return {};
    },

    RespondActivityTaskCompleted: (request: WorkflowRequest<'RespondActivityTaskCompletedRequest'>) => {
      const { run, state } = activityFromToken(env, request.taskToken);
      completeActivity(run, state, request.result, request.identity);
      return {};
    },
    RespondActivityTaskFailed: (request: WorkflowRequest<'RespondActivityTaskFailedRequest'>) => {
      const { run, state } = activityFromToken(env, request.taskToken);
      failActivity(run, state, request.failure, request.lastHeartbeatDetails, request.identity);
      return {};
    },
    RespondActivityTaskCanceled: (request: WorkflowRequest<'RespondActivityTaskCanceledRequest'>) => {
      const { run, state } = activityFromToken(env, request.taskToken);
      cancelActivity(run, state, request.details, request.identity);
      return {};
    },
    RecordActivityTaskHeartbeat: (request: WorkflowRequest<'RecordActivityTaskHeartbeatRequest'>) => {
      const { run, state } = activityFromToken(env, request.taskToken);
      return { cancelRequested: recordHeartbeat(run, state, request.details) };
    },
    RespondActivityTaskCompletedById: (
      request: WorkflowRequest<'RespondActivityTaskCompletedByIdRequest'>,
    ) => {
      const { run, state } = activityById(env, request);
      completeActivity(run, state, request.result, request.identity);
      return {};
    },
    RespondActivityTaskFailedById: (request: WorkflowRequest<'RespondActivityTaskFailedByIdRequest'>) => {
      const { run, state } = activityById(env, request);
      failActivity(run, state, request.failure, request.lastHeartbeatDetails, request.identity);
      return {};
    },
    RespondActivityTaskCanceledById: (request: WorkflowRequest<'RespondActivityTaskCanceledByIdRequest'>) => {
      const { run, state } = activityById(env, request);
      cancelActivity(run, state, request.details, request.identity);
      return {};
    },
    RecordActivityTaskHeartbeatById: (request: WorkflowRequest<'RecordActivityTaskHeartbeatByIdRequest'>) => {
      const { run, state } = activityById(env, request);
      return { cancelRequested: recordHeartbeat(run, state, request.details) };
    },

    ShutdownWorker: (request: WorkflowRequest<'ShutdownWorkerRequest'>) => {
      env.queues.stopWorker(request.workerInstanceKey);
      if (request.stickyTaskQueue) {
        for (const run of env.store.runs(request.namespace)) {
          if (run.sticky?.name === request.stickyTaskQueue) dropStickiness(run);
        }
      }
      return {};
    },
    ResetStickyTaskQueue: (request: WorkflowRequest<'ResetStickyTaskQueueRequest'>) => {
      const run = env.store.find(
        request.namespace,
        request.execution?.workflowId ?? '',
        request.execution?.runId,
      );
      dropStickiness(run);
      return {};
    },
  };
}
