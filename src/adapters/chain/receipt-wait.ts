import type { FeeData, JsonRpcProvider, TransactionReceipt, TransactionRequest, Wallet } from 'ethers';
import { keccak256 } from 'ethers';
import type { NonceManager } from './nonce-errors.ts';

export interface CallRequest {
  to: string;
  data: string;
  value?: bigint;
}

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

const ALREADY_KNOWN = /already known|known transaction|already imported/i;

/**
 * Signs locally and broadcasts through the NonceManager. Gas and fees are fetched before taking the
 * nonce, so the critical section is one signature plus one eth_sendRawTransaction.
 */
export class TransactionSender {
  readonly #wallet: Wallet;
  readonly #provider: JsonRpcProvider;
  readonly #nonces: NonceManager;
  readonly #gasBufferPercent: number;
  #fees: { at: number; data: Promise<FeeData> } | undefined;

  constructor(
    wallet: Wallet,
    provider: JsonRpcProvider,
    nonces: NonceManager,
    options: { gasBufferPercent?: number } = {},
  ) {
    this.#wallet = wallet;
    this.#provider = provider;
    this.#nonces = nonces;
    this.#gasBufferPercent = options.gasBufferPercent ?? 25;
  }

  /** Estimates (a revert surfaces here, before any nonce is used), signs, broadcasts; returns the hash. */
  async submit(request: CallRequest): Promise<string> {
    const from = this.#wallet.address;
    const [gas, fees, network] = await Promise.all([
      this.#provider.estimateGas({ from, ...request }),
      this.#feeData(),
      this.#provider.getNetwork(),
    ]);
    const unsigned: TransactionRequest = {
      ...request,
      chainId: network.chainId,
      gasLimit: (gas * BigInt(100 + this.#gasBufferPercent)) / 100n,
      ...(fees.maxFeePerGas !== null && fees.maxPriorityFeePerGas !== null
        ? { type: 2, maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas }
        : { type: 0, gasPrice: fees.gasPrice ?? 0n }),
    };
    return this.#nonces.withNonce(async (nonce) => {
      const signed = await this.#wallet.signTransaction({ ...unsigned, nonce });
      const hash = keccak256(signed);
      try {
        await this.#provider.send('eth_sendRawTransaction', [signed]);
      } catch (error) {
        if (ALREADY_KNOWN.test(String((error as Error).message))) return hash;
        // A timed-out request may still have reached the node: then the nonce is used and all is well.
        if (await this.#provider.getTransaction(hash).catch(() => null)) return hash;
        throw error;
      }
      return hash;
    });
  }

  #feeData(): Promise<FeeData> {
    if (!this.#fees || Date.now() - this.#fees.at > 1_000) {
      const data = this.#provider.getFeeData();
      data.catch(() => {
        this.#fees = undefined;
      });
      this.#fees = { at: Date.now(), data };
    }
    return this.#fees.data;
  }
}
