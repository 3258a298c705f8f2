import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { WebhookDeliveryResult } from '../../src/processes/webhook-delivery.ts';
import type { TestTenant } from '../support/api.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { type Receiver, startReceiver, waitUntil } from './support.ts';

/**
 * Issue 33 item 9. The spec: "When the receiver does not answer with a 2xx status, the event is retried
 * [on the six-step schedule]. After 6 attempts the event is moved permanently to a dead-letter queue." A 410
 * Gone is such an answer: it is retried like any other, never loses the event, and leaves the endpoint as its
 * owner set it. The whole path as a subscriber sees it: the API, the worker's dispatcher (attempt 1), the
 * delivery workflow (attempts 2 to 6, time-skipping), the dead-letter queue and its replay.
 */
describe('a receiver answering 410 Gone', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let receiver: Receiver;
  let gone = true;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    stack = await startTestStack({ temporal: 'time-skipping' });
    tenant = await stack.api.createTenant('Gone Receiver GmbH');
    receiver = await startReceiver(() => (gone ? { status: 410, body: 'gone for now' } : { status: 204 }));
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.close();
  });

  test('is retried on the six-step schedule, ends as a dead letter, and is delivered after a replay', async () => {
    const created = await call('POST', '/v1/webhooks/endpoints', { url: receiver.url });
    assert.equal(created.status, 201, created.text);
    const endpointId: string = created.body.endpoint.id;
    const sent = await call('POST', `/v1/webhooks/endpoints/${endpointId}/test`);
    assert.equal(sent.status, 202, sent.text);
    const eventId: string = sent.body.eventId;
    const deliveryOf = async () => {
      const res = await call('GET', `/v1/webhooks/events/${eventId}/deliveries`);
      assert.equal(res.status, 200, res.text);
      return res.body.deliveries[0];
    };

    await waitUntil(async () => (await deliveryOf())?.attemptCount === 1, 20_000, 'attempt 1');
    const afterFirst = await deliveryOf();
    assert.equal(afterFirst.lastStatusCode, 410);
    assert.equal(afterFirst.status, 'pending', 'a 410 is retried like any other non-2xx answer');

    const handle = stack.temporal.client.workflow.getHandle(`webhook:${eventId}:${endpointId}`);
    const result: WebhookDeliveryResult = await handle.result();
    assert.equal(result.status, 'dead');
    assert.equal(receiver.requests.length, 6, 'six attempts, as the spec schedules them');
    const dead = await deliveryOf();
    assert.equal(dead.status, 'dead');
    assert.equal(dead.attemptCount, 6);
    assert.deepEqual(
      dead.attempts.map((a: { statusCode: number }) => a.statusCode),
      [410, 410, 410, 410, 410, 410],
    );
    const endpoint = await call('GET', `/v1/webhooks/endpoints/${endpointId}`);
    assert.equal(endpoint.body.endpoint.enabled, true, 'the endpoint stays as its owner set it');
    assert.equal(endpoint.body.endpoint.disabledReason, null);
    const letters = await call('GET', `/v1/webhooks/dead-letters?endpointId=${endpointId}`);
    assert.equal(letters.status, 200, letters.text);
    assert.deepEqual(
      letters.body.deliveries.map((d: { id: string }) => d.id),
      [dead.id],
    );

    // The receiver is back: the usual replay delivers the event.
    gone = false;
    const replayed = await call('POST', `/v1/webhooks/dead-letters/${dead.id}/replay`);
    assert.equal(replayed.status, 202, replayed.text);
    const again: WebhookDeliveryResult = await stack.temporal.client.workflow
      .getHandle(`webhook:${eventId}:${endpointId}`)
      .result();
    assert.equal(again.status, 'succeeded');
    const delivered = await deliveryOf();
    assert.equal(delivered.status, 'succeeded');
    assert.equal(delivered.attemptCount, 7);
    assert.equal(delivered.attempts.at(-1).statusCode, 204);
    assert.equal(receiver.requests.length, 7);
    assert.equal(receiver.requests.at(-1)!.headers['webhook-id'], eventId);
    const empty = await call('GET', `/v1/webhooks/dead-letters?endpointId=${endpointId}`);
    assert.deepEqual(empty.body.deliveries, []);
  });
});
