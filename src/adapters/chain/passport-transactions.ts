import { operationKey } from './operation-key.ts';
import type { PassportReader } from './passport-reader.ts';
import type { TransactionOutcome, TxResult, WriteOptions } from './passport-types.ts';
import { type ReceiptWaitOptions, waitForReceipt } from './receipt-wait.ts';
import type { ChainTransaction, TransactionManager } from './transaction-manager.ts';

/**
 * The passport contract's calls as transactions of the TransactionManager: encoded, estimated (a refusal
 * surfaces as ChainRevert before a nonce is taken), stored and sent by the manager, then settled (confirmed or
 * reverted) with their passport events. The writer and the mint sender send through it; nothing else sends.
 */
export class PassportTransactions {
  readonly reader: PassportReader;
  readonly manager: TransactionManager;
  readonly #wait: ReceiptWaitOptions;

  constructor(reader: PassportReader, manager: TransactionManager, wait: ReceiptWaitOptions) {
    this.reader = reader;
    this.manager = manager;
    this.#wait = wait;
  }

  /**
   * One call as one business operation: the transaction already carrying its key (a retried activity), else a
   * new one; then waited for. `key`: the full operation key (default: the caller's operation key and the method).
   */
  async write(
    method: string,
    args: unknown[],
    options: WriteOptions,
    value = 0n,
    key = `${operationKey(options.operationKey)}#${method}`,
  ): Promise<TxResult> {
    const transaction =
      (await this.manager.findByOperation(key)) ?? (await this.send(method, [key], args, value));
    return this.settle(transaction, options);
  }

  /** Estimates (a refusal surfaces here, before a nonce is taken), then hands the intent to the manager. */
  async send(method: string, keys: string[], args: unknown[], value = 0n): Promise<ChainTransaction> {
    const { reader } = this;
    const request = {
      to: reader.contractAddress,
      data: reader.abi.encode(method, args).data,
      ...(value ? { value } : {}),
    };
    let gas: bigint;
    try {
      gas = await reader.provider.estimateGas({ from: this.manager.address, ...request });
    } catch (error) {
      throw reader.abi.revert(error) ?? error;
    }
    return this.manager.send({
      operationKeys: keys,
      method,
      to: request.to,
      data: request.data,
      value,
      gasLimit: (gas * 125n) / 100n,
    });
  }

  /** Announces the managed transaction's hash, waits for its confirmations and reads its result. */
  async settle(transaction: ChainTransaction, options: WriteOptions): Promise<TxResult> {
    await options.onSubmitted?.(transaction.txHash);
    const { receipt } = await this.manager.waitFor(transaction.id, this.#wait.timeoutMs);
    if (receipt.status !== 1) throw await this.reader.explainReceipt(receipt);
    return this.reader.resultOf(receipt);
  }

  /**
   * What became of a transaction this service sent earlier (unknown: never reached the node, dropped, or sent on
   * a chain replaced since). A hash the manager sent is followed to the transaction carrying that write now
   * (after fee bumps or a new nonce), and anything it still drives is pending.
   */
  async outcome(txHash: string): Promise<TransactionOutcome> {
    const managed = await this.manager.findByHash(txHash);
    if (managed) {
      if (managed.state === 'abandoned') return { status: 'unknown' };
      if (managed.state !== 'confirmed' && managed.state !== 'reverted') return { status: 'pending' };
      txHash = managed.txHash;
    }
    const { provider } = this.reader;
    const receipt = await provider.getTransactionReceipt(txHash);
    if (!receipt)
      return (await provider.getTransaction(txHash)) ? { status: 'pending' } : { status: 'unknown' };
    if (receipt.status !== 1) {
      return {
        status: 'reverted',
        txHash,
        blockNumber: receipt.blockNumber,
        error: await this.reader.explainReceipt(receipt),
      };
    }
    return {
      status: 'mined',
      confirmations: await receipt.confirmations(),
      ...this.reader.resultOf(receipt),
    };
  }

  /**
   * Waits for a known transaction like a write does (confirmations, ChainRevert on failure). One the manager
   * never sent (another key's, or one from before the manager) is only watched for its receipt.
   */
  async wait(txHash: string): Promise<TxResult> {
    const managed = await this.manager.findByHash(txHash);
    if (managed) return this.settle(managed, {});
    const receipt = await waitForReceipt(this.reader.provider, txHash, this.#wait);
    if (receipt.status !== 1) throw await this.reader.explainReceipt(receipt);
    return this.reader.resultOf(receipt);
  }

  /** How often a write polls (the mint sender's inclusion checks too). */
  get pollIntervalMs(): number {
    return this.#wait.pollIntervalMs;
  }
}
