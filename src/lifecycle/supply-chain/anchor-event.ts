import type { EntityManager } from '@mikro-orm/postgresql';
import { requireWorkflows, startOrJoin, type WorkflowGateway } from '../../adapters/temporal/start.ts';
import type { SupplyChainEvent } from '../../platform/db/entities/index.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { ANCHOR_EVENT_WORKFLOW, type AnchorEventWorkflow } from '../../processes/anchor-event.ts';
import { workflowIds } from '../../processes/workflow-ids.ts';
import { findEvent } from './record-anchor.ts';

/** Starts (or joins) the anchor workflow of one event; a failed run may be started again. */
export async function startAnchor(
  gateway: WorkflowGateway,
  scope: TenantScope,
  event: { id: number; tokenId: string; action: string },
): Promise<string> {
  const workflowId = workflowIds.anchorEvent(scope.environment, event.id);
  await startOrJoin<AnchorEventWorkflow>(gateway, ANCHOR_EVENT_WORKFLOW, {
    workflowId,
    environment: scope.environment,
    args: [{ scope, eventId: event.id }],
    summary: `Anchor ${event.action} of token ${event.tokenId} (event ${event.id})`,
    searchAttributes: { environment: scope.environment, company: scope.companyId, tokenId: event.tokenId },
  });
  return workflowId;
}

/**
 * POST /v1/iaas/events/{id}/anchor: an anchored event is answered as it is; otherwise its anchor workflow
 * starts again (a running one is joined, a failed one starts anew).
 */
export async function anchorEvent(
  deps: { em: EntityManager; workflows: WorkflowGateway | undefined },
  input: { scope: TenantScope; eventId: number },
): Promise<
  { anchored: true; event: SupplyChainEvent } | { anchored: false; eventId: number; workflowId: string }
> {
  const workflows = requireWorkflows(deps.workflows);
  const event = await findEvent(deps.em, input.eventId);
  if (event.transactionHash) return { anchored: true, event };
  return { anchored: false, eventId: event.id, workflowId: await startAnchor(workflows, input.scope, event) };
}
