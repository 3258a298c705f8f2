import type { StripeEventHandlers } from '../../../src/payments/inbound-events.ts';
import type { RouteDeps } from '../deps.ts';
import { resalePaymentHandler } from './resale-payment-handler.ts';

/**
 * Which Stripe event types change our state, and how. Each handler runs inside the transaction that records
 * the event, so its database writes and the exactly-once record commit together; a handler that signals a
 * workflow does so before that commit (a failed signal rolls the record back and Stripe retries).
 */
export function stripeEventHandlers(deps: RouteDeps): StripeEventHandlers {
  return {
    'payment_intent.succeeded': resalePaymentHandler(deps.workflows),
  };
}
