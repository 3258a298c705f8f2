import type { EntityManager } from '@mikro-orm/postgresql';
import { getAddress } from 'ethers';
import { deriveUserWallet } from '../../accounts/wallets/user-wallet.ts';
import { smartAccountAddress } from '../../adapters/bundler/smart-account-address.ts';
import type {
  SponsoredOperations,
  SponsoredOutcome,
  SponsoredRequest,
} from '../../adapters/bundler/sponsored-operations.ts';
import type { UserOperationRecord } from '../../adapters/bundler/user-operation-store.ts';
import type { PassportReader } from '../../adapters/chain/passport-reader.ts';

export interface SponsoredClaimDeps {
  /** Unscoped: the resale is found by its token and buyer wallet. */
  em: EntityManager;
  reader: PassportReader;
  operations: SponsoredOperations;
  walletMasterSecret: string | undefined;
}

const RESALE_OF_BUYER = `
  select id, company_id, buyer_email from resales
   where environment = ? and token_id = ? and lower(buyer_wallet) = lower(?)
   order by created_at desc limit 1`;

interface ResaleRow {
  id: string;
  company_id: string;
  buyer_email: string;
}

function claimRequest(
  deps: Pick<SponsoredClaimDeps, 'reader' | 'walletMasterSecret'>,
  resale: ResaleRow,
  environment: string,
  tokenId: string,
): SponsoredRequest {
  return {
    idempotencyKey: `claim:${environment}:${tokenId}:${resale.id}`,
    purpose: 'claim',
    companyId: resale.company_id,
    owner: deriveUserWallet(deps.walletMasterSecret, resale.buyer_email),
    target: deps.reader.contractAddress,
    data: deps.reader.abi.interface.encodeFunctionData('claimOwnership', [BigInt(tokenId)]),
  };
}

/**
 * The buyer's claim as the buyer's own act (issue 40): a user operation of the buyer's smart account calling
 * claimOwnership, signed with their derived key and sponsored by our paymaster; the account is deployed by its
 * first operation. Undefined when the buyer's wallet is not their smart account (a resale recorded before smart
 * accounts named the bare derived address): the caller relays the claim as before.
 */
export async function claimAsBuyer(
  deps: SponsoredClaimDeps,
  input: { environment: string; tokenId: string; buyerWallet: string },
): Promise<SponsoredOutcome | undefined> {
  const [resale] = await deps.em.execute<ResaleRow[]>(RESALE_OF_BUYER, [
    input.environment,
    input.tokenId,
    input.buyerWallet,
  ]);
  if (!resale) return undefined;
  const request = claimRequest(deps, resale, input.environment, input.tokenId);
  const account = smartAccountAddress(deps.operations.ctx.entryPoint, request.owner.address);
  if (account !== getAddress(input.buyerWallet)) return undefined;
  return deps.operations.execute(request);
}

/**
 * A claim's request again from its operation's record, with the buyer's key re-derived: the user operation
 * monitor signs a reorged claim again with it when the bundler refuses the operation as first signed.
 */
export async function claimRequestOf(
  deps: Pick<SponsoredClaimDeps, 'em' | 'reader' | 'walletMasterSecret'>,
  record: Pick<UserOperationRecord, 'idempotencyKey' | 'purpose'>,
): Promise<SponsoredRequest | undefined> {
  const [, environment, tokenId, resaleId] = record.idempotencyKey.split(':');
  if (record.purpose !== 'claim' || !environment || !tokenId || !resaleId) return undefined;
  const [resale] = await deps.em.execute<ResaleRow[]>(
    'select id, company_id, buyer_email from resales where id = ? and environment = ?',
    [resaleId, environment],
  );
  return resale && claimRequest(deps, resale, environment, tokenId);
}
