import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { startTestApi, type TestApi } from '../support/api.ts';
import { signedStripeEvent } from '../support/stripe.ts';

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
});
