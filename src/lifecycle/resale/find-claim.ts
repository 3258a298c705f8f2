import { Interface, type InterfaceAbi, toBeHex, zeroPadValue } from 'ethers';
import type { PassportChain } from '../../adapters/chain/passport-chain.ts';

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
  chain: PassportChain,
  tokenId: string,
  to: string,
  fromBlock: number,
): Promise<ClaimRecord | null> {
  const contract = new Interface(chain.artifact.abi as InterfaceAbi);
  const claimed = contract.getEvent('OwnershipClaimed');
  if (!claimed) throw new Error('the passport contract has no OwnershipClaimed event');
  const logs = await chain.provider.getLogs({
    address: chain.contractAddress,
    fromBlock,
    toBlock: 'latest',
    topics: [claimed.topicHash, toBeHex(BigInt(tokenId), 32), null, zeroPadValue(to, 32)],
  });
  const log = logs.at(-1);
  if (!log) return null;
  const parsed = contract.parseLog({ topics: [...log.topics], data: log.data });
  if (!parsed) return null;
  return {
    transactionHash: log.transactionHash,
    blockNumber: log.blockNumber,
    from: parsed.args.from as string,
    to: parsed.args.to as string,
  };
}
