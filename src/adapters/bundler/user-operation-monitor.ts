import type { Logger } from '../../platform/logging/logger.ts';
import { runPeriodically } from '../../platform/runtime/periodic.ts';
import type { SponsoredOperations, SponsoredRequest } from './sponsored-operations.ts';
import type { UserOperationRecord, UserOperationStore } from './user-operation-store.ts';

export interface UserOperationMonitorOptions {
  operations: SponsoredOperations;
  store: UserOperationStore;
  /** How many blocks back included operations are checked against the canonical chain (64 by default). */
  windowBlocks?: number;
  /**
   * The operation's request with its owner's key, for one the bundler refuses to take again as it was signed
   * (its sponsorship expired before the reorg): it is then signed again under its nonce. Undefined: sent as it was.
   */
  requestFor?: (record: UserOperationRecord) => Promise<SponsoredRequest | undefined>;
}

export interface UserOperationRound {
  /** Included operations whose block is no longer the canonical one at that height. */
  moved: number;
  /** Operations advanced (taken back now or earlier): found included again, or sent again. */
  advanced: number;
}

/**
 * The user operations' reorg watch, as the transaction monitor is the platform transactions' one: an operation
 * counts as included once its UserOperationEvent is seen, and the claim returns then; a reorg afterwards takes it
 * back without anyone waiting on it. Each round compares the block each recently included operation was recorded
 * in with the canonical block at that height; where they differ, SponsoredOperations.advance finds the operation
 * again (another block: recorded there) or marks it reorged and sends it again, and the next rounds follow it until
 * it is included once more and the records naming the old transaction are reconciled.
 */
export async function userOperationRound(options: UserOperationMonitorOptions): Promise<UserOperationRound> {
  const provider = options.operations.ctx.provider;
  const head = await provider.getBlockNumber();
  const rows = await options.store.watched(Math.max(0, head - (options.windowBlocks ?? 64)));
  const canonical = new Map<number, string | undefined>();
  let moved = 0;
  let advanced = 0;
  for (const row of rows) {
    if ((row.state === 'included' || row.state === 'reverted') && row.blockNumber !== null) {
      if (!canonical.has(row.blockNumber))
        canonical.set(row.blockNumber, (await provider.getBlock(row.blockNumber))?.hash ?? undefined);
      if (canonical.get(row.blockNumber) === row.blockHash) continue;
      moved++;
    }
    const request = await options.requestFor?.(row).catch(() => undefined);
    await options.operations.advance(row, request).catch(() => undefined); // a reverted re-run is recorded
    advanced++;
  }
  return { moved, advanced };
}

/** Runs userOperationRound every `everyMs` (2 s by default) until stopped. */
export function startUserOperationMonitor(
  options: UserOperationMonitorOptions & { logger: Logger; everyMs?: number },
): { stop(): Promise<void> } {
  return runPeriodically(
    options.everyMs ?? 2_000,
    async () => {
      const round = await userOperationRound(options);
      if (round.moved > 0)
        options.logger.warn(
          { operations: round.moved },
          'user operations taken back by a reorg: sending again',
        );
    },
    (error) => options.logger.warn({ err: error }, 'user operation monitor round failed'),
  );
}
