import { WorkflowNotFoundError } from '@temporalio/client';
import type Stripe from 'stripe';
import { DomainError } from '../../../src/errors.ts';
import type { StripeEventHandler } from '../../../src/payments/inbound-events.ts';
import type { WorkflowGateway } from '../../../src/temporal/start.ts';
import { workflowIds } from '../../../src/temporal/workflow-ids.ts';
import { PAYMENT_SUCCEEDED_SIGNAL, type PaymentSucceeded } from '../../../workflows/resale-types.ts';

/**
 * payment_intent.succeeded for a resale (its metadata names tokenId and resaleId): signals the resale
 * workflow, which checks amount, currency and resale against the release and authorizes the buyer on chain.
 * The signal is durable in Temporal before we answer 2xx, so nothing is lost while no worker runs; a failed
 * signal rolls the event's record back, so Stripe's retry delivers it again. Payment intents that are not a
 * resale's (subscriptions, say) and resales that have ended are left alone.
 */
export function resalePaymentHandler(workflows: WorkflowGateway | undefined): StripeEventHandler {
  return async ({ environment, event }) => {
    const intent = event.data.object as Stripe.PaymentIntent;
    const { tokenId, resaleId } = intent.metadata ?? {};
    if (!tokenId || !resaleId) return;
    if (!workflows)
      throw new DomainError('unavailable', 'workflows_unavailable', 'Workflow service is not configured.');
    const payment: PaymentSucceeded = {
      eventId: event.id,
      resaleId,
      paymentIntentId: intent.id,
      ...(typeof intent.latest_charge === 'string' ? { chargeId: intent.latest_charge } : {}),
      amount: intent.amount_received || intent.amount,
      currency: intent.currency,
    };
    try {
      await workflows.client.workflow
        .getHandle(workflowIds.resale(environment, tokenId))
        .signal(PAYMENT_SUCCEEDED_SIGNAL, payment);
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return;
      throw new DomainError(
        'unavailable',
        'workflows_unavailable',
        `Could not pass the payment on: ${(error as Error).message}`,
      );
    }
  };
}
