import { randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import type { LockHandle } from './clock.ts';
import type { ServerEnv } from './env.ts';
import { notFound, queryFailed, RpcError } from './errors.ts';
import type { CallContext } from './grpc-server.ts';
import {
  enums,
  type IPayloads,
  type IPollWorkflowTaskQueueResponse,
  int64,
  msToTimestamp,
  type temporal,
} from './proto.ts';
import type { PollerInfo } from './task-queues.ts';
import { encodeToken } from './tokens.ts';
import type { WorkflowRun } from './workflow-run.ts';

type Outcome = { answer: IPayloads | null } | { error: RpcError };

export interface PendingQuery {
  readonly id: string;
  readonly query: temporal.api.query.v1.IWorkflowQuery;
  settled: boolean;
  dispatchSeq: number;
  lock: LockHandle | undefined;
  settle(outcome: Outcome | undefined): void;
}

const QUERY_TIMEOUT_MS = 30_000;
const pending = new Map<string, PendingQuery>();

type QueryRequest = temporal.api.workflowservice.v1.QueryWorkflowRequest;
type QueryResponse = temporal.api.workflowservice.v1.IQueryWorkflowResponse;

/**
 * Answers a query through a worker. Like the server: a query for a run with a workflow task pending rides
 * on that task (`queries` map), one arriving while a task runs waits for it to finish, and otherwise the
 * query goes out alone as a "legacy" query task.
 */
export async function queryWorkflow(
  env: ServerEnv,
  request: QueryRequest,
  ctx: CallContext,
): Promise<QueryResponse> {
  const execution = request.execution;
  const run = env.store.find(request.namespace, execution?.workflowId ?? '', execution?.runId);
  const Reject = enums.QueryRejectCondition;
  const condition = request.queryRejectCondition;
  const completedCleanly = run.status === enums.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED;
  if (
    (condition === Reject.QUERY_REJECT_CONDITION_NOT_OPEN && !run.isOpen) ||
    (condition === Reject.QUERY_REJECT_CONDITION_NOT_COMPLETED_CLEANLY && !run.isOpen && !completedCleanly)
  ) {
    return { queryRejected: { status: run.status } };
  }
  const outcome = await new Promise<Outcome | undefined>((resolve) => {
    let stopListening = () => {};
    const timer = setTimeout(
      () => query.settle({ error: new RpcError(status.DEADLINE_EXCEEDED, 'query timed out') }),
      QUERY_TIMEOUT_MS,
    );
    const query: PendingQuery = {
      id: randomUUID(),
      query: request.query ?? {},
      settled: false,
      dispatchSeq: 0,
      lock: undefined,
      settle(result) {
        if (query.settled) return;
        query.settled = true;
        clearTimeout(timer);
        stopListening();
        query.lock?.release();
        pending.delete(query.id);
        resolve(result);
      },
    };
    pending.set(query.id, query);
    stopListening = ctx.onCancel(() => query.settle(undefined));
    routeQuery(run, query);
  });
  if (!outcome) throw new RpcError(status.CANCELLED, 'query cancelled');
  if ('error' in outcome) throw outcome.error;
  return { queryResult: outcome.answer };
}

function routeQuery(run: WorkflowRun, query: PendingQuery): void {
  if (run.isOpen && run.wft.phase === 'scheduled') run.wft.queries.push(query);
  else if (run.isOpen && run.wft.phase === 'started') run.bufferedQueries.push(query);
  else dispatchLegacyQuery(run, query);
}

export function dispatchLegacyQuery(run: WorkflowRun, query: PendingQuery): void {
  if (query.settled) return;
  const { env } = run;
  const sticky = run.isOpen ? run.sticky : undefined;
  const seq = ++query.dispatchSeq;
  query.lock ??= env.clock.lock();
  env.queues
    .get<IPollWorkflowTaskQueueResponse>(
      run.namespace,
      'workflow',
      sticky ? sticky.name : run.config.taskQueue,
    )
    .add({ start: (poller) => startLegacyQuery(run, query, seq, poller) });
  if (sticky) {
    // Same fallback as workflow tasks: an unresponsive sticky worker loses the query to the normal queue.
    env.clock.after(sticky.scheduleToStartTimeoutMs || 10_000, () => {
      if (!query.settled && query.dispatchSeq === seq) {
        ++query.dispatchSeq;
        env.queues
          .get<IPollWorkflowTaskQueueResponse>(run.namespace, 'workflow', run.config.taskQueue)
          .add({ start: (poller) => startLegacyQuery(run, query, query.dispatchSeq, poller) });
      }
    });
  }
}

function startLegacyQuery(
  run: WorkflowRun,
  query: PendingQuery,
  seq: number,
  poller: PollerInfo,
): IPollWorkflowTaskQueueResponse | undefined {
  if (query.settled || query.dispatchSeq !== seq) return undefined;
  if (run.isOpen && run.wft.phase !== 'none') {
    // A workflow task appeared meanwhile; the query rides on it instead.
    ++query.dispatchSeq;
    routeQuery(run, query);
    return undefined;
  }
  query.dispatchSeq = -1;
  const now = msToTimestamp(run.env.clock.now());
  return {
    taskToken: encodeToken({ kind: 'query', namespace: run.namespace, runId: run.runId, queryId: query.id }),
    workflowExecution: run.execution,
    workflowType: { name: run.config.workflowType },
    previousStartedEventId: int64(run.lastCompletedStartedEventId),
    startedEventId: int64(0),
    attempt: 1,
    history: {
      events: poller.sticky
        ? run.history.eventsAfter(run.lastCompletedStartedEventId)
        : [...run.history.events],
    },
    workflowExecutionTaskQueue: run.normalTaskQueue(),
    query: query.query,
    scheduledTime: now,
    startedTime: now,
  };
}

type QueryResult = temporal.api.query.v1.IWorkflowQueryResult;

function settleFromResult(query: PendingQuery, result: QueryResult): void {
  if (result.resultType === enums.QueryResultType.QUERY_RESULT_TYPE_ANSWERED) {
    query.settle({ answer: result.answer ?? null });
  } else {
    query.settle({ error: queryFailed(result.errorMessage || 'query failed', result.failure) });
  }
}

/** Query answers that came back on a workflow task completion. */
export function answerQueries(
  run: WorkflowRun,
  results: Record<string, QueryResult> | null | undefined,
): void {
  for (const [id, result] of Object.entries(results ?? {})) {
    const query = pending.get(id);
    if (query) settleFromResult(query, result);
  }
  run.wft.queries = run.wft.queries.filter((query) => !query.settled);
}

export function respondQueryTaskCompleted(
  queryId: string,
  request: temporal.api.workflowservice.v1.RespondQueryTaskCompletedRequest,
): void {
  const query = pending.get(queryId);
  if (!query) throw notFound('Query not found.');
  settleFromResult(query, {
    resultType: request.completedType,
    answer: request.queryResult,
    errorMessage: request.errorMessage,
    failure: request.failure,
  });
}
