import assert from 'node:assert/strict';
import Stripe from 'stripe';
import { beforeAll, describe, test } from 'vitest';
import { payOutSale } from '../../src/resale/payout.ts';
import { TEST_STRIPE } from '../support/stripe.ts';

describe('the 94/5/1 payout against stripe-mock', () => {
  let stripe: Stripe;
  beforeAll(() => {
    const base = new URL(process.env.STRIPE_API_BASE!);
    stripe = new Stripe(TEST_STRIPE.secretKey, {
      host: base.hostname,
      port: Number(base.port),
      protocol: 'http',
      maxNetworkRetries: 0,
    });
  });
  const sale = {
    resaleId: 'r1',
    paymentIntentId: 'pi_1',
    chargeId: 'ch_1',
    price: { amount: 12901, currency: 'eur' },
  };

  test('nothing moves until every receiving account is verified', async () => {
    const outcome = await payOutSale(stripe, {
      ...sale,
      sellerIsBrand: false,
      parties: { seller: { connectId: 'acct_seller', verified: false }, brand: null },
    });
    assert.deepEqual(outcome, { paid: false, waitingFor: ['seller', 'brand'] });
  });

  test('a consumer’s sale: 94 % to the seller, 5 % to the brand, the rest (1 % and rounding) stays', async () => {
    const outcome = await payOutSale(stripe, {
      ...sale,
      sellerIsBrand: false,
      parties: {
        seller: { connectId: 'acct_seller', verified: true },
        brand: { connectId: 'acct_brand', verified: true },
      },
    });
    assert.ok(outcome.paid);
    assert.deepEqual(
      outcome.transfers.map((t) => [t.party, t.amount]),
      [
        ['seller', 12126],
        ['brand', 645],
      ],
    );
    assert.ok(outcome.transfers.every((t) => t.transferId.startsWith('tr_')));
  });
});
