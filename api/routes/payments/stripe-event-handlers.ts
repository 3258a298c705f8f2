import { applySubscriptionEvent } from '../../../src/accounts/billing/billing-accounts.ts';
import { applyAccountUpdated } from '../../../src/accounts/compliance/connect-accounts.ts';
import type {
  StripeEventHandler,
  StripeEventHandlers,
} from '../../../src/adapters/payments/inbound-events.ts';
import type { RouteDeps } from '../deps.ts';
import { resalePaymentHandler } from './resale-payment-handler.ts';

/**
 * Which Stripe event types change our state, and how. Each handler runs inside the transaction that records
 * the event, so its database writes and the exactly-once record commit together; a handler that signals a
 * workflow does so before that commit (a failed signal rolls the record back and Stripe retries).
 */
export function stripeEventHandlers(deps: RouteDeps): StripeEventHandlers {
  const subscription: StripeEventHandler = ({ em, environment, event }) =>
    applySubscriptionEvent(em, deps.config.payments.stripe[environment], environment, event);
  return {
    'payment_intent.succeeded': resalePaymentHandler(deps.workflows, deps.payments),
    'customer.subscription.created': subscription,
    'customer.subscription.updated': subscription,
    'customer.subscription.deleted': subscription,
    'account.updated': ({ em, environment, event }) => applyAccountUpdated(em, environment, event),
  };
}
