import { zeroPadValue } from 'ethers';
import type { PassportReader } from '../../adapters/chain/passport-reader.ts';

export interface ClaimRecord {
  transactionHash: string;
  blockNumber: number;
  from: string;
  to: string;
}

/**
 * The OwnershipClaimed event that moved `tokenId` to `to`, searched from `fromBlock` on: how a retry learns
 * what an earlier attempt did when it lost the transaction hash. The latest one counts (a passport can be
 * resold to the same wallet again after it changed hands in between).
 */
export async function findClaim(
  chain: PassportReader,
  tokenId: string,
  to: string,
  fromBlock: number,
): Promise<ClaimRecord | null> {
  const claims = await chain.tokenEvents('OwnershipClaimed', tokenId, fromBlock, [
    null,
    zeroPadValue(to, 32),
  ]);
  const claim = claims.at(-1);
  if (!claim) return null;
  return {
    transactionHash: claim.transactionHash,
    blockNumber: claim.blockNumber,
    from: claim.args.from as string,
    to: claim.args.to as string,
  };
}
