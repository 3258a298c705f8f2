import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';
import { webhookSeeder } from '../support/webhook-seed.ts';

describe('webhook delivery listings and the dead-letter queue over HTTP', () => {
  let api: TestApi;
  let acme: TestTenant;
  let globex: TestTenant;
  let seed: ReturnType<typeof webhookSeeder>;

  beforeAll(async () => {
    api = await startTestApi();
    seed = webhookSeeder(api);
    acme = await api.createTenant('Acme');
    globex = await api.createTenant('Globex');
  });
  afterAll(() => api.close());

  test('an endpoint’s deliveries: newest first, with attempts in order, filtered and paged exactly', async () => {
    const endpointId = await seed.createEndpoint(acme);
    // Same millisecond, different microseconds: the cursor must not skip or repeat rows.
    const stamps = [
      '2026-01-01T00:00:00.123900Z',
      '2026-01-01T00:00:00.123500Z',
      '2026-01-01T00:00:00.123100Z',
    ];
    const seeded = [];
    for (const createdAt of stamps)
      seeded.push(await seed.seedDelivery(acme, endpointId, { createdAt, status: 'dead' }));
    seeded.push(
      await seed.seedDelivery(acme, endpointId, {
        createdAt: '2025-12-31T00:00:00Z',
        status: 'succeeded',
        attempts: 1,
      }),
    );

    const pageIds: string[] = [];
    let after: string | null = null;
    do {
      const query: string = `?limit=1${after ? `&after=${after}` : ''}`;
      const res = await api.call('GET', `/v1/webhooks/endpoints/${endpointId}/deliveries${query}`, {
        key: acme.testKey,
      });
      assert.equal(res.status, 200, res.text);
      pageIds.push(...res.body.deliveries.map((d: { id: string }) => d.id));
      after = res.body.nextCursor;
    } while (after);
    assert.deepEqual(
      pageIds,
      seeded.map((s) => s.id),
      'newest first, every row exactly once',
    );

    const all = await api.call('GET', `/v1/webhooks/endpoints/${endpointId}/deliveries`, {
      key: acme.testKey,
    });
    const first = all.body.deliveries[0];
    assert.equal(first.status, 'dead');
    assert.equal(first.attemptCount, 6);
    assert.equal(first.lastStatusCode, 500);
    assert.deepEqual(
      first.attempts.map((a: { attempt: number }) => a.attempt),
      [1, 2, 3, 4, 5, 6],
    );
    assert.deepEqual(Object.keys(first.attempts[0]).sort(), [
      'attempt',
      'durationMs',
      'error',
      'requestHeaders',
      'responseSnippet',
      'startedAt',
      'statusCode',
    ]);
    assert.equal(first.attempts[0].responseSnippet, 'oops');

    const succeeded = await api.call(
      'GET',
      `/v1/webhooks/endpoints/${endpointId}/deliveries?status=succeeded`,
      {
        key: acme.testKey,
      },
    );
    assert.deepEqual(
      succeeded.body.deliveries.map((d: { id: string }) => d.id),
      [seeded[3]!.id],
    );
    assert.equal(
      (
        await api.call('GET', `/v1/webhooks/endpoints/${endpointId}/deliveries?status=lost`, {
          key: acme.testKey,
        })
      ).status,
      400,
    );
    const foreignCursor = await api.call(
      'GET',
      `/v1/webhooks/endpoints/${endpointId}/deliveries?after=${randomUUID()}`,
      {
        key: acme.testKey,
      },
    );
    assert.equal(foreignCursor.status, 400);
    assert.equal(foreignCursor.body.code, 'invalid_cursor');
    const other = await api.call('GET', `/v1/webhooks/endpoints/${endpointId}/deliveries`, {
      key: globex.testKey,
    });
    assert.equal(other.status, 404);
  });

  test('an event’s deliveries: one per endpoint; unknown and foreign events are 404', async () => {
    const [e1, e2] = [await seed.createEndpoint(acme), await seed.createEndpoint(acme)];
    const eventId = await seed.seedEvent(acme);
    await seed.seedDelivery(acme, e1, { eventId, status: 'succeeded', attempts: 1 });
    await seed.seedDelivery(acme, e2, { eventId, status: 'pending', attempts: 2 });
    const res = await api.call('GET', `/v1/webhooks/events/${eventId}/deliveries`, { key: acme.testKey });
    assert.equal(res.status, 200);
    assert.equal(res.body.eventId, eventId);
    assert.deepEqual(
      res.body.deliveries.map((d: { endpointId: string }) => d.endpointId).sort(),
      [e1, e2].sort(),
    );
    const undelivered = await seed.seedEvent(acme);
    const empty = await api.call('GET', `/v1/webhooks/events/${undelivered}/deliveries`, {
      key: acme.testKey,
    });
    assert.deepEqual(empty.body.deliveries, []);
    for (const [key, id] of [
      [acme.testKey, randomUUID()],
      [globex.testKey, eventId],
    ] as const) {
      const res404 = await api.call('GET', `/v1/webhooks/events/${id}/deliveries`, { key });
      assert.equal(res404.status, 404);
      assert.equal(res404.body.code, 'webhook_event_not_found');
    }
  });

  test('the dead-letter queue filters by endpoint and window, oldest first', async () => {
    const tenant = await api.createTenant('Dead Letters Inc');
    const [e1, e2] = [await seed.createEndpoint(tenant), await seed.createEndpoint(tenant)];
    const d1 = await seed.seedDelivery(tenant, e1, { deadLetteredAt: '2026-03-01T10:00:00Z' });
    const d2 = await seed.seedDelivery(tenant, e2, { deadLetteredAt: '2026-03-02T10:00:00Z' });
    const d3 = await seed.seedDelivery(tenant, e1, { deadLetteredAt: '2026-03-03T10:00:00Z' });
    await seed.seedDelivery(tenant, e1, { status: 'pending', attempts: 3 });

    const ids = async (query: string) => {
      const res = await api.call('GET', `/v1/webhooks/dead-letters${query}`, { key: tenant.testKey });
      assert.equal(res.status, 200, res.text);
      return res.body.deliveries.map((d: { id: string }) => d.id);
    };
    assert.deepEqual(await ids(''), [d1.id, d2.id, d3.id]);
    assert.deepEqual(await ids(`?endpointId=${e1}`), [d1.id, d3.id]);
    assert.deepEqual(
      await ids('?from=2026-03-02T00:00:00Z&to=2026-03-03T10:00:00Z'),
      [d2.id],
      'to is exclusive',
    );
    const page = await api.call('GET', '/v1/webhooks/dead-letters?limit=2', { key: tenant.testKey });
    assert.equal(page.body.nextCursor, d2.id);
    assert.deepEqual(await ids(`?after=${d2.id}`), [d3.id]);
    const dead = page.body.deliveries[0];
    assert.equal(dead.status, 'dead');
    assert.equal(dead.deadLetteredAt, '2026-03-01T10:00:00.000Z');
    assert.equal(dead.attempts.length, 6);
    assert.deepEqual(
      (await api.call('GET', '/v1/webhooks/dead-letters', { key: globex.testKey })).body.deliveries.filter(
        (d: { id: string }) => [d1.id, d2.id, d3.id].includes(d.id),
      ),
      [],
    );
    assert.equal(
      (await api.call('GET', '/v1/webhooks/dead-letters?from=yesterday', { key: tenant.testKey })).status,
      400,
    );
  });
});
