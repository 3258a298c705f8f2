import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { webhookSenderFor } from '../../activities/webhooks/webhook-activities.ts';
import { createLogger } from '../../src/platform/logging/logger.ts';
import { startOutboxDispatcher } from '../../src/webhooks/dispatcher.ts';
import { firstAttemptSender } from '../../src/webhooks/first-attempts.ts';
import { createTestEndpoint, type Receiver, startReceiver, waitUntil, webhookTestStack } from './support.ts';

const FAST_EVENTS = 900;
const SLOW_EVENTS = 130;
const SLOW_ANSWER_MS = 2_000;

describe('a deep outbox (two worker processes, first attempts sent by their dispatchers)', () => {
  const { stack, gateway: gatewayOf, receivers, sql } = webhookTestStack();
  const logger = createLogger('silent');

  /** A company with one endpoint at `receiver`, and `count` events committed to its outbox at once. */
  async function company(receiver: Receiver, count: number): Promise<string[]> {
    receivers.push(receiver);
    const { companyId } = await stack().api.createTenant(`Company ${receivers.length}`);
    await createTestEndpoint(
      stack().api.db.orm,
      stack().deps.secretBox,
      { companyId, environment: 'test' },
      receiver.url,
    );
    const rows = await sql<{ id: string }>(
      `insert into outbox_events (id, company_id, environment, event_type, data, occurred_at)
       select gen_random_uuid(), ?, 'test', 'asset.initialized',
              jsonb_build_object('chipUid', upper(lpad(to_hex(n), 14, '0')), 'status', 'INACTIVE'), now()
       from generate_series(1, ?) as n
       returning id`,
      [companyId, count],
    );
    return rows.map((row) => row.id);
  }

  test('every event reaches its receiver exactly once, in growing passes, and a slow receiver holds up no other', async () => {
    const slow = await startReceiver(
      () => new Promise((resolve) => setTimeout(() => resolve({ status: 200 }), SLOW_ANSWER_MS)),
    );
    const fast = await startReceiver();
    const slowEvents = await company(slow, SLOW_EVENTS);
    const fastEvents = await company(fast, FAST_EVENTS);

    const passes: number[][] = [[], []];
    const gateway = gatewayOf();
    const dispatchers = [0, 1].map((i) =>
      startOutboxDispatcher({
        orm: stack().api.db.orm,
        gateway,
        logger,
        pollIntervalMs: 50,
        hooks: { afterStarts: async (ids) => void passes[i]!.push(ids.length) },
        firstAttempts: firstAttemptSender({
          orm: stack().api.db.orm,
          gateway,
          logger,
          senders: { test: webhookSenderFor(stack().deps) },
        }),
      }),
    );
    try {
      await fast.waitFor(FAST_EVENTS, 60_000);
      // Each slow answer takes 2 s and one receiver gets at most 64 POSTs at once: 130 need three rounds.
      assert.ok(
        slow.requests.length < SLOW_EVENTS,
        `the fast receiver had all ${FAST_EVENTS} while the slow one had ${slow.requests.length}`,
      );
      await slow.waitFor(SLOW_EVENTS, 60_000);
      await waitUntil(
        async () =>
          (
            await sql<{ n: number }>(
              `select count(*)::int as n from webhook_deliveries where status = 'succeeded' and event_id in (?)`,
              [[...fastEvents, ...slowEvents]],
            )
          )[0]!.n ===
          FAST_EVENTS + SLOW_EVENTS,
        30_000,
        'every delivery recorded succeeded',
      );
    } finally {
      for (const dispatcher of dispatchers) await dispatcher.stop();
    }

    for (const [receiver, events] of [
      [fast, fastEvents],
      [slow, slowEvents],
    ] as const) {
      const ids = receiver.requests.map((request) => String(request.headers['webhook-id']));
      assert.equal(ids.length, events.length, 'no event posted twice');
      assert.deepEqual([...ids].sort(), [...events].sort());
    }
    const [attempts] = await sql<{ n: number; workflows: number }>(
      `select count(*)::int as n, count(*) filter (where a.attempt > 1)::int as workflows
       from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.event_id in (?)`,
      [[...fastEvents, ...slowEvents]],
    );
    assert.deepEqual(attempts, { n: FAST_EVENTS + SLOW_EVENTS, workflows: 0 }, 'one attempt each');
    const sizes = [...passes[0]!, ...passes[1]!];
    assert.equal(
      sizes.reduce((sum, n) => sum + n, 0),
      FAST_EVENTS + SLOW_EVENTS,
    );
    // A pass after a quiet spell takes a few events, so the first deliveries leave at once; full passes double.
    assert.ok(
      Math.min(passes[0]![0] ?? 25, passes[1]![0] ?? 25) <= 25,
      `first passes ${passes.map((p) => p[0])}`,
    );
    assert.ok(Math.max(...sizes) > 100, `passes of ${sizes.join(', ')}`);
  });
});
