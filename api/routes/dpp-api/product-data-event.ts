import { z } from 'zod';
import type { WorkflowGateway } from '../../../src/adapters/temporal/start.ts';
import { startAnchor } from '../../../src/lifecycle/supply-chain/anchor-event.ts';
import { PRODUCT_DATA_UPDATED } from '../../../src/passport/content/product-data-change.ts';
import type { PassportVersion } from '../../../src/passport/record/passport-versions.ts';
import type { SupplyChainEvent } from '../../../src/platform/db/entities/index.ts';
import type { TenantScope } from '../../../src/platform/db/tenant-scope.ts';
import type { AppContext } from '../../context.ts';

/** The PRODUCT_DATA_UPDATED event of a content change as its writer and the brand see it (no values). */
export const productDataEventView = z.object({
  id: z.number().int(),
  action: z.literal(PRODUCT_DATA_UPDATED),
  dataSha256: z.string().describe('SHA-256 (hex) of the RFC 8785 form of the data after this change.'),
  dataHash: z.string().describe('keccak256 of the event as anchored (docs/supply-chain: eventDataHash).'),
  transactionHash: z.string().nullable(),
  blockNumber: z.number().int().nullable(),
});

export const versionView = z.object({
  number: z.number().int(),
  createdAt: z.string(),
  publicSha256: z.string(),
});

export const versionSummary = (version: PassportVersion): z.infer<typeof versionView> => ({
  number: version.number,
  createdAt: version.createdAt.toISOString(),
  publicSha256: version.publicSha256,
});

export function eventSummary(event: SupplyChainEvent): z.infer<typeof productDataEventView> {
  const metadata = event.metadata as { dataSha256?: string };
  return {
    id: event.id,
    action: PRODUCT_DATA_UPDATED,
    dataSha256: metadata.dataSha256 ?? '',
    dataHash: event.dataHash ?? '',
    transactionHash: event.transactionHash ?? null,
    blockNumber:
      event.blockNumber === null || event.blockNumber === undefined ? null : Number(event.blockNumber),
  };
}

/**
 * Starts (or joins) the anchor workflow of committed PRODUCT_DATA_UPDATED events. The change is committed:
 * answering an error would invite a duplicate, so a failed start is logged (GET …/dynamic/{id} restarts it).
 */
export async function anchorProductDataEvents(
  ctx: AppContext,
  workflows: WorkflowGateway,
  anchors: { scope: TenantScope; eventId: number; tokenId: string }[],
): Promise<void> {
  for (const anchor of anchors) {
    await startAnchor(workflows, anchor.scope, {
      id: anchor.eventId,
      tokenId: anchor.tokenId,
      action: PRODUCT_DATA_UPDATED,
    }).catch((error: unknown) =>
      ctx.state.log.error({ err: error, eventId: anchor.eventId }, 'anchor workflow not started'),
    );
  }
}
