import { isError } from 'ethers';

export interface PendingNonceSource {
  getTransactionCount(address: string, blockTag: 'pending'): Promise<number>;
}

const NONCE_TAKEN =
  /nonce too low|nonce has already been used|replacement transaction underpriced|replacement fee too low/i;
const NONCE_GAP = /nonce too high|nonce gap|invalid nonce/i;

/** 'taken': the nonce is used (mined or pending); 'gap': it is ahead of the account; undefined: not a nonce error. */
export function nonceErrorKind(error: unknown): 'taken' | 'gap' | undefined {
  if (isError(error, 'NONCE_EXPIRED') || isError(error, 'REPLACEMENT_UNDERPRICED')) return 'taken';
  const texts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const record = current as Record<string, unknown>;
    if (typeof record.message === 'string') texts.push(record.message);
    if (typeof record.shortMessage === 'string') texts.push(record.shortMessage);
    current = record.error ?? (record.info as Record<string, unknown> | undefined)?.error ?? record.cause;
  }
  const text = texts.join(' | ');
  if (NONCE_TAKEN.test(text)) return 'taken';
  if (NONCE_GAP.test(text)) return 'gap';
  return undefined;
}

/**
 * Hands out the nonces of one account in one process, one send at a time.
 *
 * The next nonce is read from the node's pending transaction count on first use, after any nonce
 * error and after any failed send (when it is unknown whether the node took the transaction), so a
 * restarted process continues after its predecessor's pending transactions. Only one NonceManager
 * (one process) may send for an account at a time; a second one works but pays with retries.
 */
export class NonceManager {
  readonly address: string;
  readonly stats = { sent: 0, nonceErrors: 0, resyncs: 0 };
  readonly #source: PendingNonceSource;
  readonly #maxAttempts: number;
  #next: number | undefined;
  #tail: Promise<void> = Promise.resolve();

  constructor(source: PendingNonceSource, address: string, options: { maxAttempts?: number } = {}) {
    this.#source = source;
    this.address = address;
    this.#maxAttempts = options.maxAttempts ?? 6;
  }

  /**
   * Runs `send(nonce)` exclusively; it must resolve once the node accepted the transaction.
   * On a nonce error the nonce is re-read from the node and `send` is called again with it.
   */
  async withNonce<T>(send: (nonce: number) => Promise<T>): Promise<T> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    try {
      return await this.#sendWithRetries(send);
    } finally {
      release();
    }
  }

  /** Forgets the cached nonce; the next send reads it from the node. */
  reset(): void {
    this.#next = undefined;
  }

  async #sendWithRetries<T>(send: (nonce: number) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const nonce = this.#next ?? (await this.#resync());
      try {
        const result = await send(nonce);
        this.#next = nonce + 1;
        this.stats.sent++;
        return result;
      } catch (error) {
        const kind = nonceErrorKind(error);
        this.#next = undefined;
        if (!kind || attempt >= this.#maxAttempts) throw error;
        this.stats.nonceErrors++;
        if (kind === 'taken') {
          // A load-balanced RPC may report a pending count that lags behind what we just saw used.
          this.#next = Math.max(await this.#resync(), nonce + 1);
        }
      }
    }
  }

  async #resync(): Promise<number> {
    this.stats.resyncs++;
    const pending = await this.#source.getTransactionCount(this.address, 'pending');
    this.#next = pending;
    return pending;
  }
}
