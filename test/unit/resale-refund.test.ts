import assert from 'node:assert/strict';
import Stripe from 'stripe';
import { describe, test } from 'vitest';
import { refundResalePayment } from '../../src/lifecycle/resale/resale-checkout.ts';

/** Just the two refund calls, answering as Stripe does. */
function fakeStripe(create: () => Promise<{ id: string }>, refunded: { id: string }[] = []) {
  const calls: { key: string | undefined; params: Record<string, unknown> }[] = [];
  const stripe = {
    refunds: {
      create: (params: Record<string, unknown>, options: { idempotencyKey?: string }) => {
        calls.push({ key: options.idempotencyKey, params });
        return create();
      },
      list: async () => ({ data: refunded }),
    },
  } as unknown as Stripe;
  return { stripe, calls };
}

const alreadyRefunded = () =>
  new Stripe.errors.StripeInvalidRequestError({
    type: 'invalid_request_error',
    message: 'Charge ch_1 has already been refunded.',
    code: 'charge_already_refunded',
  });

describe('refundResalePayment', () => {
  test('asks for the whole payment under a key of the payment intent, whichever resale asks', async () => {
    const { stripe, calls } = fakeStripe(async () => ({ id: 're_1' }));
    assert.deepEqual(await refundResalePayment(stripe, 'resale-1', 'pi_1'), { refundId: 're_1' });
    assert.deepEqual(await refundResalePayment(stripe, 'resale-2', 'pi_1'), { refundId: 're_1' });
    assert.deepEqual(
      calls.map((c) => [c.key, c.params.payment_intent]),
      [
        ['dpp-refund-pi_1', 'pi_1'],
        ['dpp-refund-pi_1', 'pi_1'],
      ],
    );
  });

  test('a payment refunded before (after Stripe forgot the key) answers that refund, not a failure', async () => {
    const { stripe } = fakeStripe(() => Promise.reject(alreadyRefunded()), [{ id: 're_earlier' }]);
    assert.deepEqual(await refundResalePayment(stripe, 'resale-1', 'pi_1'), { refundId: 're_earlier' });
  });

  test('any other refusal is passed on (the workflow flags it)', async () => {
    const disputed = new Stripe.errors.StripeInvalidRequestError({
      type: 'invalid_request_error',
      message: 'disputed',
      code: 'charge_disputed',
    });
    const { stripe } = fakeStripe(() => Promise.reject(disputed));
    await assert.rejects(refundResalePayment(stripe, 'resale-1', 'pi_1'), (error) => error === disputed);
  });
});
