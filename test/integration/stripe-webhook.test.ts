import assert from 'node:assert/strict';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { startTestApi, type TestApi } from '../support/api.ts';
import { signedStripeEvent, TEST_STRIPE } from '../support/stripe.ts';

/** Any body, signed as Stripe signs (the SDK's own helper) with the test environment's webhook secret. */
function signedBody(body: string): { body: string; headers: Record<string, string> } {
  const header = new Stripe(TEST_STRIPE.secretKey).webhooks.generateTestHeaderString({
    payload: body,
    secret: TEST_STRIPE.webhookSecret,
  });
  return { body, headers: { 'stripe-signature': header, 'content-type': 'application/json' } };
}

describe('POST /v1/public/webhook/checkout (Stripe events)', () => {
  let api: TestApi;
  const post = (signed: { body: string; headers: Record<string, string> }) =>
    api.call('POST', '/v1/public/webhook/checkout', {
      env: null,
      rawBody: signed.body,
      headers: signed.headers,
    });
  const event = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    type: 'customer.created',
    data: { object: { id: 'cus_123', object: 'customer' } },
    ...extra,
  });

  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api.close());

  test('a signed event is received once: the same id again changes nothing; no x-service-env needed', async () => {
    const first = await post(signedStripeEvent(event('evt_once_1')));
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body, { success: true, received: true, outcome: 'ignored' });
    const again = await post(signedStripeEvent(event('evt_once_1')));
    assert.equal(again.status, 200);
    assert.equal(again.body.outcome, 'duplicate');
    const rows = await api.db.orm.em
      .fork()
      .execute<{ id: string; environment: string; type: string }[]>(
        'select id, environment, type from stripe_events',
      );
    assert.deepEqual(rows, [{ id: 'evt_once_1', environment: 'test', type: 'customer.created' }]);
  });

  test('forged, missing, stale or wrong-mode signatures are refused with 400 and nothing is recorded', async () => {
    const forged = signedStripeEvent(event('evt_forged'), { secret: 'whsec_someoneElsesSecret' });
    const tampered = signedStripeEvent(event('evt_tampered'));
    const stale = signedStripeEvent(event('evt_stale'), { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    const liveWithTestSecret = signedStripeEvent(event('evt_live', { livemode: true }));
    for (const [name, request] of [
      ['forged', forged],
      ['tampered body', { ...tampered, body: tampered.body.replace('cus_123', 'cus_999') }],
      ['no header', { body: tampered.body, headers: { 'content-type': 'application/json' } }],
      ['stale', stale],
      ['live event, test secret', liveWithTestSecret],
    ] as const) {
      const answer = await post(request);
      assert.equal(answer.status, 400, `${name}: ${answer.text}`);
      assert.equal(answer.body.code, 'invalid_signature', name);
      assert.equal(answer.headers.get('content-type'), 'application/problem+json');
    }
    const rows = await api.db.orm.em
      .fork()
      .execute<{ id: string }[]>(`select id from stripe_events where id <> 'evt_once_1'`);
    assert.deepEqual(rows, []);
  });

  test('malformed events with a valid signature are 400 problems (a too-large body 413), nothing recorded', async () => {
    const now = Math.floor(Date.now() / 1000);
    const envelope = { object: 'event', livemode: false, created: now, type: 'payment_intent.succeeded' };
    const intent = {
      id: 'pi_malformed',
      object: 'payment_intent',
      amount: 12900,
      currency: 'eur',
      metadata: { tokenId: '1', buyerWallet: '0x0000000000000000000000000000000000000001' },
    };
    const malformed: [string, unknown][] = [
      ['no data', { ...envelope, id: 'evt_no_data' }],
      ['data without object', { ...envelope, id: 'evt_no_object', data: {} }],
      ['an id of 400 KB', { ...envelope, id: `evt_${'x'.repeat(400 * 1024)}`, data: { object: intent } }],
      [
        'livemode as text',
        { ...envelope, livemode: 'false', id: 'evt_livemode_text', data: { object: intent } },
      ],
      [
        'created as text',
        { ...envelope, created: 'yesterday', id: 'evt_created_text', data: { object: intent } },
      ],
      ['an array', [envelope]],
      [
        'an amount that is not an integer',
        { ...envelope, id: 'evt_amount_text', data: { object: { ...intent, amount: '129.00' } } },
      ],
      [
        'a payment intent without id',
        { ...envelope, id: 'evt_intent_no_id', data: { object: { ...intent, id: undefined } } },
      ],
      [
        'metadata that is not text',
        { ...envelope, id: 'evt_meta_obj', data: { object: { ...intent, metadata: { tokenId: { n: 1 } } } } },
      ],
    ];
    for (const [name, event] of malformed) {
      const answer = await post(signedBody(JSON.stringify(event)));
      assert.equal(answer.status, 400, `${name}: ${answer.status} ${answer.text.slice(0, 300)}`);
      assert.equal(answer.headers.get('content-type'), 'application/problem+json', name);
      assert.ok(
        ['malformed_event', 'validation_failed'].includes(answer.body.code),
        `${name}: ${answer.body.code}`,
      );
      assert.ok(answer.text.length < 4000, `${name}: the problem does not echo the event`);
    }
    const tooLarge = await post(
      signedBody(
        JSON.stringify({ ...envelope, id: `evt_${'x'.repeat(600 * 1024)}`, data: { object: intent } }),
      ),
    );
    assert.equal(tooLarge.status, 413, tooLarge.text.slice(0, 300));
    const rows = await api.db.orm.em
      .fork()
      .execute<{ id: string }[]>(`select left(id, 40) as id from stripe_events where id <> 'evt_once_1'`);
    assert.deepEqual(rows, []);
  });

  test('a payment in the spec’s shape that names no open resale is recorded and ignored', async () => {
    const paid = signedStripeEvent({
      id: 'evt_no_resale',
      type: 'payment_intent.succeeded',
      data: {
        object: {
          id: 'pi_no_resale',
          amount: 12900,
          currency: 'eur',
          metadata: { tokenId: '17', buyerWallet: '0x0000000000000000000000000000000000000001' },
        },
      },
    });
    const answer = await post(paid);
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.outcome, 'ignored');
  });

  test('the spec’s exact body (id, type, data.object only: no created, no livemode) is accepted', async () => {
    // The spec's inbound payment webhook: nothing but these members. The secret that verifies names the
    // environment (here test); the time of receipt stands in for `created`.
    const body = JSON.stringify({
      id: 'evt_spec_shape',
      type: 'payment_intent.succeeded',
      data: {
        object: {
          id: 'pi_spec_shape',
          amount: 12900,
          currency: 'eur',
          metadata: { tokenId: '17', buyerWallet: '0x0000000000000000000000000000000000000001' },
        },
      },
    });
    const before = Date.now();
    const answer = await post(signedBody(body));
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.outcome, 'ignored', 'no open resale of token 17');
    assert.equal((await post(signedBody(body))).body.outcome, 'duplicate');
    const [row] = await api.db.orm.em
      .fork()
      .execute<{ environment: string; type: string; created_at: Date }[]>(
        `select environment, type, created_at from stripe_events where id = 'evt_spec_shape'`,
      );
    assert.equal(row?.environment, 'test');
    assert.equal(row?.type, 'payment_intent.succeeded');
    assert.ok(Math.abs(new Date(row!.created_at).getTime() - before) < 60_000, 'received just now');
  });
});
