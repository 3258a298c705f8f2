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

type Reads = PassportReader;
type Writes = PassportWriter;

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
      await chain.totalMinted();
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
  get nonces(): Writes['nonces'] {
    return this.writer.nonces;
  }

  // ---- writes (PassportWriter) ----

  mint(...args: Parameters<Writes['mint']>): ReturnType<Writes['mint']> {
    return this.writer.mint(...args);
  }
  logEvent(...args: Parameters<Writes['logEvent']>): ReturnType<Writes['logEvent']> {
    return this.writer.logEvent(...args);
  }
  authorizeClaim(...args: Parameters<Writes['authorizeClaim']>): ReturnType<Writes['authorizeClaim']> {
    return this.writer.authorizeClaim(...args);
  }
  revokeClaim(...args: Parameters<Writes['revokeClaim']>): ReturnType<Writes['revokeClaim']> {
    return this.writer.revokeClaim(...args);
  }
  claimOwnershipFor(
    ...args: Parameters<Writes['claimOwnershipFor']>
  ): ReturnType<Writes['claimOwnershipFor']> {
    return this.writer.claimOwnershipFor(...args);
  }
  recycle(...args: Parameters<Writes['recycle']>): ReturnType<Writes['recycle']> {
    return this.writer.recycle(...args);
  }
  getTransactionOutcome(txHash: string): ReturnType<Writes['getTransactionOutcome']> {
    return this.writer.getTransactionOutcome(txHash);
  }
  waitForTransaction(txHash: string): ReturnType<Writes['waitForTransaction']> {
    return this.writer.waitForTransaction(txHash);
  }

  // ---- reads (PassportReader) ----

  findTokenByChip(chipUid: string): ReturnType<Reads['findTokenByChip']> {
    return this.reader.findTokenByChip(chipUid);
  }
  findMintByChip(chipUid: string): ReturnType<Reads['findMintByChip']> {
    return this.reader.findMintByChip(chipUid);
  }
  ownerOf(...args: Parameters<Reads['ownerOf']>): ReturnType<Reads['ownerOf']> {
    return this.reader.ownerOf(...args);
  }
  tokenURI(...args: Parameters<Reads['tokenURI']>): ReturnType<Reads['tokenURI']> {
    return this.reader.tokenURI(...args);
  }
  depositOf(...args: Parameters<Reads['depositOf']>): ReturnType<Reads['depositOf']> {
    return this.reader.depositOf(...args);
  }
  isRecycled(...args: Parameters<Reads['isRecycled']>): ReturnType<Reads['isRecycled']> {
    return this.reader.isRecycled(...args);
  }
  claimantOf(...args: Parameters<Reads['claimantOf']>): ReturnType<Reads['claimantOf']> {
    return this.reader.claimantOf(...args);
  }
  chipHashOf(...args: Parameters<Reads['chipHashOf']>): ReturnType<Reads['chipHashOf']> {
    return this.reader.chipHashOf(...args);
  }
  totalMinted(): ReturnType<Reads['totalMinted']> {
    return this.reader.totalMinted();
  }
  lastTokenId(): ReturnType<Reads['lastTokenId']> {
    return this.reader.lastTokenId();
  }
  hasRole(role: 'admin' | 'minter', account = this.signerAddress): ReturnType<Reads['hasRole']> {
    return this.reader.hasRole(role, account);
  }
  blockTime(blockNumber: number): ReturnType<Reads['blockTime']> {
    return this.reader.blockTime(blockNumber);
  }
}
