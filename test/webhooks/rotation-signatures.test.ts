import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { type Receiver, specSignature, startReceiver } from './support.ts';

/**
 * Issue 33 item 5: a receiver rotates its endpoint's secret and installs the new one at once. Whichever header
 * it verifies, every delivery from then on verifies with the new secret; a Standard Webhooks receiver that has
 * not switched yet still verifies `webhook-signature` with the old one until the overlap ends.
 */
describe('signatures during a secret rotation, as a receiver sees them', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let receiver: Receiver;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.api.createTenant('Rotating Receiver AG');
    receiver = await startReceiver(() => ({ status: 204 }));
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.close();
  });

  test('service-signature is signed with the new secret from the rotation on; webhook-signature with both', async () => {
    const created = await call('POST', '/v1/webhooks/endpoints', { url: receiver.url });
    assert.equal(created.status, 201, created.text);
    const endpointId: string = created.body.endpoint.id;
    const oldSecret: string = created.body.secret;
    const rotated = await call('POST', `/v1/webhooks/endpoints/${endpointId}/rotate-secret`, {
      overlapSeconds: 3600,
    });
    assert.equal(rotated.status, 200, rotated.text);
    const newSecret: string = rotated.body.secret;

    const sent = await call('POST', `/v1/webhooks/endpoints/${endpointId}/test`);
    assert.equal(sent.status, 202, sent.text);
    await receiver.waitFor(1);
    const [delivery] = receiver.requests;
    assert.equal(JSON.parse(delivery!.body).eventId, sent.body.eventId);

    assert.equal(
      delivery!.headers['service-signature'],
      specSignature(newSecret, delivery!.body),
      'a receiver that switched to the new secret at once verifies service-signature',
    );
    const standard = {
      'webhook-id': String(delivery!.headers['webhook-id']),
      'webhook-timestamp': String(delivery!.headers['webhook-timestamp']),
      'webhook-signature': String(delivery!.headers['webhook-signature']),
    };
    assert.equal(standard['webhook-signature'].split(' ').length, 2);
    for (const secret of [newSecret, oldSecret]) {
      assert.doesNotThrow(
        () => new Webhook(secret).verify(delivery!.body, standard),
        'either secret verifies',
      );
    }
  });
});
