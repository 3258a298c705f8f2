import type { PassportReader } from '../../adapters/chain/passport-reader.ts';

/**
 * The contract's SupplyChainEvent log for `tokenId` carrying `dataHash`, searched from `fromBlock` (the
 * token's mint block) on: how a retry learns that an earlier attempt already logged the event.
 */
export async function findLoggedEvent(
  chain: PassportReader,
  request: { tokenId: string; dataHash: string; fromBlock: number },
): Promise<{ transactionHash: string; blockNumber: number } | null> {
  const logged = await chain.tokenEvents('SupplyChainEvent', request.tokenId, request.fromBlock);
  const match = logged.find(
    (event) => String(event.args.dataHash).toLowerCase() === request.dataHash.toLowerCase(),
  );
  return match ? { transactionHash: match.transactionHash, blockNumber: match.blockNumber } : null;
}
