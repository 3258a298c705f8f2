import { ApplicationFailure } from '@temporalio/activity';
import { scopedEntityManager } from '../../src/platform/db/tenant-scope.ts';
import type {
  AttemptInput,
  AttemptOutcome,
  DeliveryRef,
  OpenedDelivery,
  WebhookDeliveryInput,
} from '../../src/processes/webhook-delivery.ts';
import { sendAttempt, type WebhookSender } from '../../src/webhooks/attempt-delivery.ts';
import { deadLetterRow, loadAttemptContext, openDeliveryRow } from '../../src/webhooks/delivery-records.ts';
import { urlPolicyFor } from '../../src/webhooks/url-safety.ts';
import type { EnvironmentDeps } from '../deps.ts';

/** How an environment's deliveries are sent (the workflow's attempts and the dispatcher's first ones alike). */
export function webhookSenderFor(deps: EnvironmentDeps): WebhookSender {
  return {
    secretBox: deps.secretBox,
    policy: deps.webhookUrlPolicy ?? urlPolicyFor(deps.environment, true),
    resolver: deps.webhookResolver,
  };
}

/** Activities of the webhook delivery workflow. */
export function webhookActivities(deps: EnvironmentDeps) {
  const sender = webhookSenderFor(deps);
  const scoped = (ref: DeliveryRef) => {
    if (ref.environment !== deps.environment) {
      throw ApplicationFailure.nonRetryable(
        `delivery for ${ref.environment} reached the ${deps.environment} worker`,
      );
    }
    return scopedEntityManager(deps.orm.em, { companyId: ref.companyId, environment: ref.environment });
  };

  return {
    /** Finds the delivery row (a replay puts it back to pending) and the number of attempts made before. */
    async openWebhookDelivery(input: WebhookDeliveryInput): Promise<OpenedDelivery> {
      const row = await openDeliveryRow(scoped(input.delivery), input.delivery, input.mode);
      return {
        deliveryId: row.deliveryId,
        attemptsBefore: row.attemptsBefore,
        ...(input.mode === 'dispatch' && row.status !== 'pending' ? { closedAs: row.status } : {}),
      };
    },

    /**
     * One attempt: re-reads the endpoint (deleted or disabled: stop without sending), signs the envelope
     * with the endpoint's active secrets, POSTs it once and records the attempt and the delivery's state.
     * HTTP failures are outcomes, not activity failures.
     */
    async attemptWebhookDelivery(input: AttemptInput): Promise<AttemptOutcome> {
      const em = scoped(input.delivery);
      const context = await loadAttemptContext(em, input.delivery);
      return sendAttempt(em, sender, input, context);
    },

    /** After the last failed attempt: the dead-letter queue. */
    async deadLetterWebhookDelivery(input: { delivery: DeliveryRef; deliveryId: string }): Promise<void> {
      await deadLetterRow(scoped(input.delivery), input.delivery, input.deliveryId);
    },
  };
}
