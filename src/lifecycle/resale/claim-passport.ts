import type { EntityManager } from '@mikro-orm/postgresql';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { userWalletAddress } from '../../accounts/wallets/user-wallet.ts';
import { requireWorkflows, type WorkflowGateway } from '../../adapters/temporal/start.ts';
import type { Environment } from '../../platform/config/config.ts';
import { DomainError } from '../../platform/errors.ts';
import type { SecretBox } from '../../platform/secret-box.ts';
import { CLAIM_UPDATE, type ClaimRequest, type ClaimResult } from '../../processes/resale.ts';
import { workflowIds } from '../../processes/workflow-ids.ts';
import { requireTapMadeNow } from './tap-made-now.ts';

export interface ClaimPassportDeps {
  /** Unscoped: the buyer reaches the seller's resale and the brand's chip. */
  em: EntityManager;
  box: SecretBox;
  workflows: WorkflowGateway | undefined;
  walletMasterSecret: string | undefined;
}

export interface ClaimInput {
  environment: Environment;
  /** The buyer, from their user token (never from the request body): their invisible wallet receives the token. */
  buyerEmail: string;
  tokenId: string;
  /** The tapped SUN URL or its query (picc_data/e and cmac/c), as the chip wrote it. */
  nfcData: string;
  /** From POST /v1/dpp/claim/challenge: only a tap read after it claims. */
  challengeId: string;
}

export interface OpenResale {
  id: string;
  company_id: string;
  status: string;
  chip_uid: string;
}

// Resales are the seller's rows; the buyer reaches only one that names their wallet, so another buyer (or a
// guessed token id) learns nothing — the same 404 as a token that is not for sale.
const OPEN_RESALE_FOR_BUYER = `
  select r.id, r.company_id, r.status, p.chip_uid
    from resales r
    join passports p on p.company_id = r.company_id and p.environment = r.environment and p.token_id = r.token_id
   where r.environment = ? and r.token_id = ? and lower(r.buyer_wallet) = lower(?)
     and r.status in ('AUTHORIZING', 'AWAITING_PAYMENT', 'AWAITING_CLAIM')
   order by r.created_at desc
   limit 1`;

/**
 * POST /v1/dpp/claim. The buyer proves possession: a fresh tap of the passport's own chip (its counter accepted once, as
 * verify-chip does), then the resale workflow relays claimOwnershipFor on chain for the buyer's wallet.
 * Nothing reaches the chain unless the resale is paid, the tap is genuine and new, and the chip is the token's.
 */
/** The buyer's open resale of the token, or 404 (another buyer's, or none, look the same). */
export async function openResaleForBuyer(
  em: EntityManager,
  input: { environment: Environment; tokenId: string; buyerWallet: string },
): Promise<OpenResale> {
  const [resale] = await em.execute<OpenResale[]>(OPEN_RESALE_FOR_BUYER, [
    input.environment,
    input.tokenId,
    input.buyerWallet,
  ]);
  if (!resale) {
    throw new DomainError(
      'not_found',
      'resale_not_found',
      `No resale of passport ${input.tokenId} awaits your claim.`,
    );
  }
  return resale;
}

export async function claimPassport(deps: ClaimPassportDeps, input: ClaimInput): Promise<ClaimResult> {
  const { em, box } = deps;
  const workflows = requireWorkflows(deps.workflows);
  const buyerWallet = userWalletAddress(deps.walletMasterSecret, input.buyerEmail);
  const resale = await openResaleForBuyer(em, { ...input, buyerWallet });
  if (resale.status !== 'AWAITING_CLAIM') {
    throw new DomainError(
      'conflict',
      'payment_pending',
      'The payment for this resale has not been confirmed yet; claim once it is.',
    );
  }
  await requireTapMadeNow(em, box, {
    purpose: 'claim',
    environment: input.environment,
    tokenId: input.tokenId,
    email: input.buyerEmail,
    challengeId: input.challengeId,
    nfcData: input.nfcData,
    chip: { companyId: resale.company_id, chipUid: resale.chip_uid },
    reference: `claim:${resale.id}`,
  });
  const request: ClaimRequest = { buyerWallet };
  try {
    return await workflows.client.workflow
      .getHandle(workflowIds.resale(input.environment, input.tokenId))
      .executeUpdate<ClaimResult, [ClaimRequest]>(CLAIM_UPDATE, { args: [request] });
  } catch (error) {
    // The workflow's validator refused (the resale moved on between our read and the update).
    if (error instanceof WorkflowUpdateFailedError) {
      throw new DomainError(
        'conflict',
        'claim_refused',
        (error.cause as Error | undefined)?.message ?? error.message,
      );
    }
    throw error;
  }
}
