import type { EntityManager } from '@mikro-orm/postgresql';
import {
  requireWorkflows,
  resultWithin,
  startOrJoin,
  type WorkflowGateway,
} from '../../adapters/temporal/start.ts';
import type { AssetTwin } from '../../platform/db/entities/index.ts';
import { Passport } from '../../platform/db/entities/index.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { MINT_WORKFLOW, type MintInput, type MintWorkflow } from '../../processes/mint.ts';
import { workflowIds } from '../../processes/workflow-ids.ts';
import { chipEnrolledElsewhere } from './mint-candidate.ts';
import { mintFailureToDomainError } from './mint-failures.ts';

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

export type TwinMintOutcome = { done: true; tokenId: string } | { done: false; statusUrl: string };

/** Starts (or joins, if the company's own) mint:{env}:{chipUid} and waits up to `waitMs` for its token id. */
export async function mintBoundTwin(
  gateway: WorkflowGateway | undefined,
  input: MintInput,
  waitMs: number,
): Promise<TwinMintOutcome> {
  const { handle } = await startOrJoin<MintWorkflow>(requireWorkflows(gateway), MINT_WORKFLOW, {
    workflowId: input.reference,
    environment: input.scope.environment,
    args: [input],
    summary: `Mint passport for chip ${input.chipUid} (toolbox bind ${String(input.product.productId)})`,
    searchAttributes: {
      environment: input.scope.environment,
      company: input.scope.companyId,
      chipUid: input.chipUid,
      gtin: input.product.gtin ?? undefined,
    },
    ownRunsOnly: () => chipEnrolledElsewhere(input.chipUid),
  });
  try {
    const outcome = await resultWithin(handle, waitMs);
    if (outcome.done) return { done: true, tokenId: outcome.value.tokenId };
  } catch (error) {
    throw mintFailureToDomainError(error) ?? error;
  }
  return { done: false, statusUrl: `/v1/dpp/mint/${input.chipUid}` };
}
