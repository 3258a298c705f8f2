import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { type Receiver, startReceiver, waitUntil } from '../webhooks/support.ts';

const EVENTS = 20;

/**
 * Two subscribers of one company: one whose receiver is down and comes back after the second attempt, one
 * whose receiver never comes back. Time-skipping Temporal: the test moves the clock through the spec's
 * schedule (5 m, 15 m, 1 h, 4 h, 12 h) itself, so each step happens at a moment it chooses.
 */
describe('a webhook receiver that is down, then up', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let back: Receiver;
  let never: Receiver;
  let backProxy: TcpProxy;
  let neverProxy: TcpProxy;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  const sql = <T>(query: string, params: unknown[] = []) =>
    stack.api.db.orm.em.fork().execute<T[]>(query, params);
  const deliveries = (endpointId: string) =>
    sql<{ status: string; attempt_count: number }>(
      'select status, attempt_count from webhook_deliveries where endpoint_id = ?',
      [endpointId],
    );
  const allAt = async (endpointId: string, attempts: number, status: string) => {
    await waitUntil(
      async () => {
        const rows = await deliveries(endpointId);
        return (
          rows.length === EVENTS && rows.every((r) => r.attempt_count === attempts && r.status === status)
        );
      },
      30_000,
      `every delivery to ${endpointId} at attempt ${attempts}, ${status}`,
    );
  };

  beforeAll(async () => {
    stack = await startTestStack({ temporal: 'time-skipping' });
    tenant = await stack.api.createTenant('Acme Apparel');
    back = await startReceiver();
    never = await startReceiver();
    backProxy = await startTcpProxy(Number(new URL(back.url).port));
    neverProxy = await startTcpProxy(Number(new URL(never.url).port));
  });
  afterAll(async () => {
    await backProxy?.close();
    await neverProxy?.close();
    await back?.close();
    await never?.close();
    await stack?.close();
  });

  test('each event arrives exactly once after recovery; dead letters only past the whole schedule', async () => {
    const endpoint = async (proxy: TcpProxy) => {
      const created = await call('POST', '/v1/webhooks/endpoints', { url: `${proxy.url}/hooks` });
      assert.equal(created.status, 201, created.text);
      return created.body.endpoint.id as string;
    };
    const backId = await endpoint(backProxy);
    const neverId = await endpoint(neverProxy);
    backProxy.cut();
    neverProxy.cut();

    const chips = Array.from({ length: EVENTS }, (_, i) => `04DEAD00${String(i).padStart(6, '0')}`);
    for (const chipUid of chips) {
      assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid })).status, 201);
    }
    // Attempt 1 (made by the dispatcher) fails at once for both: connection refused.
    await allAt(backId, 1, 'pending');
    await allAt(neverId, 1, 'pending');

    await stack.temporal.sleep('5 minutes');
    await allAt(backId, 2, 'pending');
    await allAt(neverId, 2, 'pending');
    assert.equal(back.requests.length + never.requests.length, 0, 'nothing reached a receiver that is down');

    backProxy.restore();
    await stack.temporal.sleep('15 minutes');
    await allAt(backId, 3, 'succeeded');
    await allAt(neverId, 3, 'pending');
    const ids = back.requests.map((r) => String(r.headers['webhook-id']));
    assert.equal(ids.length, EVENTS, 'one POST per event once the receiver is back');
    assert.equal(new Set(ids).size, EVENTS, 'every event, none twice');
    const [events] = await sql<{ n: number }>(
      `select count(*)::int as n from outbox_events where event_type = 'asset.initialized' and id::text in (?)`,
      [ids],
    );
    assert.equal(events!.n, EVENTS, 'the webhook-ids are the events’ ids');

    // The receiver that stays down: attempts 4 and 5 after 1 h and 4 h, still pending; the 6th after 12 h.
    await stack.temporal.sleep('1 hour');
    await allAt(neverId, 4, 'pending');
    await stack.temporal.sleep('4 hours');
    await allAt(neverId, 5, 'pending');
    const [early] = await sql<{ n: number }>(
      'select count(*)::int as n from webhook_deliveries where dead_lettered_at is not null',
    );
    assert.equal(early!.n, 0, 'no dead letter before the schedule is used up');
    await stack.temporal.sleep('12 hours');
    await allAt(neverId, 6, 'dead');
    assert.equal(back.requests.length, EVENTS, 'the recovered receiver got nothing more');
    assert.equal(never.requests.length, 0);
  });
});
