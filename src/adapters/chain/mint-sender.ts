import { getAddress } from 'ethers';
import { isChainRevert } from './errors.ts';
import type { MintOrder, MintSender } from './mint-batcher.ts';
import { operationKey } from './operation-key.ts';
import type { PassportTransactions } from './passport-transactions.ts';
import type { TxResult } from './passport-types.ts';

/** Longest a sent mint holds later ones back while it waits for its block (MintBatcher). */
const INCLUSION_WAIT_MS = 10_000;

/**
 * How the MintBatcher's orders reach the chain: one order as a `mintWithId`, several as one `mintBatch`, both
 * through the transaction manager (a batch's row carries the operation keys of all its passports).
 */
export class ManagedMintSender implements MintSender {
  readonly #transactions: PassportTransactions;

  constructor(transactions: PassportTransactions) {
    this.#transactions = transactions;
  }

  single(order: MintOrder): Promise<TxResult> {
    return this.#transactions.write(
      'mintWithId',
      [getAddress(order.to), order.tokenId, order.metadataUri, order.chipHash],
      { onSubmitted: order.onSubmitted },
      order.depositWei,
      order.operationKey,
    );
  }

  async submitBatch(orders: MintOrder[]): Promise<string> {
    const tuples = orders.map((o) => [getAddress(o.to), o.tokenId, o.metadataUri, o.chipHash, o.depositWei]);
    const value = orders.reduce((sum, o) => sum + o.depositWei, 0n);
    const keys = orders.map((o) => o.operationKey ?? operationKey());
    return (await this.#transactions.send('mintBatch', keys, [tuples], value)).txHash;
  }

  wait(txHash: string): Promise<TxResult> {
    return this.#transactions.wait(txHash);
  }

  isRefusal(error: unknown): boolean {
    return isChainRevert(error);
  }

  /**
   * Resolves once the transaction is in a block, or once the chain made two blocks without it (stuck behind a
   * fee spike, dropped, replaced by a fee bump under another hash), at most after INCLUSION_WAIT_MS. Never
   * rejects: the mint batcher only uses it to decide how long to collect mints.
   */
  async included(txHash: string): Promise<void> {
    const { provider } = this.#transactions.reader;
    const deadline = Date.now() + INCLUSION_WAIT_MS;
    const poll = Math.min(this.#transactions.pollIntervalMs, 250);
    let start: number | undefined;
    try {
      while (Date.now() < deadline) {
        if (await provider.getTransactionReceipt(txHash)) return;
        const head = await provider.getBlockNumber();
        start ??= head;
        if (head >= start + 2) return;
        await new Promise((resolve) => setTimeout(resolve, poll));
      }
    } catch {
      // an unreachable node: stop holding mints back
    }
  }
}
