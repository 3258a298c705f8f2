import type Stripe from 'stripe';
import type { StripeEnvironmentSettings } from '../../platform/config/payments-env.ts';
import { PLANS, type Plan } from './billing-accounts.ts';

/** What this service grants with any plan in good standing (src/accounts/billing/plan-guard.ts, usage.ts). */
export const EVERY_PLAN_INCLUDES = [
  'Live passports: live mints and minting binds (without a plan they answer 402 plan_required)',
  'Each live mint reported once to Stripe’s usage meter (pay per mint, on the same invoice)',
  'The test environment, free with or without a plan',
] as const;

export const PLAN_NAMES: Record<Plan, string> = { essential: 'Essential', pro: 'Pro' };

export interface PlanPrice {
  /** In the currency's smallest unit (cents), as Stripe states it; null for a tiered or custom price. */
  unitAmount: number | null;
  currency: string;
  /** `month`, `year`, …; null for a one-off price. */
  interval: string | null;
  intervalCount: number | null;
  /** `metered`: the amount is per unit of usage (per mint), not per period. */
  usageType: string | null;
}

export interface PlanOffer {
  id: Plan;
  name: string;
  /** Stripe's price of the plan in this environment; null when none is configured or Stripe cannot say. */
  price: PlanPrice | null;
  /** The plan's own promise, as its Stripe product states it (description, marketing features). */
  description: string | null;
  features: string[];
}

/**
 * Each plan with its price and what it includes, from the one place each fact lives: the price and the plan's own
 * features from Stripe (the price Checkout charges; the product's marketing features, which the operator keeps),
 * and what the service grants with every plan from EVERY_PLAN_INCLUDES.
 */
export async function planOffers(
  stripe: Stripe | undefined,
  settings: StripeEnvironmentSettings | undefined,
): Promise<PlanOffer[]> {
  return Promise.all(
    PLANS.map(async (id): Promise<PlanOffer> => {
      const offer: PlanOffer = { id, name: PLAN_NAMES[id], price: null, description: null, features: [] };
      const priceId = settings?.prices[id];
      if (!stripe || !priceId) return offer;
      let price: Stripe.Price;
      try {
        price = await stripe.prices.retrieve(priceId, { expand: ['product'] });
      } catch {
        // Stripe unreachable or the price gone: the page says the price is unknown rather than failing.
        return offer;
      }
      const product = typeof price.product === 'object' && !price.product.deleted ? price.product : null;
      return {
        ...offer,
        price: {
          unitAmount: price.unit_amount,
          currency: price.currency,
          interval: price.recurring?.interval ?? null,
          intervalCount: price.recurring?.interval_count ?? null,
          usageType: price.recurring?.usage_type ?? null,
        },
        description: product?.description ?? null,
        features: (product?.marketing_features ?? []).flatMap((feature) =>
          feature.name ? [feature.name] : [],
        ),
      };
    }),
  );
}
