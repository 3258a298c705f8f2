import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { describe, test } from 'vitest';
import type { ResaleInput } from '../../src/processes/resale.ts';
import { resalePayout } from '../../workflows/index.ts';
import { attentionOf, type Stubs, scope, workflowHarness } from './support.ts';

const harness = workflowHarness();

const MINUTE = 60_000;
const terms: ResaleInput = {
  resaleId: 'resale-1',
  scope,
  tokenId: '7',
  seller: { kind: 'user', userId: 'user-1' },
  sellerWallet: '0xseller',
  buyerEmail: 'buyer@example.com',
  buyerWallet: '0xbuyer',
  price: { amount: 10_000, currency: 'eur' },
  returnUrl: 'https://example.com/return',
};
const input = { terms, paymentIntentId: 'pi_1', chargeId: 'ch_1' };
const transfers = [
  { party: 'seller' as const, transferId: 'tr_seller', amount: 9400, currency: 'eur' },
  { party: 'brand' as const, transferId: 'tr_brand', amount: 500, currency: 'eur' },
];

describe('resale payout workflow', () => {
  test('pays the sale out: the transfers are its result', async () => {
    await harness.withWorker({ payOutResale: () => ({ transfers }) }, async ({ start, log }) => {
      const handle = await start(resalePayout, input);
      assert.deepEqual(await handle.result(), { status: 'PAID', transfers });
      assert.deepEqual(log.inputsOf('payOutResale'), [input]);
    });
  });

  test('waits for the receiving accounts’ verification, retrying ever less often up to hourly', async () => {
    let calls = 0;
    const unverified: Stubs['payOutResale'] = () => {
      if (++calls <= 8) throw new Error('the seller’s account is not verified yet');
      return { transfers };
    };
    await harness.withWorker({ payOutResale: unverified }, async ({ start, log }) => {
      const handle = await start(resalePayout, input);
      assert.equal((await handle.result()).status, 'PAID');
      const at = log.calls.map((call) => call.at);
      const waits = at.slice(1).map((time, index) => Math.round((time - at[index]!) / MINUTE));
      assert.deepEqual(waits, [1, 2, 4, 8, 16, 32, 60, 60], 'minutes between attempts');
      assert.equal(await attentionOf(harness.env, handle.workflowId), undefined);
    });
  });

  test('a payout Stripe refuses leaves the money on the platform and asks an operator to look', async () => {
    const refusing: Stubs['payOutResale'] = () => {
      throw ApplicationFailure.create({ type: 'StripeRejected', message: 'insufficient funds' });
    };
    await harness.withWorker({ payOutResale: refusing }, async ({ start, log }) => {
      const handle = await start(resalePayout, input);
      const result = await handle.result();
      assert.equal(result.status, 'UNPAID');
      assert.equal(result.transfers, undefined);
      assert.equal(log.calls.length, 1, 'a refusal is final');
      assert.equal(await attentionOf(harness.env, handle.workflowId), 'payout_failed');
    });
  });
});
