import { ApplicationFailure, Context } from '@temporalio/activity';
import { isChainRevert } from '../src/chain/errors.ts';
import type { PassportChain } from '../src/chain/passport-chain.ts';

export interface ChainWrite {
  /** The transaction an earlier attempt of this activity submitted, if the node still knows it. */
  earlierTransaction(): Promise<string | undefined>;
  /** Pass as the write's `onSubmitted`: heartbeats the hash at once, so a retry after a crash finds it. */
  submitted(transactionHash: string): void;
}

/**
 * Runs one chain write inside an activity: heartbeats every 2 s while it waits (the workflow's heartbeat
 * timeout notices a dead worker in seconds), carries the submitted transaction hash in the heartbeat details,
 * and turns contract refusals that `run` did not handle into non-retryable `ChainRejected` failures.
 */
export async function runChainWrite<T>(
  chain: PassportChain,
  run: (write: ChainWrite) => Promise<T>,
): Promise<T> {
  const context = Context.current();
  const earlier = (context.info.heartbeatDetails as { transactionHash?: string } | undefined)
    ?.transactionHash;
  let details: { transactionHash?: string } = earlier ? { transactionHash: earlier } : {};
  const beat = setInterval(() => context.heartbeat(details), 2_000);
  try {
    return await run({
      earlierTransaction: async () => {
        if (!earlier) return undefined;
        const outcome = await chain.getTransactionOutcome(earlier);
        return outcome.status === 'mined' || outcome.status === 'pending' ? earlier : undefined;
      },
      submitted: (transactionHash) => {
        details = { transactionHash };
        context.heartbeat(details);
      },
    });
  } catch (error) {
    if (isChainRevert(error)) {
      throw ApplicationFailure.create({ message: error.message, type: 'ChainRejected', nonRetryable: true });
    }
    throw error;
  } finally {
    clearInterval(beat);
  }
}
