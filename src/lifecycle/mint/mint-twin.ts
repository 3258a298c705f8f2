import type { EntityManager } from '@mikro-orm/postgresql';
import type { WorkflowGateway } from '../../adapters/temporal/start.ts';
import type { AssetTwin } from '../../platform/db/entities/index.ts';
import { Passport } from '../../platform/db/entities/index.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import type { MintInput } from '../../processes/mint.ts';
import { workflowIds } from '../../processes/workflow-ids.ts';
import { startMint } from './start-mint.ts';

/**
 * The mint request a bound twin stands for: its name, GTIN, material number and ERP ids, and the declaration
 * of conformity (the twin's, else the company default; the caller refuses the bind without one).
 */
export function mintInputFromTwin(
  scope: TenantScope,
  twin: AssetTwin,
  chipUid: string,
  toolboxSignature: string,
  conformityUrl: string,
): MintInput {
  const custom: Record<string, unknown> = {
    service_internal_id: twin.serviceInternalId,
    conformity_url: conformityUrl,
  };
  if (twin.gtin) custom.gtin = twin.gtin;
  if (twin.batch) custom.batch_number = twin.batch;
  if (twin.materialNumber) custom.erp_material_id = twin.materialNumber;
  if (twin.orderId) custom.erp_order_id = twin.orderId;
  return {
    scope,
    chipUid,
    product: {
      name: twin.name ?? twin.materialNumber ?? twin.serviceInternalId,
      description: '',
      image: null,
      gtin: twin.gtin ?? null,
      material: twin.materialNumber ?? null,
      productId: twin.serviceInternalId,
      customDppData: custom,
    },
    sun: null,
    toolbox: { internalId: twin.serviceInternalId, signature: toolboxSignature },
    nfc: { cmac: null, urlPath: null, piccData: null },
    reference: workflowIds.mint(scope.environment, chipUid),
  };
}

export async function existingTokenId(em: EntityManager, chipUid: string): Promise<string | undefined> {
  return (await em.findOne(Passport, { chipUid }))?.tokenId;
}

/**
 * The mint a factory toolbox's bind (POST /v1/factory/bind shape B) stands for: starts (or joins, if the
 * company's own) mint:{env}:{chipUid} and waits up to `waitMs`. A chip minted before answers its passport.
 */
export function mintTwin(deps: { workflows: WorkflowGateway | undefined; waitMs: number }, input: MintInput) {
  return startMint(deps.workflows, input, {
    summary: `Mint passport for chip ${input.chipUid} (toolbox bind ${String(input.product.productId)})`,
    waitMs: deps.waitMs,
    completed: 'answer',
  });
}
