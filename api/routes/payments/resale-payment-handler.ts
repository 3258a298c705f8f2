import type { EntityManager } from '@mikro-orm/postgresql';
import { WorkflowNotFoundError } from '@temporalio/client';
import { z } from 'zod';
import { malformedEvent, type StripeEventHandler } from '../../../src/adapters/payments/inbound-events.ts';
import type { WorkflowGateway } from '../../../src/adapters/temporal/start.ts';
import { findOpenResaleForPayment } from '../../../src/lifecycle/resale/resale-records.ts';
import type { Environment } from '../../../src/platform/config/config.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import { PAYMENT_SUCCEEDED_SIGNAL, type PaymentSucceeded } from '../../../src/processes/resale.ts';
import { workflowIds } from '../../../src/processes/workflow-ids.ts';

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
 * metadata), and our own checkouts add the resale id. The open resale of that token for that buyer, in the
 * environment whose webhook secret verified the event (and with that id when the event names one), is
 * signalled; the workflow checks amount and currency against the release and authorizes the buyer on chain.
 * The signal is durable in Temporal before we answer 2xx; a failed signal rolls the event's record back, so
 * Stripe's retry delivers it again. Payment intents that are not a resale's (subscriptions, say) and payments
 * naming no open resale are recorded and answered `ignored`.
 */
export function resalePaymentHandler(workflows: WorkflowGateway | undefined): StripeEventHandler {
  return async ({ em, environment, event }) => {
    const parsed = succeededIntent.safeParse(event.data.object);
    if (!parsed.success) throw malformedEvent(parsed.error, ['data', 'object']);
    const intent = parsed.data;
    const { tokenId, buyerWallet, resaleId } = intent.metadata ?? {};
    if (!tokenId || (!buyerWallet && !resaleId)) return 'ignored';
    const resale = await openResale(em, environment, { tokenId, buyerWallet, resaleId });
    if (!resale) return 'ignored';
    if (!workflows)
      throw new DomainError('unavailable', 'workflows_unavailable', 'Workflow service is not configured.');
    const charge = intent.latest_charge;
    const payment: PaymentSucceeded = {
      eventId: event.id,
      resaleId: resale.id,
      paymentIntentId: intent.id,
      ...(typeof charge === 'string' ? { chargeId: charge } : charge ? { chargeId: charge.id } : {}),
      amount: intent.amount_received || intent.amount,
      currency: intent.currency.toLowerCase(),
    };
    try {
      await workflows.client.workflow
        .getHandle(workflowIds.resale(environment, resale.token_id))
        .signal(PAYMENT_SUCCEEDED_SIGNAL, payment);
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return 'ignored';
      throw new DomainError(
        'unavailable',
        'workflows_unavailable',
        'Could not pass the payment on to the resale; Stripe will deliver the event again.',
      );
    }
  };
}

function openResale(
  em: EntityManager,
  environment: Environment,
  names: { tokenId: string; buyerWallet: string | undefined; resaleId: string | undefined },
) {
  // Token ids are decimal digits and resale ids UUIDs: anything else names no resale of ours.
  if (!/^[1-9]\d{0,77}$/.test(names.tokenId)) return undefined;
  if (names.resaleId !== undefined && !z.uuid().safeParse(names.resaleId).success) return undefined;
  return findOpenResaleForPayment(em, environment, names);
}
