import { randomUUID } from 'node:crypto';
import type { ServerEnv } from './env.ts';
import { invalidArgument, workflowAlreadyStarted } from './errors.ts';
import { createRun, type InitialSignal, signalRun, terminateRun } from './executions.ts';
import { durationToMs, enums, type temporal } from './proto.ts';
import { validateSearchAttributes } from './search-attributes.ts';
import type { RunConfig, WorkflowRun } from './workflow-run.ts';

type StartRequest = temporal.api.workflowservice.v1.StartWorkflowExecutionRequest;
type SignalWithStartRequest = temporal.api.workflowservice.v1.SignalWithStartWorkflowExecutionRequest;
type CommonStartFields = StartRequest | SignalWithStartRequest;

const Reuse = enums.WorkflowIdReusePolicy;
const Conflict = enums.WorkflowIdConflictPolicy;
const Status = enums.WorkflowExecutionStatus;

const DEFAULT_TASK_TIMEOUT_MS = 10_000;
const MAX_TASK_TIMEOUT_MS = 120_000;

function buildConfig(env: ServerEnv, request: CommonStartFields): RunConfig {
  if (!request.workflowId) throw invalidArgument('WorkflowId is not set on request.');
  if (!request.workflowType?.name) throw invalidArgument('WorkflowType is not set on request.');
  if (!request.taskQueue?.name) throw invalidArgument('TaskQueue is not set on request.');
  const types = env.namespaces.searchAttributeTypes(request.namespace);
  validateSearchAttributes(request.searchAttributes?.indexedFields, types);
  const executionTimeoutMs = durationToMs(request.workflowExecutionTimeout);
  let runTimeoutMs = durationToMs(request.workflowRunTimeout);
  if (executionTimeoutMs > 0)
    runTimeoutMs = runTimeoutMs > 0 ? Math.min(runTimeoutMs, executionTimeoutMs) : executionTimeoutMs;
  const taskTimeoutMs = Math.min(
    durationToMs(request.workflowTaskTimeout) || DEFAULT_TASK_TIMEOUT_MS,
    MAX_TASK_TIMEOUT_MS,
  );
  const startDelayMs = durationToMs(request.workflowStartDelay);
  const now = env.clock.now();
  return {
    namespace: request.namespace,
    workflowId: request.workflowId,
    workflowType: request.workflowType.name,
    taskQueue: request.taskQueue.name,
    input: request.input ?? null,
    header: request.header ?? null,
    executionTimeoutMs,
    runTimeoutMs,
    taskTimeoutMs,
    retryPolicy: request.retryPolicy ?? null,
    identity: request.identity,
    requestId: request.requestId || randomUUID(),
    userMetadata: request.userMetadata ?? null,
    priority: request.priority ?? null,
    links: request.links ?? [],
    firstExecutionRunId: '',
    continuedExecutionRunId: '',
    initiator: 0,
    continuedFailure: null,
    lastCompletionResult: null,
    executionExpirationTime: executionTimeoutMs > 0 ? now + startDelayMs + executionTimeoutMs : 0,
    firstWorkflowTaskBackoffMs: startDelayMs,
    attempt: 1,
  };
}

function newRun(env: ServerEnv, request: CommonStartFields, signal?: InitialSignal): WorkflowRun {
  return createRun(
    env,
    buildConfig(env, request),
    { ...(request.memo?.fields ?? {}) },
    { ...(request.searchAttributes?.indexedFields ?? {}) },
    signal ? { signal } : {},
  );
}

/** Whether the id reuse policy lets a new run start after `previous` closed. */
function reuseAllowed(previous: WorkflowRun, policy: number): boolean {
  if (policy === Reuse.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE) return false;
  if (policy === Reuse.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY) {
    return previous.status !== Status.WORKFLOW_EXECUTION_STATUS_COMPLETED;
  }
  return true;
}

type StartResponse = temporal.api.workflowservice.v1.IStartWorkflowExecutionResponse;

export function startWorkflowExecution(env: ServerEnv, request: StartRequest): StartResponse {
  env.namespaces.get(request.namespace);
  const existing = env.store.current(request.namespace, request.workflowId);
  if (existing) {
    if (request.requestId && existing.requestIds.has(request.requestId)) {
      return { runId: existing.runId, started: true, status: existing.status };
    }
    const alreadyStarted = () =>
      workflowAlreadyStarted(request.workflowId, existing.runId, existing.config.requestId);
    if (existing.isOpen) {
      const conflict = request.workflowIdConflictPolicy;
      if (conflict === Conflict.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING) {
        return { runId: existing.runId, started: false, status: existing.status };
      }
      const terminate =
        conflict === Conflict.WORKFLOW_ID_CONFLICT_POLICY_TERMINATE_EXISTING ||
        request.workflowIdReusePolicy === Reuse.WORKFLOW_ID_REUSE_POLICY_TERMINATE_IF_RUNNING;
      if (!terminate) throw alreadyStarted();
      buildConfig(env, request);
      terminateRun(existing, 'terminated by a new start request (conflict policy)', null, request.identity);
    } else if (!reuseAllowed(existing, request.workflowIdReusePolicy)) {
      throw alreadyStarted();
    }
  }
  const run = newRun(env, request);
  return { runId: run.runId, started: true, status: run.status };
}

type SignalWithStartResponse = temporal.api.workflowservice.v1.ISignalWithStartWorkflowExecutionResponse;

export function signalWithStartWorkflowExecution(
  env: ServerEnv,
  request: SignalWithStartRequest,
): SignalWithStartResponse {
  env.namespaces.get(request.namespace);
  if (!request.signalName) throw invalidArgument('SignalName is not set on request.');
  const signal: InitialSignal = {
    signalName: request.signalName,
    input: request.signalInput ?? null,
    header: request.header ?? null,
    identity: request.identity,
    requestId: request.requestId || randomUUID(),
  };
  const existing = env.store.current(request.namespace, request.workflowId);
  if (existing?.isOpen) {
    const conflict = request.workflowIdConflictPolicy;
    if (conflict === Conflict.WORKFLOW_ID_CONFLICT_POLICY_FAIL) {
      throw workflowAlreadyStarted(request.workflowId, existing.runId, existing.config.requestId);
    }
    if (conflict !== Conflict.WORKFLOW_ID_CONFLICT_POLICY_TERMINATE_EXISTING) {
      signalRun(existing, signal);
      return { runId: existing.runId, started: false };
    }
    buildConfig(env, request);
    terminateRun(
      existing,
      'terminated by a new signal-with-start request (conflict policy)',
      null,
      request.identity,
    );
  } else if (existing && !reuseAllowed(existing, request.workflowIdReusePolicy)) {
    throw workflowAlreadyStarted(request.workflowId, existing.runId, existing.config.requestId);
  }
  const run = newRun(env, request, signal);
  return { runId: run.runId, started: true };
}
