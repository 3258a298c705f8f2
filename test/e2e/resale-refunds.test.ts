import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/** What the service asked of Stripe: the refunds it requested, with their idempotency keys. */
interface StripeRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  params: URLSearchParams;
}

/** A pass-through in front of the run's stripe-mock that notes each request (stripe-mock keeps nothing). */
async function recordingStripe() {
  const target = process.env.STRIPE_API_BASE;
  assert.ok(target, 'the test run starts stripe-mock');
  const requests: StripeRequest[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const key = request.headers['idempotency-key'];
    requests.push({
      method: request.method!,
      path: request.url!,
      idempotencyKey: typeof key === 'string' ? key : undefined,
      params: new URLSearchParams(body.toString()),
    });
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(
        ([name]) => !['host', 'connection', 'content-length'].includes(name),
      ),
    ) as Record<string, string>;
    const upstream = await fetch(new URL(request.url!, target), {
      method: request.method!,
      headers,
      ...(body.length ? { body } : {}),
    });
    response.writeHead(upstream.status, {
      'content-type': upstream.headers.get('content-type') ?? 'application/json',
    });
    response.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    refunds: () => requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds'),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe('resale payments that do not complete the sale (stripe-mock, the real SDK)', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let receiver: Receiver;
  let webhookSecret: string;
  let stripe: Awaited<ReturnType<typeof recordingStripe>>;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    stripe = await recordingStripe();
    stack = await startTestStack({ apiEnv: { STRIPE_API_BASE: stripe.url } });
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
    await stripe?.close();
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
    assert.deepEqual(
      stripe.refunds().map((r) => [r.params.get('payment_intent'), r.idempotencyKey]),
      [
        ['pi_refund_little', 'dpp-refund-pi_refund_little'],
        ['pi_refund_second', 'dpp-refund-pi_refund_second'],
      ],
      'each refused payment refunded once at Stripe, under a key of its own',
    );
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

describe('a payment whose event arrives after its resale ended (time-skipping Temporal)', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let stripe: Awaited<ReturnType<typeof recordingStripe>>;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    stripe = await recordingStripe();
    stack = await startTestStack({ temporal: 'time-skipping', apiEnv: { STRIPE_API_BASE: stripe.url } });
    tenant = await stack.api.createTenant('Late Apparel');
  });
  afterAll(async () => {
    await stack?.close();
    await stripe?.close();
  });

  test('is refunded once; the payment that paid a resale never is', async () => {
    const tokenId = await enrollAndMint(call, '04ABCDEF00F002');
    const release = () =>
      call('POST', '/v1/dpp/release', {
        tokenId,
        price: { amount: 5000, currency: 'eur' },
        buyerEmail: BUYER,
      });
    const handle = () => stack.temporal.client.workflow.getHandle(`resale:test:${tokenId}`);
    assert.equal((await release()).status, 201);
    assert.equal((await handle().result()).state, 'EXPIRED');

    const late = specPayment('evt_late', 'pi_late', tokenId, 5000);
    const answer = await postStripeEvent(stack.api, late);
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.outcome, 'applied', 'a payment of a resale that ended is refunded');
    assert.equal((await postStripeEvent(stack.api, late)).body.outcome, 'duplicate');
    assert.deepEqual(
      stripe
        .refunds()
        .map((r) => [r.params.get('payment_intent'), r.idempotencyKey, r.params.get('metadata[resaleId]')]),
      [['pi_late', 'dpp-refund-pi_late', (await call('GET', `/v1/dpp/resales/${tokenId}`)).body.resaleId]],
    );

    // Released again, paid, never claimed: the workflow refunds its payment after 30 days. The same payment's
    // event arriving again later is the sale's own payment: not refunded a second time.
    assert.equal((await release()).status, 201);
    const paid = specPayment('evt_late_paid', 'pi_late_paid', tokenId, 5000);
    assert.equal((await postStripeEvent(stack.api, paid)).body.outcome, 'applied');
    assert.equal((await handle().result()).state, 'CLAIM_EXPIRED');
    const refundsBefore = stripe.refunds().length;
    const redelivered = specPayment('evt_late_paid_again', 'pi_late_paid', tokenId, 5000);
    assert.equal((await postStripeEvent(stack.api, redelivered)).body.outcome, 'ignored');
    assert.equal(stripe.refunds().length, refundsBefore);
    assert.deepEqual(
      stripe.refunds().map((r) => r.params.get('payment_intent')),
      ['pi_late', 'pi_late_paid'],
    );
  });
});
