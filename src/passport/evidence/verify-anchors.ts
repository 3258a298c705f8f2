import { Interface, JsonRpcProvider, type Log, toBeHex, zeroPadValue } from 'ethers';
import type { EvidenceAnchor, EvidenceBundle, EvidenceEvent } from './bundle.ts';
import { type Check, fail, pass, pending } from './checks.ts';
import { verifyVersionAnchors } from './verify-version-anchors.ts';

// The passport contract's events an anchor can be (src/adapters/chain/contracts/DigitalProductPassport.sol).
const EVENTS = new Interface([
  'event Minted(uint256 indexed tokenId, address indexed owner, bytes32 indexed chipHash, string metadataUri, uint256 deposit)',
  'event SupplyChainEvent(uint256 indexed tokenId, string action, bytes32 dataHash, address indexed actor)',
  'event ClaimAuthorized(uint256 indexed tokenId, address indexed account, address indexed currentOwner)',
  'event OwnershipClaimed(uint256 indexed tokenId, address indexed from, address indexed to)',
  'event Recycled(uint256 indexed tokenId, address indexed rewardReceiver, uint256 amount)',
]);

const topicOf = (log: EvidenceAnchor['log']) => EVENTS.getEvent(log)!.topicHash;

/**
 * Every anchor against the chain node: the transaction exists and succeeded in the stated block, and one of
 * its logs is the stated contract event of this token (for logEvent: carrying the event's data hash). Then the
 * other way round: every SupplyChainEvent the contract logged for the token is in the bundle, so an event
 * removed from the history (even with the manifest signed again) is found. Unanchored events: pending.
 */
export async function verifyAnchors(bundle: EvidenceBundle, rpcUrl: string): Promise<Check[]> {
  const provider = new JsonRpcProvider(rpcUrl, undefined, { staticNetwork: true, batchMaxCount: 1 });
  try {
    await provider.getBlockNumber().catch((error: Error) => {
      throw new Error(`the chain node ${rpcUrl} does not answer: ${error.message}`);
    });
    if (bundle.passport.granularity !== 'item') return await verifyVersionAnchors(provider, bundle);
    const checks: Check[] = [];
    for (const event of bundle.events) checks.push(await anchorCheck(provider, bundle, event));
    checks.push(await completeness(provider, bundle));
    return checks;
  } finally {
    provider.destroy();
  }
}

async function anchorCheck(
  provider: JsonRpcProvider,
  bundle: EvidenceBundle,
  event: EvidenceEvent,
): Promise<Check> {
  const name = `event ${String(event.payload.id)} (${String(event.payload.action)}) anchor`;
  const anchor = event.anchor;
  if (!anchor) return pending(name, 'not anchored yet: unverifiable');
  if (anchor.contractAddress.toLowerCase() !== bundle.passport.contractAddress?.toLowerCase())
    return fail(name, `anchored on ${anchor.contractAddress}, not the passport’s contract`);
  if (anchor.log === 'SupplyChainEvent' && anchor.dataHash?.toLowerCase() !== event.dataHash?.toLowerCase())
    return fail(name, 'the anchor’s data hash is not the event’s');
  const receipt = await provider.getTransactionReceipt(anchor.transactionHash);
  if (!receipt) return fail(name, `no transaction ${anchor.transactionHash} on the chain`);
  if (receipt.status !== 1) return fail(name, `transaction ${anchor.transactionHash} reverted`);
  if (receipt.blockNumber !== anchor.blockNumber)
    return fail(
      name,
      `transaction mined in block ${receipt.blockNumber}, the bundle says ${anchor.blockNumber}`,
    );
  const found = receipt.logs.find((log) => matches(log, anchor, bundle.passport.tokenId!));
  if (!found)
    return fail(
      name,
      `transaction ${anchor.transactionHash} carries no ${anchor.log} of token ${bundle.passport.tokenId}` +
        (anchor.dataHash ? ` with data hash ${anchor.dataHash}` : ''),
    );
  return pass(
    name,
    `${anchor.log} in tx ${anchor.transactionHash}, block ${receipt.blockNumber}, log ${found.index}`,
  );
}

const tokenTopic = (tokenId: string) => zeroPadValue(toBeHex(BigInt(tokenId)), 32);

function matches(log: Log, anchor: EvidenceAnchor, tokenId: string): boolean {
  if (log.address.toLowerCase() !== anchor.contractAddress.toLowerCase()) return false;
  if (log.topics[0] !== topicOf(anchor.log) || log.topics[1] !== tokenTopic(tokenId)) return false;
  if (anchor.log !== 'SupplyChainEvent') return true;
  const decoded = EVENTS.parseLog({ topics: [...log.topics], data: log.data });
  return String(decoded?.args.dataHash).toLowerCase() === anchor.dataHash?.toLowerCase();
}

/** Every data hash the contract logged for the token, from its mint block on, is one of the bundle's events. */
async function completeness(provider: JsonRpcProvider, bundle: EvidenceBundle): Promise<Check> {
  const name = 'no anchored event left out';
  const { contractAddress, tokenId, mintBlock } = bundle.passport;
  if (!contractAddress || !tokenId || mintBlock === null) return fail(name, 'the bundle names no token');
  const logs = await provider.getLogs({
    address: contractAddress,
    topics: [topicOf('SupplyChainEvent'), tokenTopic(tokenId)],
    fromBlock: mintBlock,
    toBlock: 'latest',
  });
  const bundled = new Set(bundle.events.map((event) => event.dataHash?.toLowerCase()));
  const missing = logs
    .map((log) => EVENTS.parseLog({ topics: [...log.topics], data: log.data }))
    .filter((decoded) => !bundled.has(String(decoded?.args.dataHash).toLowerCase()))
    .map((decoded) => `${String(decoded?.args.action)} ${String(decoded?.args.dataHash)}`);
  return missing.length === 0
    ? pass(name, `the chain logs ${logs.length} events for token ${tokenId}, all in the bundle`)
    : fail(name, `the chain logs events the bundle lacks: ${missing.join(', ')}`);
}
