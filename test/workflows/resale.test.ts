import assert from 'node:assert/strict';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { describe, test } from 'vitest';
import { RETRY_RECORDING_SIGNAL } from '../../src/processes/record-until-done.ts';
import { PAYMENT_SUCCEEDED_SIGNAL } from '../../src/processes/resale.ts';
import { resalePassport } from '../../workflows/index.ts';
import { claim, inState, paid, progressOf, stubs, terms } from './resale-fixtures.ts';
import { domainRefusal, eventually, failureOf, type Stubs, workflowHarness } from './support.ts';

const harness = workflowHarness();

const HOUR = 3600_000;

const refused = async (update: Promise<unknown>) => {
  const error = await update.then(
    () => assert.fail('the update was accepted'),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof WorkflowUpdateFailedError);
  return error.cause?.message;
};
const ended = (status: string) => ({ terms, status });
/** Workflow time and a stub's clock reading differ by the moments between them (real time, on a loaded machine). */
const near = (actual: number, expected: number) => Math.abs(actual - expected) < 5000;

describe('resale workflow', () => {
  test('sold: checkout, delegation, payment, buyer authorized, claim, payout started', async () => {
    await harness.withWorker(stubs(), async ({ start, log }) => {
      const handle = await start(resalePassport, terms);
      const awaiting = await inState(handle, 'AWAITING_PAYMENT');
      assert.deepEqual(log.names(), ['createResaleCheckout', 'delegateToPlatform', 'recordResaleStarted']);
      const [checkout] = log.calls;
      const { expiresAt } = checkout!.input as { expiresAt: number };
      const lifetime = expiresAt * 1000 - checkout!.at;
      assert.ok(
        near(lifetime, 23 * HOUR + 50 * 60_000),
        `the session ends before the window (${lifetime} ms)`,
      );
      assert.deepEqual(log.inputsOf('recordResaleStarted'), [
        { terms, authorizeTxHash: '0xdelegate', checkoutSessionId: 'cs_1' },
      ]);
      assert.equal(awaiting.checkoutUrl, 'https://checkout.example/cs_1');
      assert.equal(awaiting.authorizeTxHash, '0xdelegate');

      assert.match(String(await refused(claim(handle))), /AWAITING_PAYMENT, not awaiting a claim/);
      // Each payment intent succeeds once: the refused payments are other intents than the one that pays.
      const tooLittle = { ...paid, eventId: 'evt_0', paymentIntentId: 'pi_0', amount: 100 };
      await handle.signal(PAYMENT_SUCCEEDED_SIGNAL, tooLittle);
      const earlier = { ...paid, eventId: 'evt_x', paymentIntentId: 'pi_x', resaleId: 'resale-0' };
      await handle.signal(PAYMENT_SUCCEEDED_SIGNAL, earlier);
      const refusals = await eventually(
        () => progressOf(handle),
        (progress) => progress.refusedPayments?.filter((r) => r.refund.status === 'refunded').length === 2,
      );
      assert.equal(refusals.state, 'AWAITING_PAYMENT', 'a payment that does not match is not acted on');
      const refunded = { status: 'refunded', refundId: 're_1' } as const;
      assert.deepEqual(refusals.refusedPayments, [
        {
          eventId: 'evt_0',
          paymentIntentId: 'pi_0',
          amount: 100,
          currency: 'eur',
          reason: 'paid 100 eur, the release asks 9900 eur',
          refund: refunded,
        },
        {
          eventId: 'evt_x',
          paymentIntentId: 'pi_x',
          amount: 9900,
          currency: 'eur',
          reason: 'the payment is for resale resale-0',
          refund: refunded,
        },
      ]);

      await handle.signal(PAYMENT_SUCCEEDED_SIGNAL, paid);
      const authorized = await inState(handle, 'AWAITING_CLAIM');
      assert.equal(authorized.paymentIntentId, 'pi_1');
      assert.equal(authorized.buyerAuthorizeTxHash, '0xbuyer');
      const authorizedAt = log.calls.find((call) => call.name === 'authorizeClaimOnChain')!.at;
      assert.ok(
        near(Date.parse(authorized.claimDeadline!) - authorizedAt, 30 * 24 * HOUR),
        'deadline in 30 days',
      );
      assert.deepEqual(log.inputsOf('authorizeClaimOnChain'), [{ tokenId: '7', account: '0xBuyer' }]);
      assert.deepEqual(log.inputsOf('recordBuyerAuthorized'), [
        { terms, paymentIntentId: 'pi_1', transactionHash: '0xbuyer', blockNumber: 21 },
      ]);

      assert.match(String(await refused(claim(handle, '0xsomeone'))), /Only the buyer who paid/);
      const claimed = { txHash: '0xclaim', ownerWallet: '0xBuyer', from: '0xSeller' };
      assert.deepEqual(await claim(handle, '0xbuyer'), claimed, 'wallets compare case-insensitively');
      assert.deepEqual(await handle.result(), { state: 'CLAIMED', ...claimed });
      assert.deepEqual(log.inputsOf('claimOnChain'), [
        { tokenId: '7', buyerWallet: '0xBuyer', sinceBlock: 21 },
      ]);
      const done = await progressOf(handle);
      assert.equal(done.state, 'CLAIMED');
      assert.equal(done.claimTxHash, '0xclaim');
      assert.equal(done.payoutWorkflowId, 'resale-payout:test:resale-1');

      const payout = harness.env.client.workflow.getHandle(done.payoutWorkflowId!);
      assert.equal((await payout.result()).status, 'PAID');
      assert.deepEqual(log.inputsOf('payOutResale'), [{ terms, paymentIntentId: 'pi_1', chargeId: 'ch_1' }]);
      assert.deepEqual(log.names().slice(3), [
        'refundResalePayment',
        'refundResalePayment',
        'authorizeClaimOnChain',
        'recordBuyerAuthorized',
        'claimOnChain',
        'recordClaim',
        'payOutResale',
      ]);
    });
  });

  test('a checkout the payment provider refuses fails the release with nothing sent to the chain', async () => {
    const refusing = stubs({
      createResaleCheckout: () => {
        throw ApplicationFailure.create({ type: 'StripeRejected', message: 'currency not supported' });
      },
    });
    await harness.withWorker(refusing, async ({ start, log }) => {
      const handle = await start(resalePassport, terms);
      assert.deepEqual(await failureOf(handle.result()), {
        type: 'StripeRejected',
        message: 'currency not supported',
      });
      assert.deepEqual(log.names(), ['createResaleCheckout', 'recordResaleEnded']);
      assert.deepEqual(log.inputsOf('recordResaleEnded'), [ended('FAILED')]);
      assert.equal((await progressOf(handle)).state, 'FAILED');
    });
  });

  test('a delegation the chain refuses expires the checkout', async () => {
    const refusing = stubs({
      delegateToPlatform: () => {
        throw ApplicationFailure.create({ type: 'ChainRejected', message: 'not the owner' });
      },
    });
    await harness.withWorker(refusing, async ({ start, log }) => {
      assert.equal((await failureOf((await start(resalePassport, terms)).result())).type, 'ChainRejected');
      assert.deepEqual(log.names(), [
        'createResaleCheckout',
        'delegateToPlatform',
        'expireResaleCheckout',
        'recordResaleEnded',
      ]);
      assert.deepEqual(log.inputsOf('expireResaleCheckout'), [{ sessionId: 'cs_1' }]);
    });
  });

  test('a release that cannot be recorded: the checkout expires, then the delegation is revoked', async () => {
    const refusing = stubs({
      recordResaleStarted: () => {
        throw domainRefusal('the token is already for sale');
      },
    });
    await harness.withWorker(refusing, async ({ start, log }) => {
      assert.equal(
        (await failureOf((await start(resalePassport, terms)).result())).message,
        'the token is already for sale',
      );
      assert.deepEqual(log.names(), [
        'createResaleCheckout',
        'delegateToPlatform',
        'recordResaleStarted',
        'expireResaleCheckout',
        'revokeClaimOnChain',
        'recordResaleEnded',
      ]);
      assert.deepEqual(log.inputsOf('revokeClaimOnChain'), [{ tokenId: '7' }]);
      assert.deepEqual(log.inputsOf('recordResaleEnded'), [ended('FAILED')]);
    });
  });

  test('unpaid after 24 hours: the checkout expires, the delegation is revoked, the resale EXPIRED', async () => {
    await harness.withWorker(stubs(), async ({ start, log }) => {
      const handle = await start(resalePassport, terms);
      assert.deepEqual(await handle.result(), { state: 'EXPIRED', revokeTxHash: '0xrevoke' });
      assert.deepEqual(log.names().slice(3), [
        'expireResaleCheckout',
        'revokeClaimOnChain',
        'recordResaleEnded',
      ]);
      const expiredAfter = log.calls[3]!.at - log.calls[2]!.at;
      assert.ok(expiredAfter >= 24 * HOUR && expiredAfter < 24 * HOUR + 60_000, `${expiredAfter} ms`);
      assert.deepEqual(log.inputsOf('recordResaleEnded'), [ended('EXPIRED')]);
      assert.equal((await progressOf(handle)).state, 'EXPIRED');
    });
  });

  test('paid but unclaimed for 30 days: the buyer’s authorization is revoked, then the payment refunded', async () => {
    await harness.withWorker(stubs(), async ({ start, log }) => {
      const handle = await start(resalePassport, terms);
      await inState(handle, 'AWAITING_PAYMENT');
      await handle.signal(PAYMENT_SUCCEEDED_SIGNAL, paid);
      assert.deepEqual(await handle.result(), { state: 'CLAIM_EXPIRED', revokeTxHash: '0xrevoke' });
      assert.deepEqual(log.names().slice(5), [
        'revokeClaimOnChain',
        'refundResalePayment',
        'recordResaleEnded',
      ]);
      const waited = log.calls[5]!.at - log.calls[4]!.at;
      assert.ok(waited >= 30 * 24 * HOUR && waited < 30 * 24 * HOUR + 60_000, `${waited} ms`);
      assert.deepEqual(log.inputsOf('refundResalePayment'), [{ terms, paymentIntentId: 'pi_1' }]);
      assert.deepEqual(log.inputsOf('recordResaleEnded'), [ended('CLAIM_EXPIRED')]);
      assert.equal(log.inputsOf('expireResaleCheckout').length, 0, 'a paid checkout is not expired');
    });
  });

  test('a claim on chain that cannot be recorded is retried until done; the claim answers after', async () => {
    let refusals = 0;
    const recordClaim: Stubs['recordClaim'] = () => {
      if (++refusals === 1) throw domainRefusal('owner row locked');
    };
    await harness.withWorker(stubs({ recordClaim }), async ({ start, log }) => {
      const handle = await start(resalePassport, terms);
      await inState(handle, 'AWAITING_PAYMENT');
      await handle.signal(PAYMENT_SUCCEEDED_SIGNAL, paid);
      await inState(handle, 'AWAITING_CLAIM');
      const claiming = claim(handle);
      const flagged = await eventually(
        () => progressOf(handle),
        (progress) => progress.attention !== undefined,
      );
      assert.equal(flagged.state, 'CLAIMING');
      assert.equal(flagged.claimTxHash, '0xclaim');
      assert.deepEqual(flagged.attention, {
        reason: 'record_failed',
        error: 'owner row locked',
        failedRounds: 1,
      });
      await handle.signal(RETRY_RECORDING_SIGNAL);
      assert.equal((await claiming).txHash, '0xclaim');
      assert.equal((await handle.result()).state, 'CLAIMED');
      assert.equal(log.inputsOf('recordClaim').length, 2);
      assert.equal((await progressOf(handle)).attention, undefined);
    });
  });
});
