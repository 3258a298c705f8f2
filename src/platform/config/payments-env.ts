import { z } from 'zod';
import type { Environment } from './config.ts';

const secretKey = (prefix: 'sk_live_' | 'sk_test_') =>
  z
    .string()
    .regex(
      new RegExp(`^(${prefix}|rk_${prefix.slice(3)})[A-Za-z0-9_]+$`),
      `must be a ${prefix}… (or restricted rk_…) key`,
    )
    .optional();
const webhookSecret = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/=_-]+$/, 'must be a whsec_… signing secret')
  .optional();
const priceId = z
  .string()
  .regex(/^price_[A-Za-z0-9_]+$/, 'must be a Stripe price id (price_…)')
  .optional();

/** The Stripe variables of the environment schema (src/platform/config/env.ts), per environment where they differ. */
export const paymentsEnvShape = {
  STRIPE_API_BASE: z.url().optional(),
  STRIPE_SECRET_KEY_LIVE: secretKey('sk_live_'),
  STRIPE_SECRET_KEY_TEST: secretKey('sk_test_'),
  STRIPE_WEBHOOK_SECRET_LIVE: webhookSecret,
  STRIPE_WEBHOOK_SECRET_TEST: webhookSecret,
  STRIPE_WEBHOOK_TOLERANCE_SECONDS: z.coerce.number().int().min(10).max(3600).default(300),
  STRIPE_PRICE_ESSENTIAL_LIVE: priceId,
  STRIPE_PRICE_ESSENTIAL_TEST: priceId,
  STRIPE_PRICE_PRO_LIVE: priceId,
  STRIPE_PRICE_PRO_TEST: priceId,
  STRIPE_METER_EVENT_NAME: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,99}$/)
    .default('dpp_mint'),
};

type PaymentsEnv = z.infer<z.ZodObject<typeof paymentsEnvShape>>;

export interface StripeEnvironmentSettings {
  secretKey: string;
  webhookSecret: string | undefined;
  prices: { essential: string | undefined; pro: string | undefined };
}

export interface PaymentsConfig {
  /** Where the SDK sends requests: Stripe's API, or stripe-mock in development and tests. */
  apiBase: string | undefined;
  /** Unset for an environment without a Stripe key: its payment operations answer 503. */
  stripe: Record<Environment, StripeEnvironmentSettings | undefined>;
  webhookToleranceSeconds: number;
  meterEventName: string;
}

export function paymentsConfig(e: PaymentsEnv): PaymentsConfig {
  const environment = (
    key: string | undefined,
    hook: string | undefined,
    essential?: string,
    pro?: string,
  ) => (key ? { secretKey: key, webhookSecret: hook, prices: { essential, pro } } : undefined);
  return {
    apiBase: e.STRIPE_API_BASE,
    stripe: {
      live: environment(
        e.STRIPE_SECRET_KEY_LIVE,
        e.STRIPE_WEBHOOK_SECRET_LIVE,
        e.STRIPE_PRICE_ESSENTIAL_LIVE,
        e.STRIPE_PRICE_PRO_LIVE,
      ),
      test: environment(
        e.STRIPE_SECRET_KEY_TEST,
        e.STRIPE_WEBHOOK_SECRET_TEST,
        e.STRIPE_PRICE_ESSENTIAL_TEST,
        e.STRIPE_PRICE_PRO_TEST,
      ),
    },
    webhookToleranceSeconds: e.STRIPE_WEBHOOK_TOLERANCE_SECONDS,
    meterEventName: e.STRIPE_METER_EVENT_NAME,
  };
}
