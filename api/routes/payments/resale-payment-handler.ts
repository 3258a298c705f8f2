import { z } from 'zod';
import { malformedEvent, type StripeEventHandler } from '../../../src/adapters/payments/inbound-events.ts';
import type { StripeGateway } from '../../../src/adapters/payments/stripe-gateway.ts';
import type { WorkflowGateway } from '../../../src/adapters/temporal/start.ts';
import { payResale } from '../../../src/lifecycle/resale/pay-resale.ts';

const stripeId = z.string().min(1).max(255);

/**
 * What we read of a succeeded payment intent: the spec's `data.object {id, amount, currency, metadata
 * {tokenId, buyerWallet}}` (metadata values are strings at Stripe; our checkouts add `resaleId`).
 */
const succeededIntent = z.looseObject({
  id: stripeId,
  amount: z.number().int().nonnegative(),
  amount_received: z.number().int().nonnegative().optional(),
  currency: z.string().regex(/^[a-zA-Z]{3}$/),
  latest_charge: z.union([stripeId, z.looseObject({ id: stripeId }), z.null()]).optional(),
  metadata: z.record(z.string(), z.string().max(500)).nullish(),
});

/**
 * payment_intent.succeeded for a resale: the payment names the token and the buyer's wallet (the spec's
 * metadata), and our own checkouts add the resale id; payResale signals the open resale it names. The signal is
 * durable in Temporal before we answer 2xx; a failed signal rolls the event's record back, so Stripe's retry
 * delivers it again. A payment naming a resale of ours that ended is refunded. Payment intents that are not a
 * resale's (subscriptions, say) and payments naming no resale of ours are recorded and answered `ignored`.
 */
export function resalePaymentHandler(
  workflows: WorkflowGateway | undefined,
  payments: StripeGateway,
): StripeEventHandler {
  return async ({ em, environment, event, log }) => {
    const parsed = succeededIntent.safeParse(event.data.object);
    if (!parsed.success) throw malformedEvent(parsed.error, ['data', 'object']);
    const intent = parsed.data;
    const { tokenId, buyerWallet, resaleId } = intent.metadata ?? {};
    if (!tokenId || (!buyerWallet && !resaleId)) return 'ignored';
    const charge = intent.latest_charge;
    return payResale(
      { em, workflows, payments, log },
      {
        environment,
        names: { tokenId, buyerWallet, resaleId },
        payment: {
          eventId: event.id,
          paymentIntentId: intent.id,
          ...(typeof charge === 'string' ? { chargeId: charge } : charge ? { chargeId: charge.id } : {}),
          amount: intent.amount_received || intent.amount,
          currency: intent.currency.toLowerCase(),
        },
      },
    );
  };
}
