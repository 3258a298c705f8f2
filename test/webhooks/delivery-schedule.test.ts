import assert from 'node:assert/strict';
import proto from '@temporalio/proto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TenantScope } from '../../src/platform/db/tenant-scope.ts';
import type { DeliveryProgress, WebhookDeliveryResult } from '../../src/processes/webhook-delivery.ts';
import { workflowIds } from '../../src/processes/workflow-ids.ts';
import { dispatchOutboxBatch } from '../../src/webhooks/outbox-dispatch.ts';
import { type RunningWorker, startTestStack, type TestStack } from '../support/stack.ts';
import { createTestEndpoint, queueEvent, type Receiver, startReceiver, waitUntil } from './support.ts';

const EventType = proto.temporal.api.enums.v1.EventType;
type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;

const MINUTE = 60;
const HOUR = 60 * MINUTE;

const ms = (time: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  Number(time?.seconds ?? 0) * 1000 + (time?.nanos ?? 0) / 1e6;

describe('webhook delivery schedule (time-skipping Temporal, uncached worker, real HTTP receiver)', () => {
  let stack: TestStack;
  let worker: RunningWorker;
  const receivers: Receiver[] = [];
  const sql = <T>(query: string, params: unknown[] = []) =>
    stack.api.db.orm.em.fork().execute<T[]>(query, params);

  /** A company of its own and a receiver of its own, so tests do not see each other's events. */
  async function tenantWithReceiver(
    reply: Receiver['reply'],
  ): Promise<{ scope: TenantScope; receiver: Receiver }> {
    const receiver = await startReceiver(reply);
    receivers.push(receiver);
    const { companyId } = await stack.api.createTenant(`Company ${receivers.length}`);
    return { scope: { companyId, environment: 'test' }, receiver };
  }

  beforeAll(async () => {
    stack = await startTestStack({ dispatcher: false, startWorker: false, temporal: 'time-skipping' });
    // No workflow cache: every workflow task replays the history so far, so the schedule is proven deterministic.
    worker = await stack.startWorker({ maxCachedWorkflows: 0 });
  });
  afterAll(async () => {
    for (const receiver of receivers) await receiver.close();
    await stack.close();
  });

  test('six failures: attempts at +0, 5m, 20m, 1h20m, 5h20m, 17h20m, then the dead-letter queue', async () => {
    const { scope, receiver } = await tenantWithReceiver(() => ({ status: 500, body: 'receiver is down' }));
    const endpoint = await createTestEndpoint(stack.api.db.orm, stack.deps.secretBox, scope, receiver.url);
    const eventId = await queueEvent(stack.api.db.orm, scope, 'asset.initialized', {
      chipUid: '04A1B2C3D4E5F6',
      status: 'INACTIVE',
      enrolledAt: new Date().toISOString(),
    });
    const gateway = {
      client: stack.temporal.client,
      taskQueuePrefix: stack.api.config.temporal.taskQueuePrefix,
    };
    assert.equal(await dispatchOutboxBatch(stack.api.db.orm, gateway, { batchSize: 10 }), 1);

    const handle = stack.temporal.client.workflow.getHandle(workflowIds.webhook(eventId, endpoint.id));
    const result: WebhookDeliveryResult = await handle.result();
    assert.deepEqual(result, {
      status: 'dead',
      attempts: 6,
      lastStatusCode: 500,
      lastError: 'receiver answered 500',
    });

    // Authoritative timing: the workflow history, stamped by the server's (virtual) clock.
    const events: HistoryEvent[] = (await handle.fetchHistory()).events ?? [];
    const timers = events
      .filter((e) => e.eventType === EventType.EVENT_TYPE_TIMER_STARTED)
      .map((e) => ms(e.timerStartedEventAttributes?.startToFireTimeout) / 1000);
    assert.deepEqual(timers, [5 * MINUTE, 15 * MINUTE, HOUR, 4 * HOUR, 12 * HOUR]);
    const attemptTimes = events
      .filter(
        (e) =>
          e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED &&
          e.activityTaskScheduledEventAttributes?.activityType?.name === 'attemptWebhookDelivery',
      )
      .map((e) => ms(e.eventTime));
    const offsets = attemptTimes.map((t) => (t - attemptTimes[0]!) / 1000);
    const expected = [
      0,
      5 * MINUTE,
      20 * MINUTE,
      HOUR + 20 * MINUTE,
      5 * HOUR + 20 * MINUTE,
      17 * HOUR + 20 * MINUTE,
    ];
    assert.equal(offsets.length, 6);
    offsets.forEach((offset, i) => {
      // Each attempt itself takes a little real time (the clock runs while an activity runs).
      assert.ok(offset >= expected[i]! && offset < expected[i]! + 10, `attempt ${i + 1} at +${offset} s`);
    });
    const scheduled = events.filter((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED);
    for (const event of scheduled) {
      const retry = event.activityTaskScheduledEventAttributes?.retryPolicy;
      if (event.activityTaskScheduledEventAttributes?.activityType?.name === 'attemptWebhookDelivery') {
        assert.equal(retry?.maximumAttempts, 1, 'an attempt is never retried by Temporal');
      }
    }

    assert.equal(receiver.requests.length, 6);
    assert.equal(new Set(receiver.requests.map((r) => r.body)).size, 1, 'the same bytes every attempt');
    assert.ok(receiver.requests.every((r) => r.headers['webhook-id'] === eventId));

    const attempts = await sql<{ attempt: number; status_code: number; response_snippet: string }>(
      `select a.attempt, a.status_code, a.response_snippet from webhook_attempts a
       join webhook_deliveries d on d.id = a.delivery_id where d.event_id = ? order by a.attempt`,
      [eventId],
    );
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.status_code, a.response_snippet]),
      [1, 2, 3, 4, 5, 6].map((n) => [n, 500, 'receiver is down']),
    );
    const [delivery] = await sql<Record<string, unknown>>(
      'select * from webhook_deliveries where event_id = ? and endpoint_id = ?',
      [eventId, endpoint.id],
    );
    assert.equal(delivery!.status, 'dead');
    assert.equal(delivery!.attempt_count, 6);
    assert.equal(delivery!.next_attempt_at, null);
    assert.equal(delivery!.last_status_code, 500);
    assert.ok(delivery!.dead_lettered_at instanceof Date || typeof delivery!.dead_lettered_at === 'string');
  });

  test('a 2xx at the fourth attempt ends the schedule there', async () => {
    const answers = [503, 503, 503, 200];
    const { scope, receiver } = await tenantWithReceiver((_request, index) => ({
      status: answers[index] ?? 500,
      body: 'ok',
    }));
    const endpoint = await createTestEndpoint(stack.api.db.orm, stack.deps.secretBox, scope, receiver.url, [
      'asset.minted',
    ]);
    const eventId = await queueEvent(stack.api.db.orm, scope, 'asset.minted', { tokenId: '7', chipUid: 'X' });
    const gateway = {
      client: stack.temporal.client,
      taskQueuePrefix: stack.api.config.temporal.taskQueuePrefix,
    };
    await dispatchOutboxBatch(stack.api.db.orm, gateway, { batchSize: 10 });

    const handle = stack.temporal.client.workflow.getHandle(workflowIds.webhook(eventId, endpoint.id));
    const result: WebhookDeliveryResult = await handle.result();
    assert.equal(result.status, 'succeeded');
    assert.equal(result.attempts, 4);
    assert.equal(receiver.requests.length, 4);
    const events: HistoryEvent[] = (await handle.fetchHistory()).events ?? [];
    const timers = events
      .filter((e) => e.eventType === EventType.EVENT_TYPE_TIMER_STARTED)
      .map((e) => ms(e.timerStartedEventAttributes?.startToFireTimeout) / 1000);
    assert.deepEqual(timers, [5 * MINUTE, 15 * MINUTE, HOUR]);

    const [delivery] = await sql<Record<string, unknown>>(
      'select status, attempt_count, succeeded_at, last_status_code, last_error, next_attempt_at from webhook_deliveries where event_id = ?',
      [eventId],
    );
    assert.equal(delivery!.status, 'succeeded');
    assert.equal(delivery!.attempt_count, 4);
    assert.equal(delivery!.last_status_code, 200);
    assert.equal(delivery!.last_error, null);
    assert.equal(delivery!.next_attempt_at, null);
    assert.ok(delivery!.succeeded_at);
    const codes = await sql<{ status_code: number }>(
      `select a.status_code from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
       where d.event_id = ? order by a.attempt`,
      [eventId],
    );
    assert.deepEqual(
      codes.map((c) => c.status_code),
      answers,
    );
  });
  test('a worker restart in the middle of the schedule loses nothing and repeats nothing', async () => {
    const answers = [500, 500, 200];
    const { scope, receiver } = await tenantWithReceiver((_request, index) => ({
      status: answers[index] ?? 500,
    }));
    const endpoint = await createTestEndpoint(stack.api.db.orm, stack.deps.secretBox, scope, receiver.url);
    const eventId = await queueEvent(stack.api.db.orm, scope, 'asset.recycled', { tokenId: '9' });
    const gateway = {
      client: stack.temporal.client,
      taskQueuePrefix: stack.api.config.temporal.taskQueuePrefix,
    };
    await dispatchOutboxBatch(stack.api.db.orm, gateway, { batchSize: 10 });
    const handle = stack.temporal.client.workflow.getHandle(workflowIds.webhook(eventId, endpoint.id));
    await waitUntil(
      async () => (await handle.query<DeliveryProgress>('deliveryProgress')).phase === 'waiting',
    );
    await worker.stop();
    worker = await stack.startWorker({ maxCachedWorkflows: 0 });
    const result: WebhookDeliveryResult = await handle.result();
    assert.equal(result.status, 'succeeded');
    assert.equal(result.attempts, 3);
    assert.equal(receiver.requests.length, 3);
    const rows = await sql<{ attempt: number }>(
      `select a.attempt from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
       where d.event_id = ? order by a.attempt`,
      [eventId],
    );
    assert.deepEqual(
      rows.map((r) => r.attempt),
      [1, 2, 3],
    );
  });
});
