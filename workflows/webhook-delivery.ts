import {
  ActivityFailure,
  defineQuery,
  proxyActivities,
  proxyLocalActivities,
  type RetryPolicy,
  setHandler,
  sleep,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import {
  ATTEMPT_DELAYS_MS,
  type AttemptOutcome,
  type DeliveryProgress,
  type WebhookDeliveryInput,
  type WebhookDeliveryResult,
} from '../src/processes/webhook-delivery.ts';

export { ATTEMPT_DELAYS_MS };

export const deliveryProgressQuery = defineQuery<DeliveryProgress>('deliveryProgress');

// One attempt is one HTTP POST: never retried by Temporal, the schedule above is the only retry.
const http = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 1 },
});

const retry: RetryPolicy = { initialInterval: '1 second', maximumInterval: '1 minute', maximumAttempts: 10 };
const records = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry });
// Opening the delivery is a short, repeatable statement or two: a local activity spares a server round trip.
const lookup = proxyLocalActivities<Activities>({ startToCloseTimeout: '30 seconds', retry });

/**
 * Delivers one event to one endpoint (id `webhook:{eventId}:{endpointId}`):
 * attempt 1 at once; after each failure wait 5 m, 15 m, 1 h, 4 h, 12 h and try again; after the sixth
 * failure move the delivery to the dead-letter queue. A 2xx ends it (succeeded); a deleted or disabled
 * endpoint ends it (stopped). Any other answer, 410 Gone included, is a failure. Usually the outbox dispatcher
 * has made attempt 1 itself and starts this only when it failed (`firstAttemptMade`): the run then begins
 * with the wait before attempt 2.
 */
export async function webhookDelivery(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  let progress: DeliveryProgress = {
    status: 'pending',
    phase: 'opening',
    attemptsThisRun: 0,
    lastAttempt: 0,
    nextAttemptAt: null,
    lastStatusCode: null,
    lastError: null,
  };
  setHandler(deliveryProgressQuery, () => progress);

  const { deliveryId, attemptsBefore, closedAs } = await lookup.openWebhookDelivery(input);
  progress = { ...progress, lastAttempt: attemptsBefore };
  if (closedAs) return finish(closedAs);

  // Attempts the dispatcher made: the schedule goes on after them, attempt numbers after the recorded ones.
  const skipped = input.firstAttemptMade ? 1 : 0;
  for (const [index, delay] of ATTEMPT_DELAYS_MS.entries()) {
    if (index < skipped) continue;
    if (delay > 0) {
      progress = { ...progress, phase: 'waiting', nextAttemptAt: new Date(Date.now() + delay).toISOString() };
      await sleep(delay);
    }
    const attempt = attemptsBefore + index + 1 - skipped;
    progress = { ...progress, phase: 'attempting', nextAttemptAt: null };
    const outcome = await attemptOnce({
      delivery: input.delivery,
      deliveryId,
      attempt,
      nextAttemptInMs: ATTEMPT_DELAYS_MS[index + 1] ?? null,
    });
    progress = {
      ...progress,
      ...(outcome.attempted ? { attemptsThisRun: index + 1 - skipped, lastAttempt: attempt } : {}),
      lastStatusCode: outcome.attempted ? outcome.statusCode : progress.lastStatusCode,
      lastError: outcome.error,
    };
    if (outcome.result === 'succeeded' || outcome.result === 'stopped') {
      return finish(outcome.result);
    }
    if (outcome.result === 'undeliverable') break;
  }

  await records.deadLetterWebhookDelivery({ delivery: input.delivery, deliveryId });
  return finish('dead');

  function finish(status: WebhookDeliveryResult['status']): WebhookDeliveryResult {
    progress = { ...progress, status, phase: 'done', nextAttemptAt: null };
    return {
      status,
      attempts: progress.attemptsThisRun,
      lastStatusCode: progress.lastStatusCode,
      lastError: progress.lastError,
    };
  }
}

/** One attempt; an activity that fails outright (worker lost, database down) counts as a failed attempt. */
async function attemptOnce(
  input: Parameters<Activities['attemptWebhookDelivery']>[0],
): Promise<AttemptOutcome> {
  try {
    return await http.attemptWebhookDelivery(input);
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    const cause = error.cause?.message ?? error.message;
    const message = `attempt did not complete: ${cause}`;
    return { result: 'failed', attempted: true, statusCode: null, error: message, durationMs: 0 };
  }
}
