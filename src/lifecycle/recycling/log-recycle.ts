import type { EntityManager } from '@mikro-orm/postgresql';
import {
  requireWorkflows,
  resultWithin,
  startOrJoin,
  type WorkflowGateway,
} from '../../adapters/temporal/start.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { RECYCLE_WORKFLOW, type RecycleResult, type RecycleWorkflow } from '../../processes/recycle.ts';
import { workflowIds } from '../../processes/workflow-ids.ts';
import {
  alreadyRecycled,
  type LogRecycleBody,
  prepareRecycle,
  recycleFailureToDomainError,
} from './recycle-request.ts';

export interface LogRecycleDeps {
  /** Bound to the caller's company and environment. */
  em: EntityManager;
  workflows: WorkflowGateway | undefined;
  custodyMasterSecret: string | undefined;
  /** How long the request waits for the recycle before answering with its status (MINT_WAIT_MS). */
  waitMs: number;
}

/** The recycle's result if it finished within the wait, else its workflow (still running) to follow. */
export type RecycleOutcome =
  | { done: true; result: RecycleResult }
  | { done: false; tokenId: string; workflowId: string };

/**
 * POST /v1/iaas/log-recycle: checks the passport (ours, not recycled yet), then starts workflow
 * recycle:{env}:{tokenId} or joins the running one, and waits up to `waitMs` for it. A recycle that completed
 * before is already_recycled; a failed one is its domain error.
 */
export async function logRecycle(
  deps: LogRecycleDeps,
  input: { scope: TenantScope; request: LogRecycleBody },
): Promise<RecycleOutcome> {
  const { scope } = input;
  const recycle = await prepareRecycle(deps.em, scope, input.request, deps.custodyMasterSecret);
  const workflowId = workflowIds.recycle(scope.environment, recycle.tokenId);
  const { handle, alreadyCompleted } = await startOrJoin<RecycleWorkflow>(
    requireWorkflows(deps.workflows),
    RECYCLE_WORKFLOW,
    {
      workflowId,
      environment: scope.environment,
      args: [recycle],
      summary: `Recycle passport ${recycle.tokenId}, deposit to ${recycle.rewardReceiver}`,
      searchAttributes: {
        environment: scope.environment,
        company: scope.companyId,
        tokenId: recycle.tokenId,
      },
    },
  );
  if (alreadyCompleted) throw alreadyRecycled(recycle.tokenId);
  try {
    const outcome = await resultWithin(handle, deps.waitMs);
    if (outcome.done) return { done: true, result: outcome.value };
  } catch (error) {
    throw recycleFailureToDomainError(error, recycle.tokenId) ?? error;
  }
  return { done: false, tokenId: recycle.tokenId, workflowId };
}
