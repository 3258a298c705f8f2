import { randomUUID } from 'node:crypto';
import type { ServerEnv } from './env.ts';
import { invalidArgument, unimplemented } from './errors.ts';
import { requestCancelRun, signalRun, terminateRun } from './executions.ts';
import type { CallContext, Handler } from './grpc-server.ts';
import { getWorkflowExecutionHistory } from './history-service.ts';
import type { temporal, WorkflowRequest } from './proto.ts';
import { queryWorkflow } from './queries.ts';
import { signalWithStartWorkflowExecution, startWorkflowExecution } from './start-workflow.ts';
import { countWorkflowExecutions, describeWorkflowExecution, listWorkflowExecutions } from './visibility.ts';

/** Handlers for what clients do to workflow executions. */
export function executionHandlers(env: ServerEnv): Record<string, Handler> {
  const findRun = (
    namespace: string,
    execution: temporal.api.common.v1.IWorkflowExecution | null | undefined,
  ) => {
    env.namespaces.get(namespace);
    return env.store.find(namespace, execution?.workflowId ?? '', execution?.runId);
  };
  return {
    StartWorkflowExecution: (request: WorkflowRequest<'StartWorkflowExecutionRequest'>) =>
      startWorkflowExecution(env, request),
    SignalWithStartWorkflowExecution: (request: WorkflowRequest<'SignalWithStartWorkflowExecutionRequest'>) =>
      signalWithStartWorkflowExecution(env, request),
    SignalWorkflowExecution: (request: WorkflowRequest<'SignalWorkflowExecutionRequest'>) => {
      if (!request.signalName) throw invalidArgument('SignalName is not set on request.');
      signalRun(findRun(request.namespace, request.workflowExecution), {
        signalName: request.signalName,
        input: request.input ?? null,
        header: request.header ?? null,
        identity: request.identity,
        requestId: request.requestId || randomUUID(),
      });
      return {};
    },
    RequestCancelWorkflowExecution: (request: WorkflowRequest<'RequestCancelWorkflowExecutionRequest'>) => {
      requestCancelRun(
        findRun(request.namespace, request.workflowExecution),
        request.identity,
        request.reason,
      );
      return {};
    },
    TerminateWorkflowExecution: (request: WorkflowRequest<'TerminateWorkflowExecutionRequest'>) => {
      terminateRun(
        findRun(request.namespace, request.workflowExecution),
        request.reason,
        request.details,
        request.identity,
      );
      return {};
    },
    QueryWorkflow: (request: WorkflowRequest<'QueryWorkflowRequest'>, ctx: CallContext) => {
      env.namespaces.get(request.namespace);
      return queryWorkflow(env, request, ctx);
    },
    GetWorkflowExecutionHistory: (
      request: WorkflowRequest<'GetWorkflowExecutionHistoryRequest'>,
      ctx: CallContext,
    ) => getWorkflowExecutionHistory(env, request, ctx),
    DescribeWorkflowExecution: (request: WorkflowRequest<'DescribeWorkflowExecutionRequest'>) => {
      env.namespaces.get(request.namespace);
      return describeWorkflowExecution(env, request);
    },
    ListWorkflowExecutions: (request: WorkflowRequest<'ListWorkflowExecutionsRequest'>) => {
      env.namespaces.get(request.namespace);
      return listWorkflowExecutions(env, request);
    },
    CountWorkflowExecutions: (request: WorkflowRequest<'CountWorkflowExecutionsRequest'>) => {
      env.namespaces.get(request.namespace);
      return countWorkflowExecutions(env, request);
    },
    UpdateWorkflowExecution: () => {
      throw unimplemented('Workflow updates are not supported by this server.');
    },
    ExecuteMultiOperation: () => {
      throw unimplemented('Multi-operations (update-with-start) are not supported by this server.');
    },
  };
}
