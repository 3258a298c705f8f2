import { startOrJoin, type WorkflowGateway } from '../../../src/adapters/temporal/start.ts';
import type { TenantScope } from '../../../src/platform/db/tenant-scope.ts';
import { workflowIds } from '../../../src/processes/workflow-ids.ts';
import type { anchorSupplyChainEvent } from '../../../workflows/anchor-event.ts';

/** Starts (or joins) the anchor workflow of one event; a failed run may be started again. */
export async function startAnchor(
  gateway: WorkflowGateway,
  scope: TenantScope,
  event: { id: number; tokenId: string; action: string },
): Promise<string> {
  const workflowId = workflowIds.anchorEvent(scope.environment, event.id);
  await startOrJoin<typeof anchorSupplyChainEvent>(gateway, 'anchorSupplyChainEvent', {
    workflowId,
    environment: scope.environment,
    args: [{ scope, eventId: event.id }],
    summary: `Anchor ${event.action} of token ${event.tokenId} (event ${event.id})`,
    searchAttributes: { environment: scope.environment, company: scope.companyId, tokenId: event.tokenId },
  });
  return workflowId;
}
