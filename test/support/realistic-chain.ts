import type { PassportChain, PassportChainOptions } from '../../src/adapters/chain/passport-chain.ts';
import type { Orm } from '../../src/platform/db/orm.ts';
import { startTestChain, type TestChain } from './anvil.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

export interface RealisticChain extends TestChain {
  /** Seconds between blocks (anvil mines on a timer, never per transaction). */
  blockTime: number;
  /** Two endpoints of the chain (TCP relays to anvil) that can fail separately: `CHAIN_RPC_URL_*` style list. */
  endpoints: [TcpProxy, TcpProxy];
  /** `endpoints` as a comma-separated CHAIN_RPC_URL_* value. */
  rpcUrls: string;
  /** The next block's base fee becomes `wei` (a spike); later blocks fall back 12.5 % per block. */
  spikeBaseFee(wei: bigint): Promise<void>;
  /** Removes a pending transaction from anvil's mempool, as a node evicting it would. */
  dropTransaction(hash: string): Promise<void>;
  /** Pending transactions of `from` in anvil's mempool, by nonce. */
  pendingOf(from: string): Promise<{ hash: string; nonce: number }[]>;
  /**
   * Replaces the last `depth` blocks by as many empty ones (anvil_reorg): their transactions are gone from the
   * canonical chain and from the mempool. Resolves with the hashes it removed.
   */
  reorg(depth: number): Promise<string[]>;
  /** Removes the last `depth` blocks without replacing them (anvil_rollback). */
  rollback(depth: number): Promise<void>;
  head(): Promise<number>;
  /** Resolves once the chain is `blocks` blocks past its current head. */
  waitBlocks(blocks: number): Promise<void>;
  /** A PassportChain for the platform key over both endpoints, writing through a transaction manager. */
  managed(orm: Orm, options?: Partial<PassportChainOptions>): PassportChain;
}

/**
 * A chain that behaves like a public one, for tests and benches: anvil mining every `blockTime` seconds (2 by
 * default; transactions wait in the mempool), with helpers for base-fee spikes, dropped transactions, reorgs and
 * RPC outages (cut an endpoint; `managed` chains fail over to the other one).
 */
export async function startRealisticChain(options: { blockTime?: number } = {}): Promise<RealisticChain> {
  const blockTime = options.blockTime ?? 2;
  const chain = await startTestChain({ anvil: { blockTime } });
  const endpoints: [TcpProxy, TcpProxy] = [
    await startTcpProxy(chain.anvil.port),
    await startTcpProxy(chain.anvil.port),
  ];
  const rpcUrls = endpoints.map((endpoint) => endpoint.url).join(',');
  const head = async () => Number(BigInt((await chain.rpc('eth_blockNumber')) as string));
  const blockTransactions = async (number: number): Promise<string[]> => {
    const block = (await chain.rpc('eth_getBlockByNumber', [`0x${number.toString(16)}`, false])) as {
      transactions: string[];
    } | null;
    return block?.transactions ?? [];
  };
  return {
    ...chain,
    blockTime,
    endpoints,
    rpcUrls,
    spikeBaseFee: async (wei) => {
      await chain.rpc('anvil_setNextBlockBaseFeePerGas', [`0x${wei.toString(16)}`]);
    },
    dropTransaction: async (hash) => {
      await chain.rpc('anvil_dropTransaction', [hash]);
    },
    pendingOf: async (from) => {
      const content = (await chain.rpc('txpool_content')) as {
        pending: Record<string, Record<string, { hash: string; nonce: string }>>;
      };
      const entry = Object.entries(content.pending).find(
        ([address]) => address.toLowerCase() === from.toLowerCase(),
      );
      return Object.values(entry?.[1] ?? {})
        .map((tx) => ({ hash: tx.hash, nonce: Number(BigInt(tx.nonce)) }))
        .sort((a, b) => a.nonce - b.nonce);
    },
    reorg: async (depth) => {
      const top = await head();
      const removed: string[] = [];
      for (let number = top - depth + 1; number <= top; number++)
        removed.push(...(await blockTransactions(number)));
      await chain.rpc('anvil_reorg', [depth, []]);
      return removed;
    },
    rollback: async (depth) => {
      await chain.rpc('anvil_rollback', [depth]);
    },
    head,
    waitBlocks: async (blocks) => {
      const target = (await head()) + blocks;
      while ((await head()) < target) await new Promise((resolve) => setTimeout(resolve, 200));
    },
    managed: (orm, extra = {}) =>
      chain.connect(chain.platform.privateKey, {
        rpcUrl: rpcUrls,
        pollIntervalMs: 250,
        receiptTimeoutMs: 120_000,
        ...extra,
        transactions: { orm, stuckAfterMs: 3 * blockTime * 1000, ...extra.transactions },
      }),
    stop: async () => {
      await chain.stop();
      for (const endpoint of endpoints) await endpoint.close();
    },
  };
}
