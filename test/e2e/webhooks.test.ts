import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { verifyServiceSignature, verifyStandardSignature } from '../../src/webhooks/signing.ts';
import type { TestTenant } from '../support/api.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import {
  type ReceivedRequest,
  type Receiver,
  specSignature,
  standardWebhooksSignature,
  startReceiver,
  waitUntil,
} from '../webhooks/support.ts';

/**
 * A receiver written from the spec's sentence alone: "computes HMAC SHA-256 over the payload with the webhook
 * secret, hex-encodes the digest, and compares it with the header value; equality means authentic."
 */
function specReceiverAccepts(request: ReceivedRequest, secret: string): boolean {
  const digest = createHmac('sha256', secret).update(request.body).digest('hex');
  return digest === request.headers['service-signature'];
}

/** What a receiver holding only `secret` concludes about a request, by the spec and by Standard Webhooks. */
function verifiesWith(request: ReceivedRequest, secret: string) {
  const headers = {
    id: String(request.headers['webhook-id']),
    timestamp: String(request.headers['webhook-timestamp']),
    signature: String(request.headers['webhook-signature']),
  };
  const standard = headers.signature.split(' ');
  return {
    spec: specReceiverAccepts(request, secret),
    standard: standard.includes(
      standardWebhooksSignature(secret, headers.id, headers.timestamp, request.body),
    ),
    helpers: {
      spec: verifyServiceSignature(String(request.headers['service-signature']), request.body, secret),
      standard: verifyStandardSignature(headers, request.body, secret),
    },
  };
}

describe('webhooks end to end (HTTP API → outbox → dispatcher → delivery workflow → receiver)', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let receiver: Receiver;
  let mintedOnly: Receiver;
  let endpointId: string;
  let secret: string;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  const quietFor = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.api.createTenant('Acme Apparel');
    receiver = await startReceiver();
    mintedOnly = await startReceiver();
    const created = await call('POST', '/v1/webhooks/endpoints', { url: receiver.url });
    assert.equal(created.status, 201, created.text);
    endpointId = created.body.endpoint.id;
    secret = created.body.secret;
    const other = await call('POST', '/v1/webhooks/endpoints', {
      url: mintedOnly.url,
      eventTypes: ['asset.minted'],
    });
    assert.equal(other.status, 201, other.text);
  });
  afterAll(async () => {
    await stack.close();
    await receiver.close();
    await mintedOnly.close();
  });

  test('enroll → exactly one signed asset.initialized at the receiver', async () => {
    const enrolled = await call('POST', '/v1/dpp/enroll', { chipUid: '04:de:5f:1e:ac:c0:40' });
    assert.equal(enrolled.status, 201, enrolled.text);
    await receiver.waitFor(1);
    const [request] = receiver.requests;
    const envelope = JSON.parse(request!.body);
    assert.equal(envelope.eventType, 'asset.initialized');
    assert.deepEqual(Object.keys(envelope.data).sort(), ['chipUid', 'enrolledAt', 'status']);
    assert.equal(envelope.data.chipUid, '04DE5F1EACC040');
    assert.equal(envelope.data.status, 'INACTIVE');
    assert.equal(request!.headers['webhook-id'], envelope.eventId);
    assert.deepEqual(verifiesWith(request!, secret), {
      spec: true,
      standard: true,
      helpers: { spec: true, standard: true },
    });
    assert.deepEqual(verifiesWith(request!, 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='), {
      spec: false,
      standard: false,
      helpers: { spec: false, standard: false },
    });

    // Enrolling again is idempotent (no second event); nothing else arrives, here or at the minted-only endpoint.
    assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: '04DE5F1EACC040' })).status, 200);
    await quietFor(2_500);
    assert.equal(receiver.requests.length, 1);
    assert.equal(mintedOnly.requests.length, 0);

    const path = `/v1/webhooks/events/${envelope.eventId}/deliveries`;
    await waitUntil(async () => (await call('GET', path)).body?.deliveries?.[0]?.status === 'succeeded');
    const listed = await call('GET', path);
    assert.equal(listed.body.deliveries.length, 1);
    const [delivery] = listed.body.deliveries;
    assert.equal(delivery.endpointId, endpointId);
    assert.equal(delivery.attemptCount, 1);
    assert.deepEqual(
      delivery.attempts.map((a: { attempt: number; statusCode: number }) => [a.attempt, a.statusCode]),
      [[1, 200]],
    );
  });

  test('during a secret rotation service-signature is signed with the new secret at once, Standard Webhooks with either', async () => {
    const rotated = await call('POST', `/v1/webhooks/endpoints/${endpointId}/rotate-secret`, {
      overlapSeconds: 3600,
    });
    assert.equal(rotated.status, 200, rotated.text);
    const newSecret: string = rotated.body.secret;
    const before = receiver.requests.length;
    assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: '04DE5F1EACC041' })).status, 201);
    await receiver.waitFor(before + 1);
    const request = receiver.requests[before]!;
    assert.equal(request.headers['service-signature'], specSignature(newSecret, request.body));
    assert.equal(String(request.headers['webhook-signature']).split(' ').length, 2);
    assert.deepEqual(verifiesWith(request, secret), {
      spec: false,
      standard: true,
      helpers: { spec: false, standard: true },
    });
    assert.deepEqual(verifiesWith(request, newSecret), {
      spec: true,
      standard: true,
      helpers: { spec: true, standard: true },
    });

    // Retiring the old secret at once: only the newest signs from the next delivery on.
    const retired = await call('POST', `/v1/webhooks/endpoints/${endpointId}/rotate-secret`, {
      overlapSeconds: 0,
    });
    const latest: string = retired.body.secret;
    assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: '04DE5F1EACC042' })).status, 201);
    await receiver.waitFor(before + 2);
    const single = receiver.requests[before + 1]!;
    assert.equal(String(single.headers['webhook-signature']).split(' ').length, 1);
    assert.deepEqual(verifiesWith(single, latest), {
      spec: true,
      standard: true,
      helpers: { spec: true, standard: true },
    });
    assert.deepEqual(verifiesWith(single, newSecret), {
      spec: false,
      standard: false,
      helpers: { spec: false, standard: false },
    });
  });

  test('a test event reaches only the endpoint it names', async () => {
    const before = receiver.requests.length;
    const sent = await call('POST', `/v1/webhooks/endpoints/${endpointId}/test`);
    assert.equal(sent.status, 202, sent.text);
    await receiver.waitFor(before + 1);
    const envelope = JSON.parse(receiver.requests[before]!.body);
    assert.equal(envelope.eventType, 'webhook.test');
    assert.equal(envelope.eventId, sent.body.eventId);
    await quietFor(1_500);
    assert.equal(receiver.requests.length, before + 1);
    assert.equal(mintedOnly.requests.length, 0);
  });
});
