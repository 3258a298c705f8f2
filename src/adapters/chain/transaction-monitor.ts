import type { JsonRpcProvider, TransactionReceipt } from 'ethers';
import type { Orm } from '../../platform/db/orm.ts';
import { describe, type TransactionBroadcaster } from './transaction-broadcaster.ts';
import type { Row, TransactionStore } from './transaction-store.ts';
import type {
  ChainIntent,
  ChainTransaction,
  ChainTransactionEvent,
  ChainTransactionState,
  ReorgChange,
  TransactionObserver,
  TransactionStats,
} from './transaction-types.ts';

const ROUND_CONCURRENCY = 8;

export interface TransactionMonitorOptions {
  orm: Orm;
  provider: JsonRpcProvider;
  store: TransactionStore;
  broadcaster: TransactionBroadcaster;
  address: string;
  confirmations: number;
  stuckAfterMs: number;
  /** How many blocks back confirmed transactions are checked against the canonical chain. */
  window: number;
  reconcile: ((change: ReorgChange) => Promise<void>) | undefined;
  observer: TransactionObserver | undefined;
  stats: TransactionStats;
  emit: (event: ChainTransactionEvent) => void;
  chainId: () => Promise<number>;
  /** Stores and sends the intent under a new nonce, superseding the row `supersedes`. */
  send: (intent: ChainIntent, supersedes: string) => Promise<ChainTransaction>;
}

/**
 * Rounds over the signer's open and recently confirmed transactions: confirms them on the canonical chain,
 * broadcasts dropped ones again, bumps stuck ones, and handles reorgs (see TransactionManager).
 */
export class TransactionMonitor {
  readonly #orm: Orm;
  readonly #provider: JsonRpcProvider;
  readonly #store: TransactionStore;
  readonly #broadcaster: TransactionBroadcaster;
  readonly #address: string;
  readonly #confirmations: number;
  readonly #stuckAfterMs: number;
  readonly #window: number;
  readonly #reconcile: ((change: ReorgChange) => Promise<void>) | undefined;
  readonly #observer: TransactionObserver | undefined;
  readonly #stats: TransactionStats;
  readonly #emit: (event: ChainTransactionEvent) => void;
  readonly #chainId: () => Promise<number>;
  readonly #send: (intent: ChainIntent, supersedes: string) => Promise<ChainTransaction>;
  #tick: Promise<void> | undefined;
  readonly #reconciledAt = new Map<string, number>();

  constructor(options: TransactionMonitorOptions) {
    this.#orm = options.orm;
    this.#provider = options.provider;
    this.#store = options.store;
    this.#broadcaster = options.broadcaster;
    this.#address = options.address;
    this.#confirmations = options.confirmations;
    this.#stuckAfterMs = options.stuckAfterMs;
    this.#window = options.window;
    this.#reconcile = options.reconcile;
    this.#observer = options.observer;
    this.#stats = options.stats;
    this.#emit = options.emit;
    this.#chainId = options.chainId;
    this.#send = options.send;
  }

  /** One round over the open and recently confirmed transactions; concurrent callers share it. */
  tick(): Promise<void> {
    this.#tick ??= this.#round().finally(() => {
      this.#tick = undefined;
    });
    return this.#tick;
  }

  /**
   * A round that starts after this call. A round already under way may have read the receipts before the
   * caller's transaction was mined (at once on a dev chain), so the caller waits for it and joins the next.
   */
  async freshTick(): Promise<void> {
    if (this.#tick) await this.#tick.catch(() => {});
    return this.tick();
  }

  async #round(): Promise<void> {
    const chainId = await this.#chainId();
    await this.#store.sameChain(chainId);
    // The account's mined nonce count first: a nonce below it with none of our hashes mined was used by another
    // transaction (read before the receipts, so a transaction mined in between is seen as mined).
    const [head, minedCount] = await Promise.all([
      this.#provider.getBlockNumber(),
      this.#provider.getTransactionCount(this.#address, 'latest'),
    ]);
    const rows = await this.#store.watched(chainId, head - this.#window);
    const canonical = new Map<number, Promise<string | null>>();
    const blockHash = (number: number) => {
      let known = canonical.get(number);
      if (!known) {
        known = this.#provider.getBlock(number).then((block) => block?.hash ?? null);
        canonical.set(number, known);
      }
      return known;
    };
    // Rows are independent: checked ROUND_CONCURRENCY at a time (a remote node answers in tens of ms each).
    let next = 0;
    const checker = async () => {
      while (next < rows.length) {
        const row = rows[next++]!;
        try {
          await this.#check(row, head, minedCount, blockHash);
        } catch (error) {
          await this.#store.note(row.id, describe(error));
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(ROUND_CONCURRENCY, rows.length) }, checker));
  }

  async #check(
    row: Row,
    head: number,
    minedCount: number,
    blockHash: (number: number) => Promise<string | null>,
  ): Promise<void> {
    const settled = row.state === 'confirmed' || row.state === 'reverted';
    if (
      settled &&
      row.block_number !== null &&
      (await blockHash(Number(row.block_number))) === row.block_hash
    ) {
      if (row.reorgs > 0) await this.#reconcileLater(row);
      return;
    }
    const receipt = await this.#receipt(row);
    if (receipt && (await blockHash(receipt.blockNumber)) === receipt.blockHash) {
      const depth = head - receipt.blockNumber + 1;
      const state: ChainTransactionState =
        depth < this.#confirmations ? 'mined' : receipt.status === 1 ? 'confirmed' : 'reverted';
      if (state === row.state && receipt.blockHash === row.block_hash) return;
      const [updated] = await this.#orm.em.fork().execute<Row[]>(
        `update chain_transactions set state = ?, tx_hash = ?, block_number = ?, block_hash = ?,
           mined_at = coalesce(mined_at, now()),
           confirmed_at = case when ? in ('confirmed', 'reverted') then now() else confirmed_at end,
           last_error = null, updated_at = now()
         where id = ? and state = ? returning *`,
        [state, receipt.hash, receipt.blockNumber, receipt.blockHash, state, row.id, row.state],
      );
      if (updated) this.#emit(state);
      if (updated && state === 'confirmed') {
        this.#stats.confirmed++;
        this.#observer?.confirmed((Date.now() - new Date(updated.created_at).getTime()) / 1000);
        if (updated.reorgs > 0) await this.#reconcileNow(updated);
      }
      return;
    }
    if (settled || row.state === 'mined') {
      // Its block left the canonical chain and no canonical block holds it: send it again under its nonce.
      // Counted by the process whose update marks it (every process watches every row of the signer).
      const marked = await this.#orm.em.fork().execute<{ id: string }[]>(
        `update chain_transactions set state = 'reorged', reorgs = reorgs + 1, updated_at = now()
           where id = ? and state = ? returning id`,
        [row.id, row.state],
      );
      if (marked.length > 0) {
        this.#stats.reorgs++;
        this.#emit('reorged');
      }
      row = { ...row, state: 'reorged', reorgs: row.reorgs + 1 };
    }
    if (Number(row.nonce) < minedCount && (await this.#nonceUsedElsewhere(row))) {
      // The nonce is used on the canonical chain, by none of our hashes: re-sign the intent under a new nonce.
      this.#stats.superseded++;
      this.#stats.nonceErrors++;
      await this.#send(
        {
          operationKeys: row.operation_keys,
          method: row.method,
          to: row.to_address,
          data: row.data,
          value: BigInt(row.value),
          gasLimit: BigInt(row.gas_limit),
        },
        row.id,
      );
      return;
    }
    const known = await this.#provider.getTransaction(row.tx_hash);
    if (!known) {
      // Read again: the round's snapshot may predate this row's broadcast or a bump by another process.
      const fresh = await this.#store.load(row.id);
      if (!fresh || fresh.tx_hash !== row.tx_hash || fresh.state !== row.state) return;
      row = fresh;
      if (row.state === 'sent') {
        this.#stats.drops++;
        this.#emit('dropped');
        await this.#orm.em
          .fork()
          .execute('update chain_transactions set drops = drops + 1 where id = ?', [row.id]);
      }
      this.#stats.rebroadcasts++;
      const outcome = await this.#broadcaster.broadcast(row);
      if (outcome === 'fee') await this.#broadcaster.bump(row);
      return;
    }
    const since = new Date(row.broadcast_at ?? row.created_at).getTime();
    if (Date.now() - since >= this.#stuckAfterMs) await this.#broadcaster.bump(row);
  }

  /** Asked again right now: the nonce is mined, none of our hashes is, and the node holds none of them. */
  async #nonceUsedElsewhere(row: Row): Promise<boolean> {
    const minedCount = await this.#provider.getTransactionCount(this.#address, 'latest');
    if (Number(row.nonce) >= minedCount) return false;
    if (await this.#receipt(row)) return false;
    for (const hash of row.tx_hashes) if (await this.#provider.getTransaction(hash)) return false;
    return true;
  }

  async #receipt(row: Row): Promise<TransactionReceipt | null> {
    for (const hash of [...row.tx_hashes].reverse()) {
      const receipt = await this.#provider.getTransactionReceipt(hash);
      if (receipt) return receipt;
    }
    return null;
  }

  async #reconcileNow(row: Row): Promise<void> {
    if (!this.#reconcile || row.block_number === null || row.block_hash === null) return;
    this.#reconciledAt.set(row.id, Date.now());
    await this.#reconcile({
      fromHashes: row.tx_hashes,
      txHash: row.tx_hash,
      blockNumber: Number(row.block_number),
      blockHash: row.block_hash,
    });
  }

  /**
   * A record written from the activity's result after the reorg was reconciled still names the old block: the
   * reorged rows are reconciled again every 10 s while they are within the reorg window.
   */
  async #reconcileLater(row: Row): Promise<void> {
    const last = this.#reconciledAt.get(row.id) ?? 0;
    if (Date.now() - last >= 10_000) await this.#reconcileNow(row);
  }
}
