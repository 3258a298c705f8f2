import assert from 'node:assert/strict';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { userWalletAddress } from '../../src/accounts/wallets/user-wallet.ts';
import { flagRefundFailed } from '../../src/lifecycle/resale/refund-failed.ts';
import { createLogger } from '../../src/platform/logging/logger.ts';
import type { RefusedPayment, ResaleProgress } from '../../src/processes/resale.ts';
import type { TestTenant } from '../support/api.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { postStripeEvent, TEST_STRIPE } from '../support/stripe.ts';
import { waitFor } from '../support/wait-for.ts';
import { type Receiver, specSignature, startReceiver } from '../webhooks/support.ts';

const BUYER = 'refund.buyer@example.com';
const buyerWallet = userWalletAddress(undefined, BUYER);

/**
 * payment_intent.succeeded exactly as the spec shows it: id, type, data.object {id, amount, currency,
 * metadata {tokenId, buyerWallet}}; no created, no livemode, no resaleId. Signed with the test secret.
 */
function specPayment(eventId: string, intentId: string, tokenId: string, amount: number, currency = 'eur') {
  const body = JSON.stringify({
    id: eventId,
    type: 'payment_intent.succeeded',
    data: { object: { id: intentId, amount, currency, metadata: { tokenId, buyerWallet } } },
  });
  const header = new Stripe(TEST_STRIPE.secretKey).webhooks.generateTestHeaderString({
    payload: body,
    secret: TEST_STRIPE.webhookSecret,
  });
  return { body, headers: { 'stripe-signature': header, 'content-type': 'application/json' } };
}

describe('resale payments that do not complete the sale (stripe-mock, the real SDK)', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let receiver: Receiver;
  let webhookSecret: string;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.api.createTenant('Refund Apparel');
    receiver = await startReceiver();
    const endpoint = await call('POST', '/v1/webhooks/endpoints', {
      url: receiver.url,
      eventTypes: ['resale.payment_refund_failed'],
    });
    assert.equal(endpoint.status, 201, endpoint.text);
    webhookSecret = endpoint.body.secret;
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.close();
  });

  test('the spec’s event pays the resale; a wrong amount and a second payment are refunded once each', async () => {
    const tokenId = await enrollAndMint(call, '04ABCDEF00F001');
    const released = await call('POST', '/v1/dpp/release', {
      tokenId,
      price: { amount: 12900, currency: 'eur' },
      buyerEmail: BUYER,
    });
    assert.equal(released.status, 201, released.text);
    const progress = async () =>
      (await call('GET', `/v1/dpp/resales/${tokenId}`)).body.progress as ResaleProgress;
    const refunds = (count: number) =>
      waitFor(
        'refunds',
        progress,
        (p) => (p?.refusedPayments ?? []).filter((r) => r.refund.status !== 'pending').length === count,
      );
    const handle = stack.temporal.client.workflow.getHandle(`resale:test:${tokenId}`);
    const refundRequests = async () =>
      ((await handle.fetchHistory()).events ?? []).filter(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'refundResalePayment',
      ).length;

    const tooLittle = specPayment('evt_refund_little', 'pi_refund_little', tokenId, 100);
    const first = await postStripeEvent(stack.api, tooLittle);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.outcome, 'applied');
    const [refused] = (await refunds(1)).refusedPayments!;
    assert.equal(refused!.paymentIntentId, 'pi_refund_little');
    assert.equal(refused!.reason, 'paid 100 eur, the release asks 12900 eur');
    assert.equal(refused!.refund.status, 'refunded');
    assert.match((refused!.refund as { refundId: string }).refundId, /^re_/, 'stripe-mock’s refund');
    // Stripe delivers the same event again, and another event of the same payment intent: no second refund.
    assert.equal((await postStripeEvent(stack.api, tooLittle)).body.outcome, 'duplicate');
    const again = specPayment('evt_refund_little_2', 'pi_refund_little', tokenId, 100);
    assert.equal((await postStripeEvent(stack.api, again)).body.outcome, 'applied');

    const paid = await postStripeEvent(
      stack.api,
      specPayment('evt_refund_paid', 'pi_refund_paid', tokenId, 12900),
    );
    assert.equal(paid.body.outcome, 'applied', paid.text);
    const awaiting = await waitFor(
      'buyer authorized',
      async () => (await call('GET', `/v1/dpp/resales/${tokenId}`)).body,
      (body) => body.status === 'AWAITING_CLAIM',
    );
    assert.equal(awaiting.progress.paymentIntentId, 'pi_refund_paid', 'the spec’s body pays the resale');

    const second = specPayment('evt_refund_second', 'pi_refund_second', tokenId, 12900);
    assert.equal((await postStripeEvent(stack.api, second)).body.outcome, 'applied');
    const both = (await refunds(2)).refusedPayments!;
    assert.deepEqual(
      both.map((r) => [r.paymentIntentId, r.reason, r.refund.status]),
      [
        ['pi_refund_little', 'paid 100 eur, the release asks 12900 eur', 'refunded'],
        ['pi_refund_second', 'the resale is already paid (pi_refund_paid)', 'refunded'],
      ],
    );
    assert.equal(await refundRequests(), 2, 'one refund request per refused payment');
    assert.equal((await progress()).state, 'AWAITING_CLAIM', 'the sale goes on');
  });

  test('a refund that failed for good: one resale.payment_refund_failed event to the brand, signed', async () => {
    const scope = { companyId: tenant.companyId, environment: 'test' as const };
    const terms = {
      resaleId: '6a0d4c55-9a38-4a4e-9d43-0d3a0c7b1f10',
      scope,
      tokenId: '42',
      seller: { kind: 'company' as const, companyId: tenant.companyId },
      sellerWallet: '0x0000000000000000000000000000000000000002',
      buyerEmail: BUYER,
      buyerWallet,
      price: { amount: 12900, currency: 'eur' },
      returnUrl: 'https://shop.example/return',
    };
    const refused: RefusedPayment = {
      eventId: 'evt_refund_failed',
      paymentIntentId: 'pi_refund_failed',
      amount: 100,
      currency: 'eur',
      reason: 'paid 100 eur, the release asks 12900 eur',
      refund: {
        status: 'failed',
        error: 'Stripe refused the request (StripeInvalidRequestError, charge_disputed).',
      },
    };
    const logger = createLogger('silent');
    // The activity's retry after a recorded flag records nothing more.
    await flagRefundFailed(stack.api.db.orm.em.fork(), logger, terms, refused);
    await flagRefundFailed(stack.api.db.orm.em.fork(), logger, terms, refused);
    await receiver.waitFor(1);
    const [delivered] = receiver.requests;
    assert.equal(delivered!.headers['service-signature'], specSignature(webhookSecret, delivered!.body));
    const envelope = JSON.parse(delivered!.body);
    assert.equal(envelope.eventType, 'resale.payment_refund_failed');
    assert.deepEqual(envelope.data, {
      tokenId: '42',
      resaleId: terms.resaleId,
      paymentIntentId: 'pi_refund_failed',
      amount: '1.00',
      currency: 'EUR',
      reason: 'paid 100 eur, the release asks 12900 eur',
      error: 'Stripe refused the request (StripeInvalidRequestError, charge_disputed).',
    });
    const rows = await stack.api.db.orm.em
      .fork()
      .execute(`select id from outbox_events where event_type = 'resale.payment_refund_failed'`);
    assert.equal(rows.length, 1);
  });
});
