import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'vitest';
import { scopedEntityManager, type TenantScope } from '../../src/platform/db/tenant-scope.ts';
import { createLogger } from '../../src/platform/logging/logger.ts';
import { workflowIds } from '../../src/processes/workflow-ids.ts';
import { startOutboxDispatcher } from '../../src/webhooks/dispatcher.ts';
import { deleteEndpoint, updateEndpoint } from '../../src/webhooks/endpoints.ts';
import { dispatchOutboxBatch } from '../../src/webhooks/outbox-dispatch.ts';
import {
  createTestEndpoint,
  queueEvent,
  type Receiver,
  startReceiver,
  waitUntil,
  webhookTestStack,
} from './support.ts';

describe('outbox dispatcher', () => {
  const { stack, gateway, receivers, sql } = webhookTestStack();
  const logger = createLogger('silent');

  async function tenant(): Promise<{ scope: TenantScope; receiver: Receiver }> {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const { companyId } = await stack().api.createTenant(`Company ${receivers.length}`);
    return { scope: { companyId, environment: 'test' }, receiver };
  }
  const endpointFor = (
    scope: TenantScope,
    url: string,
    types: Parameters<typeof createTestEndpoint>[4] = [],
  ) => createTestEndpoint(stack().api.db.orm, stack().deps.secretBox, scope, url, types);
  const event = (scope: TenantScope, type: 'asset.initialized' | 'asset.minted' = 'asset.initialized') =>
    queueEvent(stack().api.db.orm, scope, type, { chipUid: '04AABBCCDDEEFF', n: randomUUID() });
  const deliveriesOf = (eventIds: string[]) =>
    sql<{ event_id: string; endpoint_id: string }>(
      'select event_id, endpoint_id from webhook_deliveries where event_id in (?) order by event_id, endpoint_id',
      [eventIds],
    );
  const finished = (eventId: string, endpointId: string) =>
    stack().temporal.client.workflow.getHandle(workflowIds.webhook(eventId, endpointId)).result();

  test('one delivery per subscribed, enabled, live endpoint of the same company and environment', async () => {
    const { scope, receiver } = await tenant();
    const all = await endpointFor(scope, `${receiver.url}/all`);
    const mintedOnly = await endpointFor(scope, `${receiver.url}/minted`, ['asset.minted']);
    const disabled = await endpointFor(scope, `${receiver.url}/disabled`);
    const deleted = await endpointFor(scope, `${receiver.url}/deleted`);
    const em = scopedEntityManager(stack().api.db.orm.em, scope);
    await updateEndpoint(em, { policy: { allowPrivate: true } }, disabled.id, { enabled: false });
    await deleteEndpoint(em, deleted.id);
    await endpointFor({ ...scope, environment: 'live' }, `${receiver.url}/live`);
    await endpointFor((await tenant()).scope, `${receiver.url}/other-company`);

    const initialized = await event(scope, 'asset.initialized');
    const minted = await event(scope, 'asset.minted');
    const later = await endpointFor(scope, `${receiver.url}/later`);
    const testEvent = randomUUID();
    await sql(
      `insert into outbox_events (id, company_id, environment, event_type, data, occurred_at)
       values (?, ?, 'test', 'webhook.test', ?::jsonb, now())`,
      [testEvent, scope.companyId, JSON.stringify({ endpointId: mintedOnly.id })],
    );

    while ((await dispatchOutboxBatch(stack().api.db.orm, gateway(), { batchSize: 2 })) > 0);
    const rows = await deliveriesOf([initialized, minted, testEvent]);
    const expected = [
      [initialized, all.id],
      [minted, all.id],
      [minted, mintedOnly.id],
      [testEvent, mintedOnly.id],
    ];
    assert.deepEqual(
      rows.map((r) => [r.event_id, r.endpoint_id]),
      expected.sort((a, b) => (a.join() < b.join() ? -1 : 1)),
    );
    assert.ok(!rows.some((r) => r.endpoint_id === later.id), 'an endpoint gets events from its creation on');
    for (const [eventId, endpointId] of expected) {
      assert.equal((await finished(eventId!, endpointId!)).status, 'succeeded');
    }
    assert.deepEqual(receiver.requests.map((r) => r.path).sort(), [
      '/hooks/all',
      '/hooks/all',
      '/hooks/minted',
      '/hooks/minted',
    ]);
    const [pending] = await sql<{ n: number }>(
      'select count(*)::int as n from outbox_events where dispatched_at is null',
    );
    assert.equal(pending!.n, 0);
  });

  test('an event recorded after an endpoint was created reaches it, even when it occurred (on chain) earlier', async () => {
    const { scope, receiver } = await tenant();
    const endpoint = await endpointFor(scope, receiver.url);
    // A claim whose block timestamp (whole seconds) is earlier than the endpoint's creation, recorded after it.
    const claimed = randomUUID();
    await sql(
      `insert into outbox_events (id, company_id, environment, event_type, data, occurred_at)
       values (?, ?, 'test', 'asset.transferred', '{}'::jsonb, now() - interval '5 seconds')`,
      [claimed, scope.companyId],
    );
    while ((await dispatchOutboxBatch(stack().api.db.orm, gateway(), { batchSize: 10 })) > 0);
    assert.deepEqual(
      (await deliveriesOf([claimed])).map((r) => r.endpoint_id),
      [endpoint.id],
    );
  });

  test('two dispatchers at once and a restart deliver each event exactly once', async () => {
    const { scope, receiver } = await tenant();
    const second = await startReceiver();
    receivers.push(second);
    const a = await endpointFor(scope, receiver.url);
    const b = await endpointFor(scope, second.url);
    const eventIds = await Promise.all(Array.from({ length: 60 }, () => event(scope)));

    const options = { orm: stack().api.db.orm, gateway: gateway(), logger, batchSize: 7, pollIntervalMs: 50 };
    const taken: string[][] = [[], []];
    const dispatchers = [0, 1].map((i) =>
      startOutboxDispatcher({
        ...options,
        hooks: { afterStarts: async (ids) => void taken[i]!.push(...ids) },
      }),
    );
    await receiver.waitFor(60);
    await second.waitFor(60);
    for (const dispatcher of dispatchers) await dispatcher.stop();
    assert.ok(taken[0]!.length > 0 && taken[1]!.length > 0, `shares ${taken[0]!.length}/${taken[1]!.length}`);
    assert.deepEqual([...taken[0]!, ...taken[1]!].sort(), [...eventIds].sort(), 'each event taken by one');
    const restarted = startOutboxDispatcher(options);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await restarted.stop();

    assert.equal((await deliveriesOf(eventIds)).length, 120);
    for (const eventId of eventIds) {
      assert.equal((await finished(eventId, a.id)).status, 'succeeded');
      assert.equal((await finished(eventId, b.id)).status, 'succeeded');
    }
    for (const r of [receiver, second]) {
      const ids = r.requests.map((request) => request.headers['webhook-id']);
      assert.equal(ids.length, 60, 'no request twice');
      assert.deepEqual([...new Set(ids)].sort(), [...eventIds].sort());
    }
  });

  test('a crash after starting the workflows and before marking the events duplicates nothing', async () => {
    const { scope, receiver } = await tenant();
    const endpoint = await endpointFor(scope, receiver.url);
    const eventIds = [await event(scope), await event(scope), await event(scope)];
    await assert.rejects(
      dispatchOutboxBatch(stack().api.db.orm, gateway(), {
        batchSize: 10,
        hooks: {
          afterStarts: async () => {
            throw new Error('worker process killed');
          },
        },
      }),
      /worker process killed/,
    );
    const [undispatched] = await sql<{ n: number }>(
      'select count(*)::int as n from outbox_events where id in (?) and dispatched_at is null',
      [eventIds],
    );
    assert.equal(undispatched!.n, 3, 'the events stay in the outbox');
    await receiver.waitFor(3);

    assert.equal(await dispatchOutboxBatch(stack().api.db.orm, gateway(), { batchSize: 10 }), 3);
    assert.equal((await deliveriesOf(eventIds)).length, 3);
    for (const eventId of eventIds) assert.equal((await finished(eventId, endpoint.id)).status, 'succeeded');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(receiver.requests.length, 3);
  });

  test('a committed event wakes the dispatcher at once (LISTEN/NOTIFY), not at its next poll', async () => {
    const { scope, receiver } = await tenant();
    await endpointFor(scope, receiver.url);
    const dispatcher = startOutboxDispatcher({
      orm: stack().api.db.orm,
      gateway: gateway(),
      logger,
      pollIntervalMs: 120_000,
    });
    try {
      // Let the first (empty) pass run and the LISTEN connection open.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const started = Date.now();
      await event(scope);
      await receiver.waitFor(1, 10_000);
      assert.ok(Date.now() - started < 5_000, `delivered after ${Date.now() - started} ms`);
    } finally {
      await dispatcher.stop();
    }
    await waitUntil(
      async () => (await sql('select 1 from outbox_events where dispatched_at is null')).length === 0,
      5_000,
      'the outbox to drain',
    );
  });
});
