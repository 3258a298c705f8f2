import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { describe, test } from 'vitest';
import {
  PAYMENT_SUCCEEDED_SIGNAL,
  type PaymentSucceeded,
  type ResaleProgress,
} from '../../src/processes/resale.ts';
import { resalePassport } from '../../workflows/index.ts';
import { claim, type Handle, inState, paid, progressOf, stubs, terms } from './resale-fixtures.ts';
import { eventually, gate, type Stubs, workflowHarness } from './support.ts';

const harness = workflowHarness();

const refundsOf = (handle: Handle, count: number) =>
  eventually(
    () => progressOf(handle),
    (progress: ResaleProgress) =>
      (progress.refusedPayments ?? []).filter((refused) => refused.refund.status !== 'pending').length ===
      count,
  );
const pay = (handle: Handle, payment: PaymentSucceeded) => handle.signal(PAYMENT_SUCCEEDED_SIGNAL, payment);
const refundedAs: Stubs['refundResalePayment'] = ({ paymentIntentId }) => ({
  refundId: `re_${paymentIntentId}`,
});

describe('resale workflow: payments that do not complete the sale are refunded', () => {
  test('wrong amount, wrong currency, another resale, a second payment: each refunded once, redeliveries change nothing', async () => {
    await harness.withWorker(stubs({ refundResalePayment: refundedAs }), async ({ start, log }) => {
      const handle = await start(resalePassport, terms);
      await inState(handle, 'AWAITING_PAYMENT');
      const tooLittle = { ...paid, eventId: 'evt_little', paymentIntentId: 'pi_little', amount: 100 };
      const dollars = { ...paid, eventId: 'evt_usd', paymentIntentId: 'pi_usd', currency: 'usd' };
      const earlier = { ...paid, eventId: 'evt_old', paymentIntentId: 'pi_old', resaleId: 'resale-0' };
      await pay(handle, tooLittle);
      await pay(handle, dollars);
      await pay(handle, earlier);
      // The same event delivered again (a signal that went through although its event's record rolled back),
      // and another event of the same payment intent.
      await pay(handle, tooLittle);
      await pay(handle, { ...tooLittle, eventId: 'evt_little_again' });
      await refundsOf(handle, 3);
      assert.equal((await progressOf(handle)).state, 'AWAITING_PAYMENT', 'a refused payment is not acted on');

      await pay(handle, paid);
      await inState(handle, 'AWAITING_CLAIM');
      const second = { ...paid, eventId: 'evt_second', paymentIntentId: 'pi_second', chargeId: 'ch_2' };
      await pay(handle, second);
      await pay(handle, second);
      await pay(handle, paid); // the accepted payment again: neither refused nor refunded
      const progress = await refundsOf(handle, 4);
      assert.equal(progress.paymentIntentId, 'pi_1');
      assert.deepEqual(progress.refusedPayments, [
        {
          eventId: 'evt_little',
          paymentIntentId: 'pi_little',
          amount: 100,
          currency: 'eur',
          reason: 'paid 100 eur, the release asks 9900 eur',
          refund: { status: 'refunded', refundId: 're_pi_little' },
        },
        {
          eventId: 'evt_usd',
          paymentIntentId: 'pi_usd',
          amount: 9900,
          currency: 'usd',
          reason: 'paid 9900 usd, the release asks 9900 eur',
          refund: { status: 'refunded', refundId: 're_pi_usd' },
        },
        {
          eventId: 'evt_old',
          paymentIntentId: 'pi_old',
          amount: 9900,
          currency: 'eur',
          reason: 'the payment is for resale resale-0',
          refund: { status: 'refunded', refundId: 're_pi_old' },
        },
        {
          eventId: 'evt_second',
          paymentIntentId: 'pi_second',
          amount: 9900,
          currency: 'eur',
          reason: 'the resale is already paid (pi_1)',
          refund: { status: 'refunded', refundId: 're_pi_second' },
        },
      ]);

      assert.equal((await claim(handle)).txHash, '0xclaim');
      assert.equal((await handle.result()).state, 'CLAIMED');
      // The refunds run side by side, so the stub sees them in any order: each once is what counts.
      const refundInputs = log.inputsOf('refundResalePayment') as { paymentIntentId: string }[];
      assert.deepEqual(
        [...refundInputs].sort((a, b) => a.paymentIntentId.localeCompare(b.paymentIntentId)),
        ['pi_little', 'pi_old', 'pi_second', 'pi_usd'].map((paymentIntentId) => ({ terms, paymentIntentId })),
      );
      // The payout is a child workflow of its own: the sale's result does not wait for it.
      const { payoutWorkflowId } = await progressOf(handle);
      await harness.env.client.workflow.getHandle(payoutWorkflowId!).result();
      assert.deepEqual(log.inputsOf('payOutResale'), [{ terms, paymentIntentId: 'pi_1', chargeId: 'ch_1' }]);
      assert.equal(log.inputsOf('flagRefundFailed').length, 0);
    });
  });

  test('two payments in one moment: the first pays, the second is refunded', async () => {
    await harness.withWorker(stubs({ refundResalePayment: refundedAs }), async ({ start, log }) => {
      const handle = await start(resalePassport, terms);
      await inState(handle, 'AWAITING_PAYMENT');
      await Promise.all([
        pay(handle, paid),
        pay(handle, { ...paid, eventId: 'evt_2', paymentIntentId: 'pi_2' }),
      ]);
      const progress = await refundsOf(handle, 1);
      const accepted = progress.paymentIntentId!;
      const refunded = accepted === 'pi_1' ? 'pi_2' : 'pi_1';
      assert.deepEqual(log.inputsOf('refundResalePayment'), [{ terms, paymentIntentId: refunded }]);
      assert.equal((await inState(handle, 'AWAITING_CLAIM')).paymentIntentId, accepted);
    });
  });

  test('a payment that lands while the unpaid release is being undone is refunded before the resale ends', async () => {
    const expiring = gate();
    const expireResaleCheckout: Stubs['expireResaleCheckout'] = () => expiring.promise;
    await harness.withWorker(
      stubs({ refundResalePayment: refundedAs, expireResaleCheckout }),
      async ({ start, log }) => {
        const handle = await start(resalePassport, terms);
        const result = handle.result();
        await log.waitFor('expireResaleCheckout');
        await pay(handle, paid);
        expiring.open();
        assert.deepEqual(await result, { state: 'EXPIRED', revokeTxHash: '0xrevoke' });
        assert.deepEqual(log.inputsOf('refundResalePayment'), [{ terms, paymentIntentId: 'pi_1' }]);
        const [refused] = (await progressOf(handle)).refusedPayments ?? [];
        assert.equal(refused?.reason, 'the payment window closed');
        assert.deepEqual(refused?.refund, { status: 'refunded', refundId: 're_pi_1' });
        assert.equal(log.inputsOf('authorizeClaimOnChain').length, 0);
      },
    );
  });

  test('a refund the payment provider refuses is flagged for an operator and stays visible', async () => {
    const refundResalePayment: Stubs['refundResalePayment'] = () => {
      throw ApplicationFailure.create({
        type: 'StripeRejected',
        message: 'Stripe refused the request (StripeInvalidRequestError, charge_disputed, HTTP 400).',
        nonRetryable: true,
      });
    };
    await harness.withWorker(stubs({ refundResalePayment }), async ({ start, log }) => {
      const handle = await start(resalePassport, terms);
      await inState(handle, 'AWAITING_PAYMENT');
      const tooLittle = { ...paid, eventId: 'evt_little', paymentIntentId: 'pi_little', amount: 100 };
      await pay(handle, tooLittle);
      await pay(handle, tooLittle);
      const progress = await refundsOf(handle, 1);
      const [refused] = progress.refusedPayments!;
      assert.deepEqual(refused!.refund, {
        status: 'failed',
        error: 'Stripe refused the request (StripeInvalidRequestError, charge_disputed, HTTP 400).',
      });
      await log.waitFor('flagRefundFailed');
      assert.deepEqual(log.inputsOf('flagRefundFailed'), [{ terms, refused }]);
      assert.equal(log.inputsOf('refundResalePayment').length, 1, 'a final refusal is not retried');
      assert.equal(progress.state, 'AWAITING_PAYMENT', 'the release stays open for the right payment');
    });
  });
});
