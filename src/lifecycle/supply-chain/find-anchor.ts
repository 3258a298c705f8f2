import { Interface, type JsonFragment, toBeHex } from 'ethers';
import type { PassportChain } from '../../adapters/chain/passport-chain.ts';

/**
 * The contract's SupplyChainEvent log for `tokenId` carrying `dataHash`, searched from `fromBlock` (the
 * token's mint block) on: how a retry learns that an earlier attempt already logged the event.
 */
export async function findLoggedEvent(
  chain: PassportChain,
  request: { tokenId: string; dataHash: string; fromBlock: number },
): Promise<{ transactionHash: string; blockNumber: number } | null> {
  const contract = new Interface(chain.artifact.abi as JsonFragment[]);
  const fragment = contract.getEvent('SupplyChainEvent')!;
  const logs = await chain.provider.getLogs({
    address: chain.contractAddress,
    fromBlock: request.fromBlock,
    toBlock: 'latest',
    topics: [fragment.topicHash, toBeHex(BigInt(request.tokenId), 32)],
  });
  for (const log of logs) {
    const parsed = contract.parseLog({ topics: [...log.topics], data: log.data });
    if (parsed && String(parsed.args.dataHash).toLowerCase() === request.dataHash.toLowerCase()) {
      return { transactionHash: log.transactionHash, blockNumber: log.blockNumber };
    }
  }
  return null;
}
