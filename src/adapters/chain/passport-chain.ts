import type { JsonRpcProvider, Result, TransactionReceipt } from 'ethers';
import { getAddress, JsonRpcProvider as Provider, toBeHex, Wallet, ZeroAddress } from 'ethers';
import { chipHash } from './chip-hash.ts';
import { loadPassportArtifact, type PassportArtifact } from './compile.ts';
import { ChainRevert, isChainRevert } from './errors.ts';
import { FailoverJsonRpcProvider, rpcUrlList } from './failover-provider.ts';
import { MintBatcher, type MintOrder } from './mint-batcher.ts';
import { NonceManager } from './nonce-errors.ts';
import { operationKey } from './operation-key.ts';
import { PassportAbi } from './passport-abi.ts';
import type {
  MintRecord,
  MintRequest,
  PassportChainOptions,
  TokenIdInput,
  TransactionOutcome,
  TxResult,
  WriteOptions,
} from './passport-types.ts';
import { type ChainTransaction, TransactionManager } from './transaction-manager.ts';
import { type CallRequest, TransactionSender, waitForReceipt } from './receipt-wait.ts';

export type * from './passport-types.ts';

/**
 * ethers provider settings that behave against anvil and real nodes alike. `rpcUrl` may list several endpoints
 * of the chain separated by commas (CHAIN_RPC_URL_*): then a FailoverJsonRpcProvider moves to the next one when
 * the current one cannot be reached.
 */
export function createChainProvider(rpcUrl: string, pollIntervalMs = 1_000): JsonRpcProvider {
  const urls = rpcUrlList(rpcUrl);
  // cacheTimeout -1: no 250 ms response cache (it returns stale pending nonces and receipts).
  const options = {
    staticNetwork: true,
    cacheTimeout: -1,
    pollingInterval: pollIntervalMs,
    // No 10 ms batching window: the nonce manager sends one transaction at a time, and each would wait it out.
    batchMaxCount: 1,
  };
  return urls.length > 1
    ? new FailoverJsonRpcProvider(urls, options)
    : new Provider(urls[0], undefined, options);
}

/** Block timestamps remembered (blocks of recent writes). */
const RECENT_BLOCKS = 64;

/** Longest a sent mint holds later ones back while it waits for its block (MintBatcher). */
const INCLUSION_WAIT_MS = 10_000;

/** Most passports in one `mintBatch` (each costs ~65k gas; blocks hold 30M or more). */
const DEFAULT_MINT_BATCH_MAX = 20;

/** A (batch) mint's result as one passport sees it: only the events about its token, when its id is known. */
function ownEvents(result: TxResult, tokenId: TokenIdInput | undefined): TxResult {
  if (tokenId === undefined) return result;
  const id = toTokenId(tokenId);
  return { ...result, events: result.events.filter((event) => event.args.tokenId === id) };
}

export function toTokenId(value: TokenIdInput): bigint {
  const text = String(value);
  if (!/^[1-9][0-9]*$/.test(text)) throw new TypeError(`token id must be a positive integer, got "${text}"`);
  return BigInt(text);
}

/**
 * The DPP contract of one environment, driven by the platform signer. Writes wait for the configured
 * confirmations and throw ChainRevert (decoded custom error) when the contract refuses them.
 *
 * Idempotency: every write can be repeated safely after a crash by checking state first, e.g. mint:
 * `findTokenByChip(chipUid)` returns the token a previous attempt minted; a stored tx hash can be
 * resolved with `getTransactionOutcome` / `waitForTransaction`.
 */
export class PassportChain {
  readonly provider: JsonRpcProvider;
  readonly contractAddress: string;
  readonly signerAddress: string;
  readonly artifact: PassportArtifact;
  readonly nonces: NonceManager;
  readonly #abi: PassportAbi;
  readonly #sender: TransactionSender;
  readonly #ownsProvider: boolean;
  readonly #wait: { confirmations: number; timeoutMs: number; pollIntervalMs: number };
  readonly #blockTimes = new Map<number, Promise<string>>();
  /** Mints with reserved ids go through it: concurrent ones share a `mintBatch` transaction. */
  readonly mints: MintBatcher;
  /** Every write goes through it when the chain was opened with `transactions` (else the NonceManager). */
  readonly transactions: TransactionManager | undefined;

  constructor(options: PassportChainOptions) {
    const pollIntervalMs = options.pollIntervalMs ?? 1_000;
    if (!options.provider && !options.rpcUrl) throw new TypeError('PassportChain needs rpcUrl or provider');
    this.provider = options.provider ?? createChainProvider(options.rpcUrl!, pollIntervalMs);
    this.#ownsProvider = !options.provider;
    this.contractAddress = getAddress(options.contractAddress);
    this.artifact = options.artifact ?? loadPassportArtifact();
    this.#abi = new PassportAbi(this.artifact.abi, this.contractAddress);
    const wallet = new Wallet(options.privateKey, this.provider);
    this.signerAddress = wallet.address;
    this.nonces = new NonceManager(this.provider, wallet.address);
    this.#sender = new TransactionSender(wallet, this.provider, this.nonces);
    this.transactions = options.transactions
      ? new TransactionManager({
          ...options.transactions,
          provider: this.provider,
          wallet,
          confirmations: options.confirmations ?? 1,
          pollIntervalMs,
        })
      : undefined;
    this.mints = new MintBatcher(
      {
        single: (order) =>
          this.#write(
            'mintWithId',
            [getAddress(order.to), order.tokenId, order.metadataUri, order.chipHash],
            { onSubmitted: order.onSubmitted },
            order.depositWei,
            order.operationKey,
          ),
        submitBatch: (orders) => this.#submitMintBatch(orders),
        wait: (txHash) => this.waitForTransaction(txHash),
        isRefusal: (error) => isChainRevert(error),
        included: (txHash) => this.#included(txHash),
      },
      options.mintBatchMax ?? DEFAULT_MINT_BATCH_MAX,
    );
    this.#wait = {
      confirmations: options.confirmations ?? 1,
      timeoutMs: options.receiptTimeoutMs ?? 120_000,
      pollIntervalMs,
    };
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
    this.transactions?.stop();
    if (this.#ownsProvider) this.provider.destroy();
  }

  // ---- writes ----

  async mint(
    request: MintRequest,
    options: WriteOptions = {},
  ): Promise<TxResult & { tokenId: string; chipHash: string }> {
    const hash = chipHash(request.chipUid);
    const deposit = request.depositWei ?? 0n;
    if (deposit < 0n) throw new RangeError('depositWei must not be negative');
    const to = getAddress(request.to);
    const key = `${operationKey(options.operationKey)}#mint`;
    const earlier = this.transactions && (await this.transactions.findByOperation(key));
    const result = earlier
      ? ownEvents(await this.#settle(earlier, options), request.tokenId)
      : request.tokenId === undefined
        ? await this.#write('mint', [to, request.metadataUri, hash], options, deposit, key)
        : await this.mints.mint({
            to,
            tokenId: toTokenId(request.tokenId),
            metadataUri: request.metadataUri,
            chipHash: hash,
            depositWei: deposit,
            onSubmitted: options.onSubmitted,
            operationKey: key,
          });
    const minted = result.events.find(
      (e) =>
        e.name === 'Minted' &&
        (request.tokenId === undefined || e.args.tokenId === toTokenId(request.tokenId)),
    );
    if (!minted) throw new Error(`mint ${result.txHash} emitted no Minted event`);
    return { ...result, tokenId: String(minted.args.tokenId), chipHash: hash };
  }

  /** `dataHash`: 0x-prefixed 32 bytes committing to the off-chain event data. */
  async logEvent(
    request: { tokenId: TokenIdInput; action: string; dataHash: string },
    options: WriteOptions = {},
  ): Promise<TxResult> {
    return this.#write('logEvent', [toTokenId(request.tokenId), request.action, request.dataHash], options);
  }

  async authorizeClaim(
    request: { tokenId: TokenIdInput; account: string },
    options: WriteOptions = {},
  ): Promise<TxResult> {
    return this.#write('authorizeClaim', [toTokenId(request.tokenId), getAddress(request.account)], options);
  }

  async revokeClaim(tokenId: TokenIdInput, options: WriteOptions = {}): Promise<TxResult> {
    return this.#write('revokeClaim', [toTokenId(tokenId)], options);
  }

  /** The platform relays the claim of the authorized (gasless) account. */
  async claimOwnershipFor(
    request: { tokenId: TokenIdInput; account: string },
    options: WriteOptions = {},
  ): Promise<TxResult & { from: string; to: string }> {
    const result = await this.#write(
      'claimOwnershipFor',
      [toTokenId(request.tokenId), getAddress(request.account)],
      options,
    );
    const claimed = result.events.find((e) => e.name === 'OwnershipClaimed');
    if (!claimed) throw new Error(`claim ${result.txHash} emitted no OwnershipClaimed event`);
    return { ...result, from: claimed.args.from as string, to: claimed.args.to as string };
  }

  async recycle(
    request: { tokenId: TokenIdInput; rewardReceiver: string },
    options: WriteOptions = {},
  ): Promise<TxResult & { amount: bigint }> {
    const result = await this.#write(
      'recycle',
      [toTokenId(request.tokenId), getAddress(request.rewardReceiver)],
      options,
    );
    const recycled = result.events.find((e) => e.name === 'Recycled');
    if (!recycled) throw new Error(`recycle ${result.txHash} emitted no Recycled event`);
    return { ...result, amount: recycled.args.amount as bigint };
  }

  // ---- reads ----

  async findTokenByChip(chipUid: string): Promise<string | null> {
    const tokenId = (await this.#read('tokenOfChip', [chipHash(chipUid)]))[0] as bigint;
    return tokenId === 0n ? null : tokenId.toString();
  }

  /** The mint of a chip with its transaction, or null: one view call plus one single-block log query. */
  async findMintByChip(chipUid: string): Promise<MintRecord | null> {
    const tokenId = await this.findTokenByChip(chipUid);
    if (tokenId === null) return null;
    const block = Number((await this.#read('mintBlockOf', [BigInt(tokenId)]))[0] as bigint);
    const minted = this.#abi.interface.getEvent('Minted')!;
    const logs = await this.provider.getLogs({
      address: this.contractAddress,
      fromBlock: block,
      toBlock: block,
      topics: [minted.topicHash, toBeHex(BigInt(tokenId), 32)],
    });
    const log = logs[0];
    const event = log && this.#abi.events([log])[0];
    if (!log || !event) throw new Error(`token ${tokenId} has no Minted event in block ${block}`);
    return {
      tokenId,
      chipHash: event.args.chipHash as string,
      owner: event.args.owner as string,
      metadataUri: event.args.metadataUri as string,
      deposit: event.args.deposit as bigint,
      txHash: log.transactionHash,
      blockNumber: block,
    };
  }

  async ownerOf(tokenId: TokenIdInput): Promise<string> {
    return (await this.#read('ownerOf', [toTokenId(tokenId)]))[0] as string;
  }

  async tokenURI(tokenId: TokenIdInput): Promise<string> {
    return (await this.#read('tokenURI', [toTokenId(tokenId)]))[0] as string;
  }

  async depositOf(tokenId: TokenIdInput): Promise<bigint> {
    return (await this.#read('depositOf', [toTokenId(tokenId)]))[0] as bigint;
  }

  async isRecycled(tokenId: TokenIdInput): Promise<boolean> {
    return (await this.#read('isRecycled', [toTokenId(tokenId)]))[0] as boolean;
  }

  async claimantOf(tokenId: TokenIdInput): Promise<string | null> {
    const account = (await this.#read('claimantOf', [toTokenId(tokenId)]))[0] as string;
    return account === ZeroAddress ? null : account;
  }

  async chipHashOf(tokenId: TokenIdInput): Promise<string> {
    return (await this.#read('chipHashOf', [toTokenId(tokenId)]))[0] as string;
  }

  /** Number of passports minted (recycled ones included). */
  async totalMinted(): Promise<bigint> {
    return (await this.#read('totalMinted', []))[0] as bigint;
  }

  /** Highest token id minted so far (0: none). */
  async lastTokenId(): Promise<string> {
    return ((await this.#read('lastTokenId', []))[0] as bigint).toString();
  }

  async hasRole(role: 'admin' | 'minter', account = this.signerAddress): Promise<boolean> {
    const roleId =
      role === 'admin' ? `0x${'00'.repeat(32)}` : ((await this.#read('MINTER_ROLE', []))[0] as string);
    return (await this.#read('hasRole', [roleId, getAddress(account)]))[0] as boolean;
  }

  /**
   * When a block was made, as an ISO timestamp (now, if the node does not know the block). The passports of
   * one mintBatch share a block, so recent answers are kept.
   */
  blockTime(blockNumber: number): Promise<string> {
    let known = this.#blockTimes.get(blockNumber);
    if (!known) {
      known = this.provider
        .getBlock(blockNumber)
        .then((block) => new Date((block?.timestamp ?? Math.floor(Date.now() / 1000)) * 1000).toISOString());
      known.catch(() => this.#blockTimes.delete(blockNumber));
      this.#blockTimes.set(blockNumber, known);
      if (this.#blockTimes.size > RECENT_BLOCKS)
        this.#blockTimes.delete(this.#blockTimes.keys().next().value!);
    }
    return known;
  }

  // ---- transactions by hash (crash recovery) ----

  /**
   * What became of a transaction this service sent earlier (unknown: never reached the node or dropped). With a
   * transaction manager, a hash it sent is followed to the transaction carrying that write now (after fee bumps
   * or a new nonce), and anything it still drives is pending.
   */
  async getTransactionOutcome(txHash: string): Promise<TransactionOutcome> {
    const managed = await this.transactions?.findByHash(txHash);
    if (managed) {
      if (managed.state === 'abandoned') return { status: 'unknown' };
      if (managed.state !== 'confirmed' && managed.state !== 'reverted') return { status: 'pending' };
      txHash = managed.txHash;
    }
    const receipt = await this.provider.getTransactionReceipt(txHash);
    if (!receipt) {
      return (await this.provider.getTransaction(txHash)) ? { status: 'pending' } : { status: 'unknown' };
    }
    if (receipt.status !== 1) {
      return {
        status: 'reverted',
        txHash,
        blockNumber: receipt.blockNumber,
        error: await this.#explainReceipt(receipt),
      };
    }
    return { status: 'mined', confirmations: await receipt.confirmations(), ...this.#result(receipt) };
  }

  /** Waits for a known transaction like a write does (confirmations, ChainRevert on failure). */
  async waitForTransaction(txHash: string): Promise<TxResult> {
    const managed = await this.transactions?.findByHash(txHash);
    if (managed) return this.#settle(managed, {});
    const receipt = await waitForReceipt(this.provider, txHash, this.#wait);
    if (receipt.status !== 1) throw await this.#explainReceipt(receipt);
    return this.#result(receipt);
  }

  // ---- internals ----

  /** `key`: the full operation key (default: the caller's operation key and the method). */
  async #write(
    method: string,
    args: unknown[],
    options: WriteOptions,
    value?: bigint,
    key = `${operationKey(options.operationKey)}#${method}`,
  ): Promise<TxResult> {
    const request: CallRequest = {
      to: this.contractAddress,
      data: this.#abi.encode(method, args).data,
      ...(value ? { value } : {}),
    };
    if (this.transactions) {
      const transaction =
        (await this.transactions.findByOperation(key)) ?? (await this.#sendManaged(method, [key], request));
      return this.#settle(transaction, options);
    }
    let txHash: string;
    try {
      txHash = await this.#sender.submit(request);
    } catch (error) {
      throw this.#abi.revert(error) ?? error;
    }
    await options.onSubmitted?.(txHash);
    return this.waitForTransaction(txHash);
  }

  async #submitMintBatch(orders: MintOrder[]): Promise<string> {
    const tuples = orders.map((o) => [getAddress(o.to), o.tokenId, o.metadataUri, o.chipHash, o.depositWei]);
    const value = orders.reduce((sum, o) => sum + o.depositWei, 0n);
    if (this.transactions) {
      const keys = orders.map((o) => o.operationKey ?? operationKey());
      const data = this.#abi.encode('mintBatch', [tuples]).data;
      const sent = await this.#sendManaged('mintBatch', keys, {
        to: this.contractAddress,
        data,
        ...(value ? { value } : {}),
      });
      return sent.txHash;
    }
    try {
      return await this.#sender.submit({
        to: this.contractAddress,
        data: this.#abi.encode('mintBatch', [tuples]).data,
        ...(value ? { value } : {}),
      });
    } catch (error) {
      throw this.#abi.revert(error) ?? error;
    }
  }

  /**
   * Resolves once the transaction is in a block, or once the chain made two blocks without it (stuck behind a
   * fee spike, dropped, replaced by a fee bump under another hash), at most after INCLUSION_WAIT_MS. Never
   * rejects: the mint batcher only uses it to decide how long to collect mints.
   */
  async #included(txHash: string): Promise<void> {
    const deadline = Date.now() + INCLUSION_WAIT_MS;
    const poll = Math.min(this.#wait.pollIntervalMs, 250);
    let start: number | undefined;
    try {
      while (Date.now() < deadline) {
        if (await this.provider.getTransactionReceipt(txHash)) return;
        const head = await this.provider.getBlockNumber();
        start ??= head;
        if (head >= start + 2) return;
        await new Promise((resolve) => setTimeout(resolve, poll));
      }
    } catch {
      // an unreachable node: stop holding mints back
    }
  }

  /** Estimates (a refusal surfaces here, before a nonce is taken), then hands the intent to the manager. */
  async #sendManaged(method: string, keys: string[], request: CallRequest): Promise<ChainTransaction> {
    let gas: bigint;
    try {
      gas = await this.provider.estimateGas({ from: this.signerAddress, ...request });
    } catch (error) {
      throw this.#abi.revert(error) ?? error;
    }
    return this.transactions!.send({
      operationKeys: keys,
      method,
      to: request.to,
      data: request.data,
      value: request.value ?? 0n,
      gasLimit: (gas * 125n) / 100n,
    });
  }

  /** Announces the managed transaction's hash, waits for its confirmations and reads its result. */
  async #settle(transaction: ChainTransaction, options: WriteOptions): Promise<TxResult> {
    await options.onSubmitted?.(transaction.txHash);
    const { receipt } = await this.transactions!.waitFor(transaction.id, this.#wait.timeoutMs);
    if (receipt.status !== 1) throw await this.#explainReceipt(receipt);
    return this.#result(receipt);
  }

  async #read(method: string, args: unknown[]): Promise<Result> {
    const { fragment, data } = this.#abi.encode(method, args);
    try {
      return this.#abi.decodeResult(fragment, await this.provider.call({ to: this.contractAddress, data }));
    } catch (error) {
      throw this.#abi.revert(error) ?? error;
    }
  }

  /** Replays a failed transaction on the state of its block to recover the revert reason. */
  async #explainReceipt(receipt: TransactionReceipt): Promise<ChainRevert> {
    const tx = await this.provider.getTransaction(receipt.hash);
    if (tx) {
      try {
        await this.provider.call({
          from: tx.from,
          to: tx.to,
          data: tx.data,
          value: tx.value,
          blockTag: receipt.blockNumber,
        });
      } catch (error) {
        const decoded = this.#abi.revert(error, receipt.hash);
        if (decoded) return decoded;
      }
    }
    return new ChainRevert({
      name: 'TransactionReverted',
      txHash: receipt.hash,
      detail: `reverted in block ${receipt.blockNumber} (gas used ${receipt.gasUsed}); replaying it does not reproduce the reason`,
    });
  }

  #result(receipt: TransactionReceipt): TxResult {
    return { txHash: receipt.hash, blockNumber: receipt.blockNumber, events: this.#abi.events(receipt.logs) };
  }
}
