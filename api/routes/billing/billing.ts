import { z } from 'zod';
import {
  billingStatus,
  PLANS,
  subscriptionCheckout,
} from '../../../src/accounts/billing/billing-accounts.ts';
import { EVERY_PLAN_INCLUDES, planOffers } from '../../../src/accounts/billing/plans.ts';
import { currentUsage } from '../../../src/accounts/billing/usage.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute, type RouteSpec } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';

const status = z.object({
  success: z.literal(true),
  plan: z.enum(['essential', 'pro']).nullable(),
  status: z
    .string()
    .describe('Stripe’s subscription status (active, trialing, past_due, canceled, …) or none.'),
  currentPeriodStart: z.iso.datetime().nullable(),
  currentPeriodEnd: z.iso.datetime().nullable(),
  customerId: z.string().nullable(),
});

/** Subscriptions (Essential, Pro) through Stripe Checkout and the customer portal; the pay-per-mint meter. */
export function billingRoutes(deps: RouteDeps): RouteSpec[] {
  const returnUrl = `${deps.config.publicBaseUrl}/docs`;
  return [
    defineRoute({
      method: 'post',
      path: '/v1/billing/checkout',
      operationId: 'billingCheckout',
      summary: 'Start a subscription (Essential or Pro): a Stripe Checkout URL.',
      description:
        'The company’s Stripe customer of this environment is created on first use. The subscription becomes ' +
        'visible in GET /v1/billing/status once Stripe’s signed customer.subscription.* webhook arrives. Live ' +
        'mints need an active plan (402 plan_required); the test environment is free.',
      tags: ['billing'],
      auth: 'apiKeyOrUser',
      body: z
        .object({
          plan: z.enum(PLANS),
          successUrl: z.url().max(2000).optional(),
          cancelUrl: z.url().max(2000).optional(),
        })
        .strict(),
      responses: {
        403: {
          description: 'role_forbidden: only owners start subscriptions (console session, user token).',
        },
        201: {
          description: 'Send the customer to checkoutUrl.',
          schema: z.object({ success: z.literal(true), checkoutUrl: z.string(), sessionId: z.string() }),
        },
      },
      handler: async (ctx: AppContext, { body }) => {
        await requireRight(ctx, 'manageCompany', 'start a subscription');
        const scope = ctx.state.scope!;
        const { stripe, settings } = deps.payments.forEnvironment(scope.environment);
        const session = await subscriptionCheckout(deps.orm.em.fork(), stripe, settings, scope, {
          plan: body.plan,
          successUrl: body.successUrl ?? returnUrl,
          cancelUrl: body.cancelUrl ?? returnUrl,
        });
        ctx.status = 201;
        ctx.body = { success: true, ...session };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/billing/portal',
      operationId: 'billingPortal',
      summary: 'A Stripe customer-portal link (invoices, payment method, plan changes, cancellation).',
      tags: ['billing'],
      auth: 'apiKeyOrUser',
      body: z.object({ returnUrl: z.url().max(2000).optional() }).strict(),
      bodyOptional: true,
      responses: {
        201: {
          description: 'Send the customer to portalUrl.',
          schema: z.object({ success: z.literal(true), portalUrl: z.string() }),
        },
        403: { description: 'role_forbidden: only owners open the portal (console session, user token).' },
        409: { description: 'no_billing_account: start a subscription first (POST /v1/billing/checkout).' },
      },
      handler: async (ctx: AppContext, { body }) => {
        await requireRight(ctx, 'manageCompany', 'open the billing portal');
        const scope = ctx.state.scope!;
        const { stripe } = deps.payments.forEnvironment(scope.environment);
        const { customerId } = await billingStatus(deps.orm.em.fork(), scope);
        if (!customerId) {
          throw new DomainError(
            'conflict',
            'no_billing_account',
            'Start a subscription first: POST /v1/billing/checkout.',
          );
        }
        const session = await stripe.billingPortal.sessions.create({
          customer: customerId,
          return_url: body.returnUrl ?? returnUrl,
        });
        ctx.status = 201;
        ctx.body = { success: true, portalUrl: session.url };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/billing/status',
      operationId: 'billingStatus',
      summary: 'The subscription: plan, status and current period, as Stripe’s webhooks last described it.',
      tags: ['billing'],
      auth: 'apiKeyOrUser',
      responses: { 200: { description: 'Without a subscription: plan null, status none.', schema: status } },
      handler: async (ctx: AppContext) => {
        await requireRight(ctx, 'read', 'see billing');
        ctx.body = { success: true, ...(await billingStatus(deps.orm.em.fork(), ctx.state.scope!)) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/billing/plans',
      operationId: 'billingPlans',
      summary: 'The plans on offer: each one’s price (Stripe’s) and what it includes.',
      description:
        'The price is the Stripe price Checkout charges in this environment (amount in the currency’s smallest ' +
        'unit; null when no price is configured or Stripe cannot be reached); description and features are the ' +
        'plan’s Stripe product’s (its marketing features); includedInEveryPlan is what the service grants with ' +
        'any plan in good standing.',
      tags: ['billing'],
      auth: 'apiKeyOrUser',
      responses: {
        200: {
          description: 'The plans, in the order of their checkout names.',
          schema: z.object({
            success: z.literal(true),
            plans: z.array(
              z.object({
                id: z.enum(PLANS),
                name: z.string(),
                price: z
                  .object({
                    unitAmount: z.number().int().nullable(),
                    currency: z.string(),
                    interval: z.string().nullable(),
                    intervalCount: z.number().int().nullable(),
                    usageType: z.string().nullable(),
                  })
                  .nullable(),
                description: z.string().nullable(),
                features: z.array(z.string()),
              }),
            ),
            includedInEveryPlan: z.array(z.string()),
          }),
        },
      },
      handler: async (ctx: AppContext) => {
        await requireRight(ctx, 'read', 'see the plans');
        const { environment } = ctx.state.scope!;
        const stripe = deps.payments.isConfigured(environment)
          ? deps.payments.forEnvironment(environment)
          : undefined;
        const plans = await planOffers(stripe?.stripe, stripe?.settings);
        ctx.body = { success: true, plans, includedInEveryPlan: [...EVERY_PLAN_INCLUDES] };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/billing/usage',
      operationId: 'billingUsage',
      summary: 'The pay-per-mint meter: passports minted in the current period, and how many Stripe has.',
      description:
        'The period is the subscription’s, or the calendar month (UTC) without one. Each mint is reported to ' +
        'Stripe’s usage meter once, with the passport as the meter event’s identifier, so a retried report ' +
        'never bills twice.',
      tags: ['billing'],
      auth: 'apiKeyOrUser',
      responses: {
        200: {
          description: 'The meter.',
          schema: z.object({
            success: z.literal(true),
            periodStart: z.iso.datetime(),
            periodEnd: z.iso.datetime(),
            mints: z.number().int(),
            reported: z.number().int(),
            meterEventName: z.string(),
          }),
        },
      },
      handler: async (ctx: AppContext) => {
        await requireRight(ctx, 'read', 'see billing');
        const usage = await currentUsage(deps.orm.em.fork(), ctx.state.scope!);
        ctx.body = { success: true, ...usage, meterEventName: deps.config.payments.meterEventName };
      },
    }),
  ];
}
