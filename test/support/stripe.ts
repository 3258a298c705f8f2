import Stripe from 'stripe';
import { STRIPE_MOCK_KEYS } from '../../scripts/dev/stripe.ts';
import type { CallResult, TestApi } from './api.ts';

/**
 * The Stripe settings every test API runs with: the test environment on the run's stripe-mock, with the keys
 * `npm start` uses. Only the webhook signing secret differs (npm start keeps a random one in its data folder).
 */
export const TEST_STRIPE = {
  secretKey: STRIPE_MOCK_KEYS.secretKey,
  webhookSecret: 'whsec_dppServiceTestsSigningSecret0123456789',
  prices: STRIPE_MOCK_KEYS.prices,
};

/** Empty outside `npm test` (benchmarks, scripts): Stripe is then not configured, as without keys. */
export function stripeTestEnv(): Record<string, string> {
  const base = process.env.STRIPE_API_BASE;
  if (!base) return {};
  return {
    STRIPE_API_BASE: base,
    STRIPE_SECRET_KEY_TEST: TEST_STRIPE.secretKey,
    STRIPE_WEBHOOK_SECRET_TEST: TEST_STRIPE.webhookSecret,
    STRIPE_PRICE_ESSENTIAL_TEST: TEST_STRIPE.prices.essential,
    STRIPE_PRICE_PRO_TEST: TEST_STRIPE.prices.pro,
  };
}

const signer = new Stripe(TEST_STRIPE.secretKey);

/**
 * A Stripe event as Stripe would POST it: the JSON body and its Stripe-Signature header, made with the SDK's
 * own signing helper (the same scheme Stripe uses) and the given secret and time.
 */
export function signedStripeEvent(
  event: {
    id: string;
    type: string;
    livemode?: boolean;
    created?: number;
    data: { object: Record<string, unknown> };
  },
  options: { secret?: string; timestamp?: number } = {},
): { body: string; headers: Record<string, string> } {
  const created = event.created ?? Math.floor(Date.now() / 1000);
  const body = JSON.stringify({
    object: 'event',
    api_version: '2026-08-26.dahlia',
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    ...event,
    created,
  });
  const header = signer.webhooks.generateTestHeaderString({
    payload: body,
    secret: options.secret ?? TEST_STRIPE.webhookSecret,
    ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
  });
  return { body, headers: { 'stripe-signature': header, 'content-type': 'application/json' } };
}

/** POSTs a signed event to the service's Stripe webhook, as Stripe does (no environment header). */
export function postStripeEvent(
  api: { call: TestApi['call'] },
  signed: { body: string; headers: Record<string, string> },
): Promise<CallResult> {
  return api.call('POST', '/v1/public/webhook/checkout', {
    env: null,
    rawBody: signed.body,
    headers: signed.headers,
  });
}

/** Stripe's payment_intent.succeeded for a resale's charge, signed (metadata: tokenId, buyerWallet, resaleId). */
export function paymentSucceeded(
  id: string,
  metadata: Record<string, string>,
  amount = 12900,
  currency = 'eur',
) {
  return signedStripeEvent({
    id,
    type: 'payment_intent.succeeded',
    data: {
      object: {
        id: `pi_${id}`,
        object: 'payment_intent',
        amount,
        amount_received: amount,
        currency,
        latest_charge: `ch_${id}`,
        metadata,
      },
    },
  });
}
