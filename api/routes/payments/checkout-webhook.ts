import { z } from 'zod';
import { applyStripeEvent, verifyStripeEvent } from '../../../src/adapters/payments/inbound-events.ts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { stripeEventHandlers } from './stripe-event-handlers.ts';

/** Stripe's events are small, but a Checkout Session with many line items is not tiny. */
const STRIPE_EVENT_LIMIT_BYTES = 512 * 1024;

export function checkoutWebhookRoute(deps: RouteDeps) {
  const handlers = stripeEventHandlers(deps);
  return defineRoute({
    method: 'post',
    path: '/v1/public/webhook/checkout',
    operationId: 'stripeWebhook',
    summary: 'Inbound payment provider events (Stripe), signed with Stripe-Signature.',
    description:
      'Called by Stripe, not by clients: no credential and no x-service-env. The Stripe-Signature header is ' +
      'verified over the exact raw body with the webhook signing secret of each configured environment ' +
      '(STRIPE_WEBHOOK_SECRET_{LIVE,TEST}) and its timestamp tolerance; the secret that verifies names the ' +
      'environment, and an event’s livemode, when it carries one, must agree (400 invalid_signature otherwise); ' +
      'the spec’s body (id, type, data.object; no created, no livemode) is accepted as it is. Each event id is ' +
      'applied exactly once: its record and its effect commit together before the 200, a repeated id answers ' +
      '200 with nothing done, and event types we do not act on answer 200 too. payment_intent.succeeded pays ' +
      'a resale (data.object {id, amount, currency, metadata {tokenId, buyerWallet}}); a payment that does not ' +
      'complete the sale (wrong amount or currency, a second payment, a resale that ended) is refunded once.',
    tags: ['payments'],
    auth: 'none',
    environmentHeader: false,
    body: z.record(z.string(), z.unknown()),
    bodyLimitBytes: STRIPE_EVENT_LIMIT_BYTES,
    responses: {
      200: {
        description: 'Received: applied now, applied before (duplicate), or not one we act on (ignored).',
        schema: z.object({
          success: z.literal(true),
          received: z.literal(true),
          outcome: z.enum(['applied', 'duplicate', 'ignored']),
        }),
      },
    },
    handler: async (ctx: AppContext) => {
      const verified = verifyStripeEvent(
        deps.payments,
        ctx.state.rawBody!,
        ctx.get('stripe-signature') || undefined,
      );
      const outcome = await applyStripeEvent(deps.orm.em.fork(), verified, handlers, ctx.state.log);
      ctx.state.log.info(
        { stripeEvent: verified.event.id, type: verified.event.type, outcome },
        'stripe event',
      );
      ctx.body = { success: true, received: true, outcome };
    },
  });
}
