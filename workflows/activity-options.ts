import type { ActivityOptions, LocalActivityOptions } from '@temporalio/workflow';

/** Short database / IPFS steps: retried for a while; domain refusals (and the given types) are final. */
export function databaseStep(
  nonRetryable: string[] = [],
  overrides: { maximumAttempts?: number } = {},
): ActivityOptions {
  return {
    startToCloseTimeout: '30 seconds',
    retry: {
      initialInterval: '1 second',
      maximumInterval: '30 seconds',
      maximumAttempts: 10,
      nonRetryableErrorTypes: [...nonRetryable, 'DomainError'],
      ...overrides,
    },
  };
}

/**
 * A round of recording what is already on chain (see record-until-done.ts): three quick attempts, then the
 * workflow flags itself and waits for the next round instead of failing.
 */
export function recordingRound(): ActivityOptions {
  return databaseStep([], { maximumAttempts: 3 });
}

/**
 * Chain writes: long enough for confirmations, heartbeated (the activity heartbeats while it waits, so a
 * worker that dies mid-transaction is noticed in seconds); contract refusals (and the given types) are final.
 */
export function chainStep(nonRetryable: string[] = []): ActivityOptions {
  return {
    startToCloseTimeout: '3 minutes',
    heartbeatTimeout: '10 seconds',
    retry: {
      initialInterval: '2 seconds',
      maximumInterval: '1 minute',
      maximumAttempts: 20,
      nonRetryableErrorTypes: [...nonRetryable, 'ChainRejected', 'DomainError'],
    },
  };
}

/**
 * Calls to Stripe: retried for a while (the SDK sends an idempotency key per logical request, so a retry
 * never charges, refunds or transfers twice); Stripe's refusals of the request itself are final.
 */
export function paymentStep(nonRetryable: string[] = []): ActivityOptions {
  return {
    startToCloseTimeout: '1 minute',
    retry: {
      initialInterval: '2 seconds',
      maximumInterval: '5 minutes',
      maximumAttempts: 30,
      nonRetryableErrorTypes: [...nonRetryable, 'StripeRejected', 'DomainError'],
    },
  };
}

/**
 * A payout waits for its receiving accounts' verification (KYB/KYC), which takes people days: the activity
 * refuses until then and is retried hourly for up to 90 days; Stripe's refusals are final.
 */
export function payoutStep(): ActivityOptions {
  return {
    startToCloseTimeout: '1 minute',
    scheduleToCloseTimeout: '90 days',
    retry: {
      initialInterval: '1 minute',
      backoffCoefficient: 2,
      maximumInterval: '1 hour',
      nonRetryableErrorTypes: ['StripeRejected', 'DomainError'],
    },
  };
}

/**
 * The same short database / IPFS steps run as local activities: in the worker, inside the workflow task, so
 * they cost no task-queue round trips through the server (a mint spends most of its time there otherwise).
 * Retries are the same; a worker crash re-runs the step, which is why every such step is idempotent.
 */
export function localDatabaseStep(
  nonRetryable: string[] = [],
  overrides: { maximumAttempts?: number } = {},
): LocalActivityOptions {
  const { startToCloseTimeout, retry } = databaseStep(nonRetryable, overrides);
  return { startToCloseTimeout, retry, localRetryThreshold: '5 seconds' };
}
