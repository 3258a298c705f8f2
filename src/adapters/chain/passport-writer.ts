import { getAddress } from 'ethers';
import { chipHash } from './chip-hash.ts';
import { MintBatcher } from './mint-batcher.ts';
import { ManagedMintSender } from './mint-sender.ts';
import { operationKey } from './operation-key.ts';
import type { PassportTransactions } from './passport-transactions.ts';
import type {
  MintRequest,
  TokenIdInput,
  TransactionOutcome,
  TxResult,
  WriteOptions,
} from './passport-types.ts';
import { toTokenId } from './token-id.ts';
import type { TransactionManager } from './transaction-manager.ts';

/** Most passports in one `mintBatch` (each costs ~65k gas; blocks hold 30M or more). */
export const DEFAULT_MINT_BATCH_MAX = 20;

/** This process's share of the signer's nonces (see PassportWriter.nonces). */
export interface NonceStats {
  sent: number;
  nonceErrors: number;
  resyncs: number;
}

/** A (batch) mint's result as one passport sees it: only the events about its token, when its id is known. */
function ownEvents(result: TxResult, tokenId: TokenIdInput | undefined): TxResult {
  if (tokenId === undefined) return result;
  const id = toTokenId(tokenId);
  return { ...result, events: result.events.filter((event) => event.args.tokenId === id) };
}

/**
 * The platform signer's writes to the passport contract, every one a transaction of the TransactionManager
 * (stored before broadcast, one per business operation, fee bumps, confirmations, reorg recovery). Writes wait
 * for the configured confirmations and throw ChainRevert (decoded custom error) when the contract refuses them.
 * Mints under reserved ids go through the MintBatcher (concurrent ones share a `mintBatch`).
 */
export class PassportWriter {
  readonly transactions: TransactionManager;
  readonly mints: MintBatcher;
  readonly #calls: PassportTransactions;

  constructor(calls: PassportTransactions, mintBatchMax = DEFAULT_MINT_BATCH_MAX) {
    this.#calls = calls;
    this.transactions = calls.manager;
    this.mints = new MintBatcher(new ManagedMintSender(calls), mintBatchMax);
  }

  /**
   * This process's share of the signer's nonces: transactions it signed under a fresh nonce, broadcasts the node
   * refused for their nonce, and resyncs (nonces it took up from the shared sequence rather than after its own
   * last one: its first send, or another process or sender used the key in between).
   */
  get nonces(): { stats: NonceStats } {
    const { sent, nonceErrors, resyncs } = this.transactions.stats;
    return { stats: { sent, nonceErrors, resyncs } };
  }

  /**
   * `firstAttempt`: the caller's first try of this operation (an activity's attempt 1), so no transaction can
   * carry its key yet and none is looked up; the manager's store still refuses a second one for the key.
   */
  async mint(
    request: MintRequest,
    options: WriteOptions & { firstAttempt?: boolean } = {},
  ): Promise<TxResult & { tokenId: string; chipHash: string }> {
    const hash = chipHash(request.chipUid);
    const deposit = request.depositWei ?? 0n;
    if (deposit < 0n) throw new RangeError('depositWei must not be negative');
    const to = getAddress(request.to);
    const key = `${operationKey(options.operationKey)}#mint`;
    const earlier = options.firstAttempt ? undefined : await this.transactions.findByOperation(key);
    const result = earlier
      ? ownEvents(await this.#calls.settle(earlier, options), request.tokenId)
      : request.tokenId === undefined
        ? await this.#calls.write('mint', [to, request.metadataUri, hash], options, deposit, key)
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
  logEvent(
    request: { tokenId: TokenIdInput; action: string; dataHash: string },
    options: WriteOptions = {},
  ): Promise<TxResult> {
    return this.#calls.write(
      'logEvent',
      [toTokenId(request.tokenId), request.action, request.dataHash],
      options,
    );
  }

  /**
   * Anchors one version of a passport with no token (model, batch): `subject` and the hashes are 0x-prefixed
   * 32 bytes (see versionSubject). Emits VersionAnchored; no storage.
   */
  anchorVersion(
    request: { subject: string; dataHash: string; publicDataHash: string },
    options: WriteOptions = {},
  ): Promise<TxResult> {
    return this.#calls.write(
      'anchorVersion',
      [request.subject, request.dataHash, request.publicDataHash],
      options,
    );
  }

  authorizeClaim(
    request: { tokenId: TokenIdInput; account: string },
    options: WriteOptions = {},
  ): Promise<TxResult> {
    return this.#calls.write(
      'authorizeClaim',
      [toTokenId(request.tokenId), getAddress(request.account)],
      options,
    );
  }

  revokeClaim(tokenId: TokenIdInput, options: WriteOptions = {}): Promise<TxResult> {
    return this.#calls.write('revokeClaim', [toTokenId(tokenId)], options);
  }

  /** The platform relays the claim of the authorized (gasless) account. */
  async claimOwnershipFor(
    request: { tokenId: TokenIdInput; account: string },
    options: WriteOptions = {},
  ): Promise<TxResult & { from: string; to: string }> {
    const result = await this.#calls.write(
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
    const result = await this.#calls.write(
      'recycle',
      [toTokenId(request.tokenId), getAddress(request.rewardReceiver)],
      options,
    );
    const recycled = result.events.find((e) => e.name === 'Recycled');
    if (!recycled) throw new Error(`recycle ${result.txHash} emitted no Recycled event`);
    return { ...result, amount: recycled.args.amount as bigint };
  }

  /**
   * What became of a transaction this service sent earlier (unknown: never reached the node or dropped). A hash
   * the manager sent is followed to the transaction carrying that write now (after fee bumps or a new nonce),
   * and anything it still drives is pending.
   */
  getTransactionOutcome(txHash: string): Promise<TransactionOutcome> {
    return this.#calls.outcome(txHash);
  }

  /** Waits for a known transaction like a write does (confirmations, ChainRevert on failure). */
  waitForTransaction(txHash: string): Promise<TxResult> {
    return this.#calls.wait(txHash);
  }
}
