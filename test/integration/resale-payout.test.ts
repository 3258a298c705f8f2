import assert from 'node:assert/strict';
import Stripe from 'stripe';
import { beforeAll, describe, test } from 'vitest';
import { payOutSale } from '../../src/lifecycle/resale/payout.ts';
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

  test('a consumer’s sale: 94 % / 5 % of what the charge left after Stripe’s fee, the rest stays', async () => {
    // stripe-mock answers every charge with one fixed balance transaction: 100 usd gross, fee 0. What is split
    // is that (what the platform's balance holds from the charge), not the list price of 12901 eur.
    const charge = await stripe.charges.retrieve('ch_1', { expand: ['balance_transaction'] });
    const balance = charge.balance_transaction as Stripe.BalanceTransaction;
    assert.deepEqual([balance.amount, balance.fee, balance.currency], [100, 0, 'usd']);
    const outcome = await payOutSale(stripe, {
      ...sale,
      sellerIsBrand: false,
      parties: {
        seller: { connectId: 'acct_seller', verified: true },
        brand: { connectId: 'acct_brand', verified: true },
      },
    });
    assert.ok(outcome.paid);
    assert.deepEqual(outcome.proceeds, {
      currency: 'usd',
      gross: 100,
      fee: 0,
      net: 100,
      seller: 94,
      brand: 5,
      platform: 1,
    });
    assert.deepEqual(
      outcome.transfers.map((t) => [t.party, t.amount, t.currency]),
      [
        ['seller', 94, 'usd'],
        ['brand', 5, 'usd'],
      ],
    );
    assert.ok(outcome.transfers.every((t) => t.transferId.startsWith('tr_')));
  });
});
