import { startOrJoin, type WorkflowGateway } from '../../adapters/temporal/start.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { ANCHOR_EVENT_WORKFLOW, type AnchorEventWorkflow } from '../../processes/anchor-event.ts';
import { workflowIds } from '../../processes/workflow-ids.ts';

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
