import type { JsonRpcProvider, TransactionReceipt } from 'ethers';

export interface ReceiptWaitOptions {
  confirmations: number;
  timeoutMs: number;
  pollIntervalMs: number;
}

/** No receipt (with enough confirmations) in time. The transaction may still be mined later. */
export class TransactionTimeoutError extends Error {
  readonly code = 'CHAIN_TIMEOUT';
  readonly txHash: string;
  constructor(txHash: string, timeoutMs: number, confirmations: number) {
    super(`transaction ${txHash} has no receipt with ${confirmations} confirmation(s) after ${timeoutMs} ms`);
    this.name = 'TransactionTimeoutError';
    this.txHash = txHash;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls for the receipt until it has `confirmations` blocks (its own included). */
export async function waitForReceipt(
  provider: JsonRpcProvider,
  txHash: string,
  options: ReceiptWaitOptions,
): Promise<TransactionReceipt> {
  const deadline = Date.now() + options.timeoutMs;
  let delay = Math.min(20, options.pollIntervalMs);
  for (;;) {
    const receipt = await provider.getTransactionReceipt(txHash);
    if (receipt) {
      if (options.confirmations <= 1) return receipt;
      const head = await provider.getBlockNumber();
      if (head - receipt.blockNumber + 1 >= options.confirmations) return receipt;
    }
    if (Date.now() >= deadline)
      throw new TransactionTimeoutError(txHash, options.timeoutMs, options.confirmations);
    await sleep(Math.min(delay, Math.max(0, deadline - Date.now())));
    delay = Math.min(delay * 2, options.pollIntervalMs);
  }
}
