import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { EVENT_TYPES } from '../../src/webhooks/event-types.ts';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';

/** The list the console's endpoint form offers comes from the API, so src/webhooks/event-types.ts is its one source. */
describe('GET /v1/webhooks/event-types', () => {
  let api: TestApi;
  let tenant: TestTenant;
  beforeAll(async () => {
    api = await startTestApi();
    tenant = await api.createTenant();
  });
  afterAll(() => api?.close());

  test('answers the event types an endpoint may subscribe to, each accepted by the endpoint create', async () => {
    const listed = await api.call('GET', '/v1/webhooks/event-types', { key: tenant.testKey });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.body.eventTypes, [...EVENT_TYPES]);
    assert.ok(!listed.body.eventTypes.includes('webhook.test'), 'the test event is never subscribed to');
    const created = await api.call('POST', '/v1/webhooks/endpoints', {
      key: tenant.testKey,
      body: { url: 'http://127.0.0.1:9/hooks', eventTypes: listed.body.eventTypes },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.endpoint.eventTypes, [...EVENT_TYPES]);
    const live = await api.call('GET', '/v1/webhooks/event-types', { key: tenant.liveKey, env: 'live' });
    assert.deepEqual(live.body.eventTypes, [...EVENT_TYPES]);
  });

  test('takes a credential like every webhook operation', async () => {
    const anonymous = await api.call('GET', '/v1/webhooks/event-types');
    assert.equal(anonymous.status, 401);
    const spec = await api.call('GET', '/openapi.json', { env: null });
    const operation = spec.body.paths['/v1/webhooks/event-types']?.get;
    assert.equal(operation?.operationId, 'listWebhookEventTypes');
  });
});
