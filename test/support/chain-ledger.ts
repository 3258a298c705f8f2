import { Interface, type InterfaceAbi, JsonRpcProvider, type Log } from 'ethers';
import { chipHash } from '../../src/adapters/chain/chip-hash.ts';
import { loadPassportArtifact } from '../../src/adapters/chain/compile.ts';
import type { Orm } from '../../src/platform/db/orm.ts';

/**
 * Counts business operations twice, independently: on the canonical chain (the contract's logs and views, read
 * straight from the node) and in the database (passports, supply_chain_events), then compares them. Nothing is
 * taken from the service's own counters, so a bug that miscounts cannot hide itself.
 */
export interface ChainLedgerSource {
  orm: Orm;
  /** A direct endpoint of the node (not a proxy a test may cut). */
  rpcUrl: string;
  contractAddress: string;
  environment?: 'test' | 'live';
}

export interface MintLedger {
  requested: number;
  /**
   * Chips with one passport row and one canonical Minted log that agree (token, transaction, block), and whose
   * token the contract's tokenOfChip names.
   */
  recorded: number;
  /** Passport rows beyond one per chip plus Minted logs beyond one per chip (requested chips or not). */
  duplicates: number;
  /** Passport rows naming a transaction or block that is not where the canonical chain has their mint. */
  reorgedOutLeft: number;
  /** Requested chips without a passport row, or without a canonical mint, or whose two disagree. */
  missing: string[];
  /** MINT rows of supply_chain_events (a passport's first history entry) naming another transaction or block. */
  mintEventsOff: number;
  /** Canonical Minted logs per transaction hash (batches have several). */
  mintsByTransaction: Map<string, number>;
}

export interface EventLedger {
  requested: number;
  /** Data hashes with one event row and one canonical SupplyChainEvent log that agree (transaction, block). */
  recorded: number;
  duplicates: number;
  reorgedOutLeft: number;
  missing: string[];
}

const abi = () => new Interface(loadPassportArtifact().abi as InterfaceAbi);

async function contractLogs(source: ChainLedgerSource, event: string): Promise<Log[]> {
  const provider = new JsonRpcProvider(source.rpcUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
  try {
    const topic = abi().getEvent(event)!.topicHash;
    return await provider.getLogs({
      address: source.contractAddress,
      fromBlock: 0,
      toBlock: 'latest',
      topics: [topic],
    });
  } finally {
    provider.destroy();
  }
}

const key = (hash: string) => hash.toLowerCase();

/** The mints of `chips` as the canonical chain and the passports table see them. */
export async function mintLedger(source: ChainLedgerSource, chips: string[]): Promise<MintLedger> {
  const environment = source.environment ?? 'test';
  const contract = abi();
  const logs = await contractLogs(source, 'Minted');
  const chainByChip = new Map<string, { tokenId: string; txHash: string; block: number }[]>();
  const mintsByTransaction = new Map<string, number>();
  for (const log of logs) {
    const args = contract.parseLog(log)!.args;
    const entry = { tokenId: String(args.tokenId), txHash: key(log.transactionHash), block: log.blockNumber };
    const chip = key(String(args.chipHash));
    chainByChip.set(chip, [...(chainByChip.get(chip) ?? []), entry]);
    mintsByTransaction.set(entry.txHash, (mintsByTransaction.get(entry.txHash) ?? 0) + 1);
  }
  const rows = await source.orm.em
    .fork()
    .execute<{ chip_uid: string; token_id: string; transaction_hash: string; mint_block: string }[]>(
      `select chip_uid, token_id, transaction_hash, mint_block from passports
     where environment = ? and lower(contract_address) = lower(?)`,
      [environment, source.contractAddress],
    );
  const dbByChip = new Map<string, typeof rows>();
  for (const row of rows) {
    const chip = key(chipHash(row.chip_uid));
    dbByChip.set(chip, [...(dbByChip.get(chip) ?? []), row]);
  }
  let duplicates = 0;
  for (const entries of chainByChip.values()) duplicates += Math.max(0, entries.length - 1);
  for (const entries of dbByChip.values()) duplicates += Math.max(0, entries.length - 1);
  let reorgedOutLeft = 0;
  for (const [chip, entries] of dbByChip) {
    const canonical = chainByChip.get(chip) ?? [];
    for (const row of entries) {
      const there = canonical.some(
        (mint) =>
          mint.tokenId === row.token_id &&
          mint.txHash === key(row.transaction_hash) &&
          mint.block === Number(row.mint_block),
      );
      if (!there) reorgedOutLeft++;
    }
  }
  const canonicalByToken = new Map<string, { txHash: string; block: number }[]>();
  for (const entries of chainByChip.values())
    for (const mint of entries)
      canonicalByToken.set(mint.tokenId, [...(canonicalByToken.get(mint.tokenId) ?? []), mint]);
  const mintEvents = await source.orm.em
    .fork()
    .execute<{ token_id: string; transaction_hash: string; block_number: string }[]>(
      `select token_id, transaction_hash, block_number from supply_chain_events
     where environment = ? and action = 'MINT' and data_hash is null and lower(contract_address) = lower(?)`,
      [environment, source.contractAddress],
    );
  const mintEventsOff = mintEvents.filter(
    (row) =>
      !(canonicalByToken.get(row.token_id) ?? []).some(
        (mint) => mint.txHash === key(row.transaction_hash) && mint.block === Number(row.block_number),
      ),
  ).length;
  // The contract's state as well as its logs: tokenOfChip of every requested chip, read at the head.
  const provider = new JsonRpcProvider(source.rpcUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
  const tokenOfChip = new Map<string, string>();
  try {
    for (const chipUid of chips) {
      const hash = chipHash(chipUid);
      const data = contract.encodeFunctionData('tokenOfChip', [hash]);
      const answer = await provider.call({ to: source.contractAddress, data });
      tokenOfChip.set(key(hash), String(contract.decodeFunctionResult('tokenOfChip', answer)[0]));
    }
  } finally {
    provider.destroy();
  }
  const missing: string[] = [];
  let recorded = 0;
  for (const chipUid of chips) {
    const chip = key(chipHash(chipUid));
    const onChain = chainByChip.get(chip) ?? [];
    const inDb = dbByChip.get(chip) ?? [];
    const agree =
      tokenOfChip.get(chip) === inDb[0]?.token_id &&
      onChain.length === 1 &&
      inDb.length === 1 &&
      onChain[0]!.tokenId === inDb[0]!.token_id &&
      onChain[0]!.txHash === key(inDb[0]!.transaction_hash) &&
      onChain[0]!.block === Number(inDb[0]!.mint_block);
    if (agree) recorded++;
    else missing.push(chipUid);
  }
  return {
    requested: chips.length,
    recorded,
    duplicates,
    reorgedOutLeft,
    missing,
    mintEventsOff,
    mintsByTransaction,
  };
}

/** The anchors of events (by their data hashes) as the canonical chain and supply_chain_events see them. */
export async function eventLedger(source: ChainLedgerSource, eventIds: number[]): Promise<EventLedger> {
  const contract = abi();
  const logs = await contractLogs(source, 'SupplyChainEvent');
  const chainByHash = new Map<string, { txHash: string; block: number }[]>();
  for (const log of logs) {
    const hash = key(String(contract.parseLog(log)!.args.dataHash));
    chainByHash.set(hash, [
      ...(chainByHash.get(hash) ?? []),
      { txHash: key(log.transactionHash), block: log.blockNumber },
    ]);
  }
  const rows = await source.orm.em
    .fork()
    .execute<
      { id: number; data_hash: string | null; transaction_hash: string | null; block_number: string | null }[]
    >(
      `select id, data_hash, transaction_hash, block_number from supply_chain_events
     where environment = ? and transaction_hash is not null and data_hash is not null`,
      [source.environment ?? 'test'],
    );
  const dbByHash = new Map<string, typeof rows>();
  for (const row of rows) {
    const hash = key(row.data_hash ?? '');
    dbByHash.set(hash, [...(dbByHash.get(hash) ?? []), row]);
  }
  let duplicates = 0;
  for (const entries of chainByHash.values()) duplicates += Math.max(0, entries.length - 1);
  for (const entries of dbByHash.values()) duplicates += Math.max(0, entries.length - 1);
  let reorgedOutLeft = 0;
  for (const [hash, entries] of dbByHash) {
    const canonical = chainByHash.get(hash) ?? [];
    for (const row of entries)
      if (
        !canonical.some(
          (anchor) =>
            anchor.txHash === key(row.transaction_hash!) && anchor.block === Number(row.block_number),
        )
      )
        reorgedOutLeft++;
  }
  const byId = new Map(rows.map((row) => [row.id, row]));
  const missing: string[] = [];
  let recorded = 0;
  for (const id of eventIds) {
    const row = byId.get(id);
    const anchors = row?.data_hash ? (chainByHash.get(key(row.data_hash)) ?? []) : [];
    const agree =
      row !== undefined &&
      anchors.length === 1 &&
      anchors[0]!.txHash === key(row.transaction_hash!) &&
      anchors[0]!.block === Number(row.block_number);
    if (agree) recorded++;
    else missing.push(String(id));
  }
  return { requested: eventIds.length, recorded, duplicates, reorgedOutLeft, missing };
}

/**
 * The signer's nonces as the node and chain_transactions see them: `stuck` transactions wait in the mempool
 * (pending count above the mined one), `sharedNonces` are nonces that two live intents claim.
 */
export async function signerNonces(
  source: ChainLedgerSource,
  signer: string,
): Promise<{ mined: number; pending: number; sharedNonces: number; superseded: number }> {
  const provider = new JsonRpcProvider(source.rpcUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
  try {
    const [mined, pending] = await Promise.all([
      provider.getTransactionCount(signer, 'latest'),
      provider.getTransactionCount(signer, 'pending'),
    ]);
    const [row] = await source.orm.em.fork().execute<{ shared: number; superseded: number }[]>(
      `select (select count(*)::int from (
                select nonce from chain_transactions
                where lower(signer) = lower(?) and state <> 'superseded' group by nonce having count(*) > 1) n
              ) as shared,
              (select count(*)::int from chain_transactions
                where lower(signer) = lower(?) and state = 'superseded') as superseded`,
      [signer, signer],
    );
    return { mined, pending, sharedNonces: row!.shared, superseded: row!.superseded };
  } finally {
    provider.destroy();
  }
}
