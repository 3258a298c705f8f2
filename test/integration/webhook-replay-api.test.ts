import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { dispatchOutboxBatch } from '../../src/webhooks/outbox-dispatch.ts';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';
import { createTestWorkflowEnvironment } from '../support/temporal.ts';
import { startedInput, webhookSeeder } from '../support/webhook-seed.ts';

describe('dead-letter replay and test events over HTTP', () => {
  let temporal: TestWorkflowEnvironment;
  let api: TestApi;
  let acme: TestTenant;
  let globex: TestTenant;
  let seed: ReturnType<typeof webhookSeeder>;

  beforeAll(async () => {
    temporal = await createTestWorkflowEnvironment();
    api = await startTestApi({}, (config) => ({
      workflows: { client: temporal.client, taskQueuePrefix: config.temporal.taskQueuePrefix },
    }));
    seed = webhookSeeder(api);
    acme = await api.createTenant('Acme');
    globex = await api.createTenant('Globex');
  });
  afterAll(async () => {
    await api.close();
    await temporal.teardown();
  });

  test('replay: a fresh run under the same workflow id, once; the delivery turns pending', async () => {
    const endpointId = await seed.createEndpoint(acme);
    const dead = await seed.seedDelivery(acme, endpointId);
    const workflowId = `webhook:${dead.eventId}:${endpointId}`;

    const res = await api.call('POST', `/v1/webhooks/dead-letters/${dead.id}/replay`, { key: acme.testKey });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.delivery.id, dead.id);
    assert.equal(res.body.delivery.status, 'pending');
    assert.equal(res.body.delivery.deadLetteredAt, null);
    assert.equal(res.body.delivery.attempts.length, 6, 'earlier attempts stay');

    const described = await temporal.client.workflow.getHandle(workflowId).describe();
    assert.equal(described.type, 'webhookDelivery');
    assert.equal(described.taskQueue, 'dpp-test');
    assert.equal(described.status.name, 'RUNNING');
    const input = await startedInput(temporal, workflowId);
    assert.equal(input.mode, 'replay');
    assert.deepEqual(input.delivery, {
      id: dead.id,
      eventId: dead.eventId,
      endpointId,
      companyId: acme.companyId,
      environment: 'test',
      eventType: 'asset.minted',
    });

    const again = await api.call('POST', `/v1/webhooks/dead-letters/${dead.id}/replay`, {
      key: acme.testKey,
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'webhook_delivery_not_dead');

    // The row is dead again while its run has not closed: nothing starts and the row stays dead.
    await seed.sql(`update webhook_deliveries set status = 'dead', dead_lettered_at = now() where id = ?`, [
      dead.id,
    ]);
    const busy = await api.call('POST', `/v1/webhooks/dead-letters/${dead.id}/replay`, { key: acme.testKey });
    assert.equal(busy.status, 409);
    assert.equal(busy.body.code, 'webhook_delivery_busy');
    const [row] = await seed.sql('select status, dead_lettered_at from webhook_deliveries where id = ?', [
      dead.id,
    ]);
    assert.equal(row!.status, 'dead');
    assert.ok(row!.dead_lettered_at);

    // Once that run has closed, a replay starts a second run under the same id.
    await temporal.client.workflow.getHandle(workflowId).terminate('test: the dead-lettering run closes');
    const second = await api.call('POST', `/v1/webhooks/dead-letters/${dead.id}/replay`, {
      key: acme.testKey,
    });
    assert.equal(second.status, 202, second.text);
    const after = await temporal.client.workflow.getHandle(workflowId).describe();
    assert.equal(after.status.name, 'RUNNING');
    assert.notEqual(after.runId, described.runId);
    await temporal.client.workflow.getHandle(workflowId).terminate('test done');
  });

  test('replay refuses deliveries that are not dead, of disabled or deleted endpoints, and of others', async () => {
    const endpointId = await seed.createEndpoint(acme);
    const pending = await seed.seedDelivery(acme, endpointId, { status: 'pending', attempts: 1 });
    const notDead = await api.call('POST', `/v1/webhooks/dead-letters/${pending.id}/replay`, {
      key: acme.testKey,
    });
    assert.equal(notDead.status, 409);
    assert.equal(notDead.body.code, 'webhook_delivery_not_dead');

    const dead = await seed.seedDelivery(acme, endpointId);
    await api.call('PATCH', `/v1/webhooks/endpoints/${endpointId}`, {
      key: acme.testKey,
      body: { enabled: false },
    });
    const disabled = await api.call('POST', `/v1/webhooks/dead-letters/${dead.id}/replay`, {
      key: acme.testKey,
    });
    assert.equal(disabled.status, 409);
    assert.equal(disabled.body.code, 'webhook_endpoint_disabled');
    await api.call('DELETE', `/v1/webhooks/endpoints/${endpointId}`, { key: acme.testKey });
    const deleted = await api.call('POST', `/v1/webhooks/dead-letters/${dead.id}/replay`, {
      key: acme.testKey,
    });
    assert.equal(deleted.status, 409);
    assert.equal(deleted.body.code, 'webhook_endpoint_deleted');

    const foreign = await api.call('POST', `/v1/webhooks/dead-letters/${dead.id}/replay`, {
      key: globex.testKey,
    });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'webhook_delivery_not_found');
    const [row] = await seed.sql('select status from webhook_deliveries where id = ?', [dead.id]);
    assert.equal(row!.status, 'dead', 'refusals change nothing');
  });

  test('bulk replay: a window, bounded per call, skipping endpoints that cannot receive', async () => {
    const tenant = await api.createTenant('Bulk');
    const [live, off] = [await seed.createEndpoint(tenant), await seed.createEndpoint(tenant)];
    const inWindow = [];
    for (let i = 0; i < 5; i++) {
      inWindow.push(await seed.seedDelivery(tenant, live, { deadLetteredAt: `2026-04-01T0${i}:00:00Z` }));
    }
    const outside = await seed.seedDelivery(tenant, live, { deadLetteredAt: '2026-05-01T00:00:00Z' });
    await seed.seedDelivery(tenant, off, { deadLetteredAt: '2026-04-01T03:30:00Z' });
    await seed.seedDelivery(tenant, off, { deadLetteredAt: '2026-04-01T04:30:00Z' });
    await api.call('PATCH', `/v1/webhooks/endpoints/${off}`, {
      key: tenant.testKey,
      body: { enabled: false },
    });

    const window = { from: '2026-04-01T00:00:00Z', to: '2026-04-02T00:00:00Z' };
    const first = await api.call('POST', '/v1/webhooks/dead-letters/replay', {
      key: tenant.testKey,
      body: { ...window, limit: 3 },
    });
    assert.equal(first.status, 202, first.text);
    assert.deepEqual(first.body, { success: true, replayed: 3, skipped: 2, hasMore: true });
    const second = await api.call('POST', '/v1/webhooks/dead-letters/replay', {
      key: tenant.testKey,
      body: window,
    });
    assert.deepEqual(second.body, { success: true, replayed: 2, skipped: 2, hasMore: false });

    const rows = await seed.sql('select id, status from webhook_deliveries where company_id = ?', [
      tenant.companyId,
    ]);
    const status = new Map((rows as { id: string; status: string }[]).map((r) => [r.id, r.status]));
    for (const d of inWindow) assert.equal(status.get(d.id), 'pending');
    assert.equal(status.get(outside.id), 'dead', 'outside the window');
    for (const d of inWindow) {
      const input = await startedInput(temporal, `webhook:${d.eventId}:${live}`);
      assert.equal(input.mode, 'replay');
      await temporal.client.workflow.getHandle(`webhook:${d.eventId}:${live}`).terminate('test done');
    }

    const byEndpoint = await api.call('POST', '/v1/webhooks/dead-letters/replay', {
      key: tenant.testKey,
      body: { ...window, endpointId: off },
    });
    assert.deepEqual(byEndpoint.body, { success: true, replayed: 0, skipped: 2, hasMore: false });
    // Another company's endpoint (and one that does not exist) is not found, as on every other webhook route.
    for (const endpointId of [live, randomUUID()]) {
      const foreign = await api.call('POST', '/v1/webhooks/dead-letters/replay', {
        key: acme.testKey,
        body: { ...window, endpointId },
      });
      assert.equal(foreign.status, 404, foreign.text);
      assert.equal(foreign.body.code, 'webhook_endpoint_not_found');
    }
    for (const body of [{ from: window.from }, { ...window, to: window.from }, { ...window, limit: 1001 }]) {
      const bad = await api.call('POST', '/v1/webhooks/dead-letters/replay', { key: tenant.testKey, body });
      assert.equal(bad.status, 400, JSON.stringify(body));
    }
  });

  test('test event: queued for one endpoint only, 202 with its eventId, delivered through the dispatcher', async () => {
    const tenant = await api.createTenant('Tester');
    const target = await seed.createEndpoint(tenant);
    const bystander = await seed.createEndpoint(tenant);
    const res = await api.call('POST', `/v1/webhooks/endpoints/${target}/test`, { key: tenant.testKey });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.eventType, 'webhook.test');
    assert.equal(res.headers.get('location'), `/v1/webhooks/events/${res.body.eventId}/deliveries`);
    const [event] = await seed.sql('select event_type, data, dispatched_at from outbox_events where id = ?', [
      res.body.eventId,
    ]);
    assert.equal(event!.event_type, 'webhook.test');
    assert.equal(event!.data.endpointId, target);

    while (
      (await dispatchOutboxBatch(
        api.db.orm,
        { client: temporal.client, taskQueuePrefix: api.config.temporal.taskQueuePrefix },
        { batchSize: 100 },
      )) > 0
    ) {}
    const deliveries = await api.call('GET', `/v1/webhooks/events/${res.body.eventId}/deliveries`, {
      key: tenant.testKey,
    });
    assert.deepEqual(
      deliveries.body.deliveries.map((d: { endpointId: string }) => d.endpointId),
      [target],
    );
    assert.ok(!deliveries.body.deliveries.some((d: { endpointId: string }) => d.endpointId === bystander));
    const workflowId = `webhook:${res.body.eventId}:${target}`;
    assert.equal((await startedInput(temporal, workflowId)).mode, 'dispatch');
    await temporal.client.workflow.getHandle(workflowId).terminate('test done');

    await api.call('PATCH', `/v1/webhooks/endpoints/${target}`, {
      key: tenant.testKey,
      body: { enabled: false },
    });
    const disabled = await api.call('POST', `/v1/webhooks/endpoints/${target}/test`, { key: tenant.testKey });
    assert.equal(disabled.status, 409);
    assert.equal(disabled.body.code, 'webhook_endpoint_disabled');
    const foreign = await api.call('POST', `/v1/webhooks/endpoints/${target}/test`, { key: acme.testKey });
    assert.equal(foreign.status, 404);
  });

  test('without a workflow service replays answer 503 and change nothing', async () => {
    const bare = await startTestApi();
    try {
      const tenant = await bare.createTenant('Bare');
      const res = await bare.call('POST', `/v1/webhooks/dead-letters/${randomUUID()}/replay`, {
        key: tenant.testKey,
      });
      assert.equal(res.status, 503);
      assert.equal(res.body.code, 'workflows_unavailable');
    } finally {
      await bare.close();
    }
  });
});
