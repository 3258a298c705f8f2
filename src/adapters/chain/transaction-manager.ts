import type { JsonRpcProvider, TransactionReceipt } from 'ethers';
import { getAddress } from 'ethers';
import type { Orm } from '../../platform/db/orm.ts';
import { TransactionTimeoutError } from './receipt-wait.ts';
import { GWEI, TransactionBroadcaster } from './transaction-broadcaster.ts';
import { TransactionMonitor } from './transaction-monitor.ts';
import { type Row, TransactionStore, toTransaction } from './transaction-store.ts';
import type {
  ChainIntent,
  ChainTransaction,
  ChainTransactionEvent,
  ChainTransactionState,
  TransactionManagerOptions,
  TransactionObserver,
  TransactionStats,
} from './transaction-types.ts';

// The manager's parts live in their own files (store and nonces, broadcasting and fee bumps, the monitor); the
// names callers use stay importable from here.
export { OperationTakenError } from './transaction-store.ts';
export type {
  ChainIntent,
  ChainTransaction,
  ChainTransactionEvent,
  ChainTransactionState,
  ReorgChange,
  TransactionManagerOptions,
  TransactionObserver,
} from './transaction-types.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Every write of one signer on one chain, kept in PostgreSQL so that any process (and a restarted one) can see
 * and finish it.
 *
 * - **Intent before broadcast**: the nonce is taken from `chain_signers` under a row lock, and the signed
 *   transaction is stored with it in the same database transaction; only then is it broadcast. Several worker
 *   processes and hosts can send for one key: the lock orders them, the partial unique index on (chain, signer,
 *   nonce) refuses two live intents for one nonce. A process that dies before broadcasting leaves a `signed` row
 *   the next tick of any process broadcasts, so no nonce gap stays behind.
 * - **One transaction per business operation**: `send` is only called for an operation key without a live or
 *   confirmed transaction (`findByOperation`), so a retried activity waits for its earlier transaction, even
 *   after fee bumps changed its hash.
 * - **Stuck and dropped**: a transaction the node no longer knows is broadcast again (same signed bytes); one it
 *   knows but has not mined after `stuckAfterMs`, or one refused for its fees (a base-fee spike), is re-signed
 *   with higher fees under the same nonce. Every hash it was sent under is kept: whichever gets mined counts.
 * - **Confirmations on the canonical chain**: `confirmed` after `confirmations` blocks whose block hash is still
 *   the canonical one at that height. Confirmed transactions of the last `reorgWindowBlocks` are checked again:
 *   one whose block left the canonical chain becomes `reorged` and is broadcast again under its nonce (the same
 *   operation, never a second one); if that nonce was meanwhile used by another transaction, the intent is
 *   re-signed under a new nonce and the old row `superseded`. Once it is confirmed again, `reconcile` updates
 *   the records that named the old hash or block.
 */
export class TransactionManager {
  readonly stats: TransactionStats = {
    sent: 0,
    broadcasts: 0,
    rebroadcasts: 0,
    feeBumps: 0,
    drops: 0,
    reorgs: 0,
    superseded: 0,
    nonceErrors: 0,
    resyncs: 0,
    confirmed: 0,
  };
  readonly address: string;
  readonly #provider: JsonRpcProvider;
  readonly #confirmations: number;
  readonly #pollIntervalMs: number;
  readonly #observer: TransactionObserver | undefined;
  readonly #store: TransactionStore;
  readonly #broadcaster: TransactionBroadcaster;
  readonly #monitor: TransactionMonitor;
  #chainId: Promise<number> | undefined;
  /** The last nonce this process signed under (see stats.resyncs). */
  #lastNonce: number | undefined;
  #background: ReturnType<typeof setInterval> | undefined;

  constructor(options: TransactionManagerOptions) {
    const orm: Orm = options.orm;
    this.#provider = options.provider;
    this.address = getAddress(options.wallet.address);
    this.#confirmations = Math.max(1, options.confirmations);
    this.#pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.#observer = options.observer;
    const emit = (event: ChainTransactionEvent) => this.#emit(event);
    this.#store = new TransactionStore(orm, this.#provider, this.address, emit);
    this.#broadcaster = new TransactionBroadcaster({
      orm,
      provider: this.#provider,
      wallet: options.wallet,
      store: this.#store,
      bumpPercent: BigInt(Math.max(11, options.feeBumpPercent ?? 25)),
      feeCap: options.maxFeePerGasCap ?? 500n * GWEI,
      stats: this.stats,
      emit,
    });
    this.#monitor = new TransactionMonitor({
      orm,
      provider: this.#provider,
      store: this.#store,
      broadcaster: this.#broadcaster,
      address: this.address,
      confirmations: this.#confirmations,
      stuckAfterMs: options.stuckAfterMs ?? 30_000,
      window: options.reorgWindowBlocks ?? 64,
      reconcile: options.reconcile,
      observer: this.#observer,
      stats: this.stats,
      emit,
      chainId: () => this.chainId(),
      send: (intent, supersedes) => this.send(intent, supersedes),
    });
  }

  /** Checks open and recently confirmed transactions every poll interval, waiter or not (reorgs, drops). */
  start(): void {
    this.#background ??= setInterval(
      () => void this.tick().catch(() => {}),
      Math.max(this.#pollIntervalMs, 500),
    );
    this.#background.unref?.();
  }

  stop(): void {
    if (this.#background) clearInterval(this.#background);
    this.#background = undefined;
  }

  chainId(): Promise<number> {
    this.#chainId ??= this.#provider.getNetwork().then((network) => Number(network.chainId));
    this.#chainId.catch(() => {
      this.#chainId = undefined;
    });
    return this.#chainId;
  }

  // ---- sending ----

  /**
   * Stores the intent under the next nonce, then broadcasts it. Resolves with the stored row, or with the
   * transaction another process stored for the same (single) operation meanwhile.
   */
  async send(intent: ChainIntent, supersedes?: string): Promise<ChainTransaction> {
    const chainId = await this.chainId();
    await this.#store.sameChain(chainId);
    const [pending, fees] = await Promise.all([
      this.#provider.getTransactionCount(this.address, 'pending'),
      this.#broadcaster.currentFees(),
    ]);
    const stored = await this.#store.storeIntent(
      chainId,
      intent,
      pending,
      fees,
      this.#confirmations,
      (nonce) => {
        // Under the signer's lock: nonces come here in the order they are handed out.
        if (this.#lastNonce === undefined || nonce !== this.#lastNonce + 1) this.stats.resyncs++;
        this.#lastNonce = nonce;
        return this.#broadcaster.sign(chainId, intent, nonce, fees);
      },
      supersedes,
    );
    if (stored.existing) return toTransaction(stored.existing);
    if (supersedes) this.#emit('superseded');
    const row = stored.inserted!;
    this.stats.sent++;
    this.#emit('signed');
    const outcome = await this.#broadcaster.broadcastFresh(row);
    if (outcome === 'nonce') this.stats.nonceErrors++;
    return toTransaction((await this.#store.load(row.id)) ?? row);
  }

  /** The live or confirmed transaction carrying an operation (not a superseded or reverted one). */
  async findByOperation(key: string): Promise<ChainTransaction | undefined> {
    const row = await this.#store.findByOperation(await this.chainId(), key);
    return row ? toTransaction(row) : undefined;
  }

  /** The transaction sent under `txHash` at any time (a fee bump or a new nonce since: its current row). */
  async findByHash(txHash: string): Promise<ChainTransaction | undefined> {
    const found = await this.#store.findByHash(await this.chainId(), txHash);
    const row = found ? await this.#store.current(found) : undefined;
    return row ? toTransaction(row) : undefined;
  }

  /** Waits until the transaction (or the one that superseded it) is confirmed or reverted; its receipt. */
  async waitFor(
    id: string,
    timeoutMs: number,
  ): Promise<{ transaction: ChainTransaction; receipt: TransactionReceipt }> {
    const deadline = Date.now() + timeoutMs;
    let last: Row | undefined;
    for (;;) {
      try {
        await this.#monitor.freshTick();
      } catch {
        // An RPC or database hiccup: the next round tries again until the deadline.
      }
      last = await this.#store.load(id).catch(() => last);
      if (last) last = await this.#store.current(last);
      if (last?.state === 'abandoned')
        throw new Error(`transaction ${last.tx_hash} was abandoned: ${last.last_error}`);
      if (last && (last.state === 'confirmed' || last.state === 'reverted')) {
        const receipt = await this.#provider.getTransactionReceipt(last.tx_hash).catch(() => null);
        if (receipt && receipt.blockHash === last.block_hash)
          return { transaction: toTransaction(last), receipt };
      }
      if (Date.now() >= deadline)
        throw new TransactionTimeoutError(last?.tx_hash ?? `#${id}`, timeoutMs, this.#confirmations);
      await sleep(Math.min(this.#pollIntervalMs, Math.max(0, deadline - Date.now())));
    }
  }

  /** Transactions of this signer, newest first (operators: also the `chain_transactions_overview` view). */
  async list(
    options: { states?: ChainTransactionState[]; limit?: number } = {},
  ): Promise<ChainTransaction[]> {
    const states = options.states ?? [];
    const rows = await this.#store.list(await this.chainId(), states, Math.min(options.limit ?? 100, 1000));
    return rows.map(toTransaction);
  }

  // ---- monitoring ----

  /** One round over the open and recently confirmed transactions; concurrent callers share it. */
  tick(): Promise<void> {
    return this.#monitor.tick();
  }

  #emit(event: ChainTransactionEvent): void {
    try {
      this.#observer?.event(event);
    } catch {
      // Metrics never stop a write.
    }
  }
}
