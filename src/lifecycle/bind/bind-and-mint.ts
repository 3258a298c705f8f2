import type { EntityManager } from '@mikro-orm/postgresql';
import { requireActivePlan } from '../../accounts/billing/plan-guard.ts';
import { readCompanySettings } from '../../accounts/settings/company-settings.ts';
import type { WorkflowGateway } from '../../adapters/temporal/start.ts';
import { canonicalChipUid } from '../../chips/enroll.ts';
import type { TenantScope } from '../../platform/db/tenant-scope.ts';
import { existingTokenId, mintInputFromTwin, mintTwin } from '../mint/mint-twin.ts';
import { ConformityMissing } from '../mint/request-mint.ts';
import { bindTwin, findTwin } from './bind.ts';
import { verifyToolboxSignature } from './toolbox-keys.ts';

export interface BindAndMintDeps {
  /** Bound to the caller's company and environment. */
  em: EntityManager;
  workflows: WorkflowGateway | undefined;
  /** How long the request waits for the mint before answering with its status (MINT_WAIT_MS). */
  waitMs: number;
}

/** The passport's token, or (the mint still running) where to follow it. */
export type BindAndMintOutcome = { chipUid: string } & ({ tokenId: string } | { statusUrl: string });

/**
 * POST /v1/factory/bind shape B: a factory toolbox binds a chip to a provisioned twin with its signature, and the
 * passport is minted (mint:{env}:{chipUid}). Refused before anything is bound: a live environment without a
 * plan, an unknown twin, a signature no active toolbox key made, and (for a chip without a passport yet) no
 * declaration of conformity, the twin's or the company default (ConformityMissing). A chip minted before
 * answers its token again.
 */
export async function bindAndMint(
  deps: BindAndMintDeps,
  input: { scope: TenantScope; internalId: string; chipUid: string; signature: string },
): Promise<BindAndMintOutcome> {
  const { em } = deps;
  const { scope, internalId, signature } = input;
  await requireActivePlan(em, scope);
  const chipUid = canonicalChipUid(input.chipUid);
  const provisioned = await findTwin(em, internalId);
  await verifyToolboxSignature(em, { internalId, chipUid, signatureHex: signature });
  const minted = await existingTokenId(em, chipUid);
  // A toolbox bind brings no passport data, so the declaration of conformity the mint needs is the twin's
  // (from provisioning), else the company default; without one nothing is bound or minted.
  const conformityUrl = minted
    ? null
    : (provisioned.conformityUrl ?? (await readCompanySettings(em, scope)).defaultConformityUrl);
  if (!minted && !conformityUrl) throw new ConformityMissing();
  const { twin } = await bindTwin(em, scope, {
    serviceInternalId: internalId,
    chipUid,
    sameChipIsBound: true,
  });
  if (minted) return { chipUid, tokenId: minted };
  const outcome = await mintTwin(
    { workflows: deps.workflows, waitMs: deps.waitMs },
    mintInputFromTwin(scope, twin, chipUid, signature, conformityUrl!),
  );
  return outcome.done
    ? { chipUid, tokenId: outcome.result.tokenId }
    : { chipUid, statusUrl: `/v1/dpp/mint/${outcome.chipUid}` };
}
