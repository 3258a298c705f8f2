import { randomUUID } from 'node:crypto';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { isChainRevert } from '../src/adapters/chain/errors.ts';
import { withOperationKey } from '../src/adapters/chain/operation-key.ts';
import type { PassportWriter } from '../src/adapters/chain/passport-writer.ts';

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
 *
 * The writes `run` makes carry the activity's identity (workflow id, run id, activity id) as their business
 * operation key: the transaction manager gives every attempt of this activity one transaction, found in
 * the database even when the heartbeat did not get through or fee bumps changed the hash since.
 */
export async function runChainWrite<T>(
  chain: Pick<PassportWriter, 'getTransactionOutcome' | 'waitForTransaction'>,
  run: (write: ChainWrite) => Promise<T>,
): Promise<T> {
  const context = Context.current();
  const earlier = (context.info.heartbeatDetails as { transactionHash?: string } | undefined)
    ?.transactionHash;
  let details: { transactionHash?: string } = earlier ? { transactionHash: earlier } : {};
  const beat = setInterval(() => context.heartbeat(details), 2_000);
  const { workflowExecution, activityId } = context.info;
  const key = workflowExecution
    ? `activity:${workflowExecution.workflowId}/${workflowExecution.runId}/${activityId}`
    : `activity:${randomUUID()}`;
  try {
    return await withOperationKey(key, () =>
      run({
        earlierTransaction: async () => {
          if (!earlier) return undefined;
          const outcome = await chain.getTransactionOutcome(earlier);
          if (outcome.status === 'pending') {
            // The manager still drives it (maybe under a bumped hash): the hash it ends up mined under counts.
            return (await chain.waitForTransaction(earlier)).txHash;
          }
          return outcome.status === 'mined' ? outcome.txHash : undefined;
        },
        submitted: (transactionHash) => {
          details = { transactionHash };
          context.heartbeat(details);
        },
      }),
    );
  } catch (error) {
    if (isChainRevert(error)) {
      throw ApplicationFailure.create({ message: error.message, type: 'ChainRejected', nonRetryable: true });
    }
    throw error;
  } finally {
    clearInterval(beat);
  }
}
