import assert from 'node:assert/strict';
import { WorkflowNotFoundError } from '@temporalio/client';
import proto from '@temporalio/proto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { webhookSenderFor } from '../../activities/webhooks/webhook-activities.ts';
import type { WorkflowGateway } from '../../src/adapters/temporal/start.ts';
import type { TenantScope } from '../../src/platform/db/tenant-scope.ts';
import { createLogger } from '../../src/platform/logging/logger.ts';
import type { WebhookDeliveryResult } from '../../src/processes/webhook-delivery.ts';
import { workflowIds } from '../../src/processes/workflow-ids.ts';
import { type FirstAttemptSender, firstAttemptSender } from '../../src/webhooks/first-attempts.ts';
import { dispatchOutboxBatch } from '../../src/webhooks/outbox-dispatch.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { createTestEndpoint, queueEvent, type Receiver, startReceiver } from './support.ts';

const EventType = proto.temporal.api.enums.v1.EventType;
const ms = (time: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  Number(time?.seconds ?? 0) * 1000 + (time?.nanos ?? 0) / 1e6;

describe('first attempts made by the outbox dispatcher (time-skipping Temporal, real HTTP receiver)', () => {
  let stack: TestStack;
  let gateway: WorkflowGateway;
  let sender: FirstAttemptSender;
  const receivers: Receiver[] = [];
  const sql = <T>(query: string, params: unknown[] = []) =>
    stack.api.db.orm.em.fork().execute<T[]>(query, params);

  async function setUp(reply: Receiver['reply']) {
    const receiver = await startReceiver(reply);
    receivers.push(receiver);
    const { companyId } = await stack.api.createTenant(`Company ${receivers.length}`);
    const scope: TenantScope = { companyId, environment: 'test' };
    const endpoint = await createTestEndpoint(stack.api.db.orm, stack.deps.secretBox, scope, receiver.url);
    const eventId = await queueEvent(stack.api.db.orm, scope, 'asset.initialized', {
      chipUid: '04A1B2C3D4E5F6',
      status: 'INACTIVE',
    });
    return { receiver, endpoint, eventId, scope };
  }
  const attemptsOf = (eventId: string) =>
    sql<{ attempt: number; status_code: number | null; in_flight: boolean; error: string | null }>(
      `select a.attempt, a.status_code, a.in_flight, a.error from webhook_attempts a
       join webhook_deliveries d on d.id = a.delivery_id where d.event_id = ? order by a.attempt`,
      [eventId],
    );
  const dispatch = async () => {
    assert.equal(
      await dispatchOutboxBatch(stack.api.db.orm, gateway, { batchSize: 10, firstAttempts: sender }),
      1,
    );
    await sender.drain();
  };

  beforeAll(async () => {
    stack = await startTestStack({ dispatcher: false, temporal: 'time-skipping' });
    gateway = { client: stack.temporal.client, taskQueuePrefix: stack.api.config.temporal.taskQueuePrefix };
    sender = firstAttemptSender({
      orm: stack.api.db.orm,
      gateway,
      logger: createLogger('silent'),
      senders: { test: webhookSenderFor(stack.deps) },
    });
  });
  afterAll(async () => {
    for (const receiver of receivers) await receiver.close();
    await stack.close();
  });

  test('a receiver that accepts at once: one POST, recorded succeeded, no workflow at all', async () => {
    const { receiver, endpoint, eventId } = await setUp(() => ({ status: 204 }));
    await dispatch();
    assert.equal(receiver.requests.length, 1);
    assert.equal(receiver.requests[0]!.headers['webhook-id'], eventId);
    assert.deepEqual(
      (await attemptsOf(eventId)).map((a) => [a.attempt, a.status_code, a.in_flight]),
      [[1, 204, false]],
    );
    const [delivery] = await sql<{ status: string; attempt_count: number }>(
      'select status, attempt_count from webhook_deliveries where event_id = ?',
      [eventId],
    );
    assert.deepEqual(delivery, { status: 'succeeded', attempt_count: 1 });
    await assert.rejects(
      stack.temporal.client.workflow.getHandle(workflowIds.webhook(eventId, endpoint.id)).describe(),
      WorkflowNotFoundError,
    );
  });

  test('a failed first attempt: the retry workflow goes on with attempt 2 after 5 minutes', async () => {
    const answers = [500, 200];
    const { receiver, endpoint, eventId } = await setUp((_request, index) => ({
      status: answers[index] ?? 500,
    }));
    await dispatch();
    const handle = stack.temporal.client.workflow.getHandle(workflowIds.webhook(eventId, endpoint.id));
    const result: WebhookDeliveryResult = await handle.result();
    assert.deepEqual(result, { status: 'succeeded', attempts: 1, lastStatusCode: 200, lastError: null });
    assert.equal(receiver.requests.length, 2, 'one POST per attempt');
    assert.deepEqual(
      (await attemptsOf(eventId)).map((a) => [a.attempt, a.status_code]),
      [
        [1, 500],
        [2, 200],
      ],
    );
    const timers = ((await handle.fetchHistory()).events ?? [])
      .filter((e) => e.eventType === EventType.EVENT_TYPE_TIMER_STARTED)
      .map((e) => ms(e.timerStartedEventAttributes?.startToFireTimeout) / 60_000);
    assert.deepEqual(timers, [5], 'the schedule’s wait before attempt 2, then the 2xx ended it');
  });

  test('a dispatcher that makes first attempts in every environment still starts the workflow an earlier pass left', async () => {
    const { receiver, endpoint, eventId } = await setUp(() => ({ status: 200 }));
    // What a pass that made attempt 1 and crashed before its retry workflow started leaves: a pending delivery
    // with a finished attempt and the event still in the outbox. No first attempt can be claimed for it.
    await sql(
      `insert into webhook_deliveries (id, company_id, environment, event_id, endpoint_id, event_type, status,
         attempt_count, next_attempt_at, created_at, updated_at)
       select gen_random_uuid(), company_id, environment, id, ?, event_type, 'pending', 1, now(), now(), now()
       from outbox_events where id = ?`,
      [endpoint.id, eventId],
    );
    await sql(
      `insert into webhook_attempts (delivery_id, attempt, started_at, duration_ms, in_flight, status_code)
       select id, 1, now(), 5, false, 503 from webhook_deliveries where event_id = ?`,
      [eventId],
    );
    const everywhere = firstAttemptSender({
      orm: stack.api.db.orm,
      gateway,
      logger: createLogger('silent'),
      senders: { test: webhookSenderFor(stack.deps), live: webhookSenderFor(stack.deps) },
    });
    assert.equal(
      await dispatchOutboxBatch(stack.api.db.orm, gateway, { batchSize: 10, firstAttempts: everywhere }),
      1,
      'the event is dispatched, by the workflow pass',
    );
    await everywhere.drain();
    const [outbox] = await sql<{ dispatched: boolean }>(
      'select dispatched_at is not null as dispatched from outbox_events where id = ?',
      [eventId],
    );
    assert.equal(outbox?.dispatched, true);
    const result: WebhookDeliveryResult = await stack.temporal.client.workflow
      .getHandle(workflowIds.webhook(eventId, endpoint.id))
      .result();
    assert.equal(result.status, 'succeeded');
    assert.equal(
      receiver.requests.length,
      1,
      'attempt 2, sent by the workflow; attempt 1 was never repeated',
    );
  });

  test('a crash between the claim and its outcome: the sweep counts it failed and hands it to a retry workflow', async () => {
    const { receiver, endpoint, eventId } = await setUp(() => ({ status: 200 }));
    // What a dispatcher that died right after its pass committed leaves: the claim, no outcome, no workflow.
    const claimed = firstAttemptSender({
      orm: stack.api.db.orm,
      gateway,
      logger: createLogger('silent'),
      senders: { test: webhookSenderFor(stack.deps) },
    });
    const lost = { ...claimed, send: () => {} };
    assert.equal(
      await dispatchOutboxBatch(stack.api.db.orm, gateway, { batchSize: 10, firstAttempts: lost }),
      1,
    );
    assert.deepEqual(
      (await attemptsOf(eventId)).map((a) => [a.attempt, a.in_flight]),
      [[1, true]],
    );
    assert.equal(await sender.sweep(), 0, 'a fresh claim is left alone (its attempt may still be running)');
    await sql(
      `update webhook_attempts set started_at = now() - interval '3 minutes'
       where delivery_id = (select id from webhook_deliveries where event_id = ?)`,
      [eventId],
    );
    assert.equal(await sender.sweep(), 1);
    const result: WebhookDeliveryResult = await stack.temporal.client.workflow
      .getHandle(workflowIds.webhook(eventId, endpoint.id))
      .result();
    assert.equal(result.status, 'succeeded');
    assert.equal(receiver.requests.length, 1, 'the lost attempt was never sent twice; attempt 2 was');
    const attempts = await attemptsOf(eventId);
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.status_code, a.in_flight]),
      [
        [1, null, false],
        [2, 200, false],
      ],
    );
    assert.match(attempts[0]!.error!, /outcome was recorded/);
    assert.equal(await sender.sweep(), 0, 'nothing left to recover');
  });
});
