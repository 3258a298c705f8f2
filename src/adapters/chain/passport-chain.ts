import type { JsonRpcProvider } from 'ethers';
import { Wallet } from 'ethers';
import { createChainProvider } from './chain-provider.ts';
import { loadPassportArtifact, type PassportArtifact } from './compile.ts';
import type { MintBatcher } from './mint-batcher.ts';
import { PassportReader } from './passport-reader.ts';
import { PassportTransactions } from './passport-transactions.ts';
import type { PassportChainOptions } from './passport-types.ts';
import { PassportWriter } from './passport-writer.ts';
import { TransactionManager } from './transaction-manager.ts';

export { createChainProvider } from './chain-provider.ts';
export type * from './passport-types.ts';
export { toTokenId } from './token-id.ts';

/**
 * The DPP contract of one environment as the activities see it: a PassportReader (views, logs, block times)
 * and a PassportWriter (every write through the TransactionManager, on the service database), for one platform
 * signer.
 *
 * Idempotency: every write can be repeated safely after a crash: a write carries its business operation key
 * (`withOperationKey`, `WriteOptions.operationKey`) and waits for the transaction an earlier attempt stored; a
 * stored hash is resolved with `getTransactionOutcome` / `waitForTransaction`, a mint also by
 * `findMintByChip(chipUid)`.
 */
export class PassportChain {
  readonly reader: PassportReader;
  readonly writer: PassportWriter;
  readonly signerAddress: string;
  readonly #ownsProvider: boolean;

  constructor(options: PassportChainOptions) {
    const pollIntervalMs = options.pollIntervalMs ?? 1_000;
    if (!options.provider && !options.rpcUrl) throw new TypeError('PassportChain needs rpcUrl or provider');
    const provider = options.provider ?? createChainProvider(options.rpcUrl!, pollIntervalMs);
    this.#ownsProvider = !options.provider;
    this.reader = new PassportReader({
      provider,
      contractAddress: options.contractAddress,
      artifact: options.artifact ?? loadPassportArtifact(),
    });
    const wallet = new Wallet(options.privateKey, provider);
    this.signerAddress = wallet.address;
    const confirmations = options.confirmations ?? 1;
    const manager = new TransactionManager({
      ...options.transactions,
      provider,
      wallet,
      confirmations,
      pollIntervalMs,
    });
    const calls = new PassportTransactions(this.reader, manager, {
      confirmations,
      timeoutMs: options.receiptTimeoutMs ?? 120_000,
      pollIntervalMs,
    });
    this.writer = new PassportWriter(calls, options.mintBatchMax);
  }

  /** Like the constructor, but first checks that a passport contract answers at the address. */
  static async connect(options: PassportChainOptions): Promise<PassportChain> {
    const chain = new PassportChain(options);
    try {
      if ((await chain.provider.getCode(chain.contractAddress)) === '0x') throw new Error('no contract code');
      await chain.reader.totalMinted();
    } catch (error) {
      const { chainId } = await chain.provider.getNetwork();
      await chain.close();
      throw new Error(
        `no DigitalProductPassport contract at ${chain.contractAddress} on chain ${chainId}: ${(error as Error).message}`,
      );
    }
    return chain;
  }

  async close(): Promise<void> {
    this.transactions.stop();
    if (this.#ownsProvider) this.provider.destroy();
  }

  get provider(): JsonRpcProvider {
    return this.reader.provider;
  }
  get contractAddress(): string {
    return this.reader.contractAddress;
  }
  get artifact(): PassportArtifact {
    return this.reader.artifact;
  }
  /** Every write goes through it (chain_transactions). */
  get transactions(): TransactionManager {
    return this.writer.transactions;
  }
  /** Mints with reserved ids go through it: concurrent ones share a `mintBatch` transaction. */
  get mints(): MintBatcher {
    return this.writer.mints;
  }
  get nonces(): PassportWriter['nonces'] {
    return this.writer.nonces;
  }
}
