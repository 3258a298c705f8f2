import type { TxResult } from './passport-types.ts';

/** One `mintWithId` waiting for a transaction. */
export interface MintOrder {
  to: string;
  tokenId: bigint;
  metadataUri: string;
  chipHash: string;
  depositWei: bigint;
  onSubmitted?: ((txHash: string) => void | Promise<void>) | undefined;
  /** The business operation (transaction manager): a batch carries the keys of all its orders. */
  operationKey?: string | undefined;
}

/** How the batcher sends: one order alone (`mintWithId`) or several (`mintBatch`). */
export interface MintSender {
  /** Sends one order by itself and waits for it, as an unbatched mint would. */
  single(order: MintOrder): Promise<TxResult>;
  /**
   * Sends the orders as one `mintBatch` and resolves with its hash once the node accepted it. Rejects before
   * sending (nothing used) when the batch would revert.
   */
  submitBatch(orders: MintOrder[]): Promise<string>;
  /** Waits for a transaction like a write does (throws ChainRevert if it reverted). */
  wait(txHash: string): Promise<TxResult>;
  /** Whether an error is the contract refusing the call (then each order is retried alone). */
  isRefusal(error: unknown): boolean;
  /**
   * Resolves once a sent mint transaction is in a block, or once holding on for it is pointless (the chain
   * went on without it: stuck, dropped, replaced). Never rejects. Without it, nothing is held back.
   */
  included?(txHash: string): Promise<void>;
}

interface Queued {
  order: MintOrder;
  resolve(result: TxResult): void;
  reject(error: unknown): void;
}

/**
 * Puts mints that arrive while another mint transaction is being prepared and sent into one `mintBatch`
 * (at most `maxBatch` passports): a lone mint leaves at once as a plain `mintWithId`; under load one
 * transaction, one signature and one receipt serve many passports, which saves gas and lifts the limit of one
 * send per round trip to the node.
 *
 * While a mint transaction of this batcher waits for its block (a chain with a block time, not a node that mines
 * each transaction at once), further mints are held back until it is in a block or `maxBatch` of them wait
 * (Nagle's rule): they would land in the next block either way, and as one `mintBatch` they share its
 * per-transaction cost (the base fee of a transaction, the contract's per-mint record, counters and owner
 * balance). On a node that mines instantly this never waits.
 *
 * A batch is all or nothing on chain. If the contract would refuse it (one chip already minted, say) or
 * refuses it when mined, every order is sent again alone, so each one gets its own answer. Each order's
 * `onSubmitted` sees the hash of the transaction that carries it, so a crash-recovering caller waits for
 * that transaction.
 */
export class MintBatcher {
  readonly stats = { orders: 0, batches: 0, batchedOrders: 0, fallbacks: 0 };
  readonly #sender: MintSender;
  readonly #maxBatch: number;
  #queue: Queued[] = [];
  #sending = false;
  /** The last mint transaction sent, until it is in a block (see MintSender.included). */
  #inFlight: Promise<void> | undefined;
  /** Wakes a held pump once maxBatch orders wait. */
  #full: (() => void) | undefined;

  constructor(sender: MintSender, maxBatch: number) {
    if (!Number.isInteger(maxBatch) || maxBatch < 1)
      throw new RangeError('maxBatch must be a positive integer');
    this.#sender = sender;
    this.#maxBatch = maxBatch;
  }

  mint(order: MintOrder): Promise<TxResult> {
    this.stats.orders++;
    return new Promise<TxResult>((resolve, reject) => {
      this.#queue.push({ order, resolve, reject });
      if (this.#queue.length >= this.#maxBatch) this.#full?.();
      // After the current microtasks, so that mints requested together leave together.
      if (!this.#sending) setImmediate(() => this.#pump());
    });
  }

  async #pump(): Promise<void> {
    if (this.#sending || this.#queue.length === 0) return;
    this.#sending = true;
    try {
      await this.#hold();
      const taken = this.#queue.splice(0, this.#maxBatch);
      if (taken.length === 1) {
        const [only] = taken as [Queued];
        // Sent and waited for outside the pump's turn: only its submission holds the next batch back.
        const submitted = this.#single(only);
        await submitted;
      } else {
        await this.#batch(taken);
      }
    } finally {
      this.#sending = false;
      if (this.#queue.length > 0) setImmediate(() => this.#pump());
    }
  }

  /** Waits while the previous mint transaction is not in a block yet, unless a full batch is waiting. */
  async #hold(): Promise<void> {
    const inFlight = this.#inFlight;
    if (!inFlight || this.#queue.length >= this.#maxBatch) return;
    await Promise.race([
      inFlight,
      new Promise<void>((resolve) => {
        this.#full = resolve;
      }),
    ]);
    this.#full = undefined;
  }

  /** Remembers a sent transaction until it is in a block (the hold above). */
  #sent(txHash: string): void {
    const included = this.#sender.included?.(txHash).catch(() => {});
    if (!included) return;
    const inFlight = included.then(() => {
      if (this.#inFlight === inFlight) this.#inFlight = undefined;
    });
    this.#inFlight = inFlight;
  }

  /** Resolves once the order's transaction is submitted (or it failed); the order settles on its own. */
  #single(queued: Queued): Promise<void> {
    return new Promise<void>((submitted) => {
      const order = {
        ...queued.order,
        onSubmitted: async (txHash: string) => {
          this.#sent(txHash);
          submitted();
          await queued.order.onSubmitted?.(txHash);
        },
      };
      this.#sender.single(order).then(queued.resolve, queued.reject).finally(submitted);
    });
  }

  async #batch(taken: Queued[]): Promise<void> {
    let txHash: string;
    try {
      txHash = await this.#sender.submitBatch(taken.map((q) => q.order));
    } catch (error) {
      if (this.#sender.isRefusal(error)) this.#alone(taken);
      else for (const queued of taken) queued.reject(error);
      return;
    }
    this.#sent(txHash);
    this.stats.batches++;
    this.stats.batchedOrders += taken.length;
    const announced = taken.map(async (queued) => {
      await queued.order.onSubmitted?.(txHash);
      return queued;
    });
    const mined = this.#sender.wait(txHash);
    mined.catch(() => {});
    void Promise.allSettled(announced).then(async (outcomes) => {
      const waiting: Queued[] = [];
      for (const [i, outcome] of outcomes.entries()) {
        if (outcome.status === 'fulfilled') waiting.push(outcome.value);
        else taken[i]!.reject(outcome.reason);
      }
      try {
        const result = await mined;
        for (const queued of waiting) queued.resolve(resultFor(result, queued.order.tokenId));
      } catch (error) {
        if (this.#sender.isRefusal(error)) this.#alone(waiting);
        else for (const queued of waiting) queued.reject(error);
      }
    });
  }

  #alone(orders: Queued[]): void {
    this.stats.fallbacks++;
    for (const queued of orders) this.#sender.single(queued.order).then(queued.resolve, queued.reject);
  }
}

/** The batch's result as seen by one of its passports: only the events about its token. */
function resultFor(result: TxResult, tokenId: bigint): TxResult {
  return { ...result, events: result.events.filter((event) => event.args.tokenId === tokenId) };
}
