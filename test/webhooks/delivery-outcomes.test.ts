import assert from 'node:assert/strict';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createActivities, type EnvironmentDeps } from '../../activities/index.ts';
import type { WorkflowGateway } from '../../src/adapters/temporal/start.ts';
import { scopedEntityManager, type TenantScope } from '../../src/platform/db/tenant-scope.ts';
import { workerObservability } from '../../src/platform/observability/worker-observability.ts';
import { taskQueueFor } from '../../src/processes/task-queues.ts';
import type {
  DeliveryProgress,
  DeliveryRef,
  WebhookDeliveryResult,
} from '../../src/processes/webhook-delivery.ts';
import { workflowIds } from '../../src/processes/workflow-ids.ts';
import { deleteEndpoint, updateEndpoint } from '../../src/webhooks/endpoints.ts';
import { dispatchOutboxBatch } from '../../src/webhooks/outbox-dispatch.ts';
import { startDeliveryWorkflow } from '../../src/webhooks/start-delivery.ts';
import { productionWorkflowBundle, startTestStack, type TestStack } from '../support/stack.ts';
import { createTestEndpoint, queueEvent, type Receiver, startReceiver, waitUntil } from './support.ts';

describe('webhook delivery outcomes (time-skipping Temporal, real HTTP receiver)', () => {
  let stack: TestStack;
  let gateway: WorkflowGateway;
  const receivers: Receiver[] = [];
  const sql = <T>(query: string, params: unknown[] = []) =>
    stack.api.db.orm.em.fork().execute<T[]>(query, params);

  beforeAll(async () => {
    stack = await startTestStack({ dispatcher: false, temporal: 'time-skipping' });
    gateway = { client: stack.temporal.client, taskQueuePrefix: stack.api.config.temporal.taskQueuePrefix };
  });
  afterAll(async () => {
    for (const receiver of receivers) await receiver.close();
    await stack.close();
  });

  /** Own company, receiver and endpoint; one event queued and dispatched (attempt 1 runs at once). */
  async function deliverOne(reply: Receiver['reply']) {
    const receiver = await startReceiver(reply);
    receivers.push(receiver);
    const { companyId } = await stack.api.createTenant(`Company ${receivers.length}`);
    const scope: TenantScope = { companyId, environment: 'test' };
    const endpoint = await createTestEndpoint(stack.api.db.orm, stack.deps.secretBox, scope, receiver.url);
    const eventId = await queueEvent(stack.api.db.orm, scope, 'asset.sold', {
      tokenId: '42',
      action: 'SOLD',
      actor: 'Store 7',
      locationName: 'Hamburg',
      latitude: 53.5461,
      longitude: 9.9661,
      transactionHash: `0x${'ab'.repeat(32)}`,
    });
    await dispatchOutboxBatch(stack.api.db.orm, gateway, { batchSize: 100 });
    const handle = stack.temporal.client.workflow.getHandle(workflowIds.webhook(eventId, endpoint.id));
    const [row] = await sql<{ id: string }>('select id from webhook_deliveries where event_id = ?', [
      eventId,
    ]);
    const ref: DeliveryRef = {
      id: row!.id,
      eventId,
      endpointId: endpoint.id,
      ...scope,
      eventType: 'asset.sold',
    };
    return {
      receiver,
      scope,
      endpoint,
      eventId,
      handle,
      ref,
      em: () => scopedEntityManager(stack.api.db.orm.em, scope),
    };
  }

  const attemptRows = (deliveryId: string) =>
    sql<{
      attempt: number;
      status_code: number | null;
      error: string | null;
      response_snippet: string | null;
      duration_ms: number;
    }>(
      'select attempt, status_code, error, response_snippet, duration_ms from webhook_attempts where delivery_id = ? order by attempt',
      [deliveryId],
    );
  const deliveryRow = async (deliveryId: string) =>
    (await sql<Record<string, unknown>>('select * from webhook_deliveries where id = ?', [deliveryId]))[0]!;

  test('the envelope and headers of an attempt', async () => {
    const { receiver, eventId, handle } = await deliverOne(() => ({ status: 204 }));
    assert.equal((await handle.result()).status, 'succeeded');
    const [request] = receiver.requests;
    assert.equal(request!.method, 'POST');
    assert.equal(request!.path, '/hooks');
    const envelope = JSON.parse(request!.body);
    assert.deepEqual(Object.keys(envelope), ['eventId', 'eventType', 'timestamp', 'data']);
    const [event] = await sql<{ occurred_at: Date }>('select occurred_at from outbox_events where id = ?', [
      eventId,
    ]);
    assert.equal(envelope.eventId, eventId);
    assert.equal(envelope.eventType, 'asset.sold');
    assert.equal(envelope.timestamp, new Date(event!.occurred_at).toISOString());
    assert.equal(envelope.data.latitude, 53.5461, 'decimal degrees stay decimal degrees');
    assert.equal(request!.headers['content-type'], 'application/json');
    assert.equal(request!.headers['user-agent'], 'dpp-webhooks/1');
    assert.equal(request!.headers['webhook-id'], eventId);
    const timestamp = Number(request!.headers['webhook-timestamp']);
    assert.ok(Math.abs(timestamp - Date.now() / 1000) < 60);
    assert.match(String(request!.headers['service-signature']), /^[0-9a-f]{64}$/);
    assert.match(String(request!.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]{43}=$/);
  });

  test('an endpoint disabled between attempts stops the delivery without another POST', async () => {
    const { receiver, endpoint, handle, ref, em } = await deliverOne(() => ({ status: 500 }));
    await waitUntil(async () => (await attemptRows(ref.id)).length === 1, 20_000, 'attempt 1');
    await waitUntil(
      async () => (await handle.query<DeliveryProgress>('deliveryProgress')).phase === 'waiting',
    );
    const progress = await handle.query<DeliveryProgress>('deliveryProgress');
    assert.equal(progress.status, 'pending');
    assert.equal(progress.lastAttempt, 1);
    assert.equal(progress.lastStatusCode, 500);
    assert.ok(progress.nextAttemptAt);
    const waiting = await deliveryRow(ref.id);
    assert.equal(waiting.status, 'pending');
    assert.equal(waiting.attempt_count, 1);
    assert.ok(waiting.next_attempt_at, 'the row says when the next attempt is due');

    await updateEndpoint(em(), { policy: { allowPrivate: true } }, endpoint.id, { enabled: false });
    const result: WebhookDeliveryResult = await handle.result();
    assert.deepEqual(result, {
      status: 'stopped',
      attempts: 1,
      lastStatusCode: 500,
      lastError: 'endpoint disabled',
    });
    assert.equal(receiver.requests.length, 1);
    assert.equal((await attemptRows(ref.id)).length, 1, 'the stop is not an attempt');
    const row = await deliveryRow(ref.id);
    assert.equal(row.status, 'stopped');
    assert.equal(row.last_error, 'endpoint disabled');
    assert.equal(row.next_attempt_at, null);
  });

  test('an endpoint deleted between attempts stops the delivery too', async () => {
    const { receiver, endpoint, handle, ref, em } = await deliverOne(() => ({ status: 502 }));
    await waitUntil(async () => (await attemptRows(ref.id)).length === 1, 20_000, 'attempt 1');
    await deleteEndpoint(em(), endpoint.id);
    assert.equal((await handle.result()).status, 'stopped');
    assert.equal(receiver.requests.length, 1);
    assert.equal((await deliveryRow(ref.id)).last_error, 'endpoint deleted');
  });

  test('410 Gone is a failed attempt like any other: retried, the endpoint left enabled', async () => {
    const replies = [{ status: 410, body: 'gone for now' }, { status: 200 }];
    const { receiver, endpoint, handle, ref } = await deliverOne(
      (_request, index) => replies[index] ?? { status: 500 },
    );
    const result: WebhookDeliveryResult = await handle.result();
    assert.deepEqual(result, { status: 'succeeded', attempts: 2, lastStatusCode: 200, lastError: null });
    assert.equal(receiver.requests.length, 2);
    const [row] = await sql<{ enabled: boolean; disabled_reason: string | null }>(
      'select enabled, disabled_reason from webhook_endpoints where id = ?',
      [endpoint.id],
    );
    assert.equal(row!.enabled, true);
    assert.equal(row!.disabled_reason, null);
    const attempts = await attemptRows(ref.id);
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.status_code, a.error]),
      [
        [1, 410, null],
        [2, 200, null],
      ],
    );
  });

  test('redirects are not followed, the answer of a local receiver is kept as a 200-character excerpt, only 2xx succeeds', async () => {
    const elsewhere = await startReceiver();
    receivers.push(elsewhere);
    const replies = [
      { status: 302, headers: { location: elsewhere.url } },
      { status: 500, body: 'é'.repeat(5000) },
      { status: 200, body: 'fine' },
    ];
    const { handle, ref } = await deliverOne((_request, index) => replies[index] ?? { status: 500 });
    const result: WebhookDeliveryResult = await handle.result();
    assert.equal(result.status, 'succeeded');
    assert.equal(elsewhere.requests.length, 0, 'the redirect target never hears of it');
    const attempts = await attemptRows(ref.id);
    assert.deepEqual(
      attempts.map((a) => a.status_code),
      [302, 500, 200],
    );
    // 127.0.0.1 is not public: its answer is never kept readable (public receivers keep 2 KiB, see
    // test/unit/pinned-request.test.ts), only a short printable excerpt.
    assert.equal(attempts[1]!.response_snippet, 'é'.repeat(200));
  });

  test('a receiver that never answers fails the attempt after 15 s; the next attempt goes on', async () => {
    const { handle, ref } = await deliverOne((_request, index) =>
      index === 0 ? { status: 0, hang: true } : { status: 200 },
    );
    const started = Date.now();
    const result: WebhookDeliveryResult = await handle.result();
    assert.equal(result.status, 'succeeded');
    assert.ok(Date.now() - started >= 15_000);
    const [first] = await attemptRows(ref.id);
    assert.equal(first!.status_code, null);
    assert.match(first!.error!, /timed out after 15000 ms/);
    assert.ok(first!.duration_ms >= 15_000 && first!.duration_ms < 16_000, `${first!.duration_ms} ms`);
  });

  /** A worker of its own (task queue prefix `prefix`) with other webhook dependencies. */
  async function withWorker(prefix: string, overrides: Partial<EnvironmentDeps>, run: () => Promise<void>) {
    const worker = await Worker.create({
      connection: stack.temporal.nativeConnection,
      namespace: stack.temporal.namespace ?? 'default',
      taskQueue: taskQueueFor(prefix, 'test'),
      workflowBundle: await productionWorkflowBundle(),
      activities: createActivities({ ...stack.deps, ...overrides }),
      ...workerObservability(undefined),
    });
    const running = worker.run();
    try {
      await run();
    } finally {
      worker.shutdown();
      await running;
    }
  }

  /** A delivery row and its workflow started on the task queues of `prefix`. */
  async function startOn(prefix: string, url: string, name: string) {
    const { companyId } = await stack.api.createTenant(name);
    const scope: TenantScope = { companyId, environment: 'test' };
    const endpoint = await createTestEndpoint(stack.api.db.orm, stack.deps.secretBox, scope, url);
    const eventId = await queueEvent(stack.api.db.orm, scope, 'asset.minted', { tokenId: '1' });
    await sql(
      `insert into webhook_deliveries (id, company_id, environment, event_id, endpoint_id, event_type)
       values (gen_random_uuid(), ?, 'test', ?, ?, 'asset.minted')`,
      [companyId, eventId, endpoint.id],
    );
    const ref = { id: 'unused', eventId, endpointId: endpoint.id, ...scope, eventType: 'asset.minted' };
    await startDeliveryWorkflow({ ...gateway, taskQueuePrefix: prefix }, ref, 'dispatch');
    return stack.temporal.client.workflow.getHandle(workflowIds.webhook(eventId, endpoint.id));
  }

  test('the connection goes to the address the check vetted, never to a second DNS answer', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const port = new URL(receiver.url).port;
    let lookups = 0;
    // hooks.invalid never resolves in real DNS: only the vetted (pinned) answer can reach the receiver.
    const resolver = async (host: string) => {
      lookups++;
      assert.equal(host, 'hooks.invalid');
      return [{ address: '127.0.0.1', family: 4 as const }];
    };
    await withWorker('pinned', { webhookResolver: resolver }, async () => {
      const handle = await startOn('pinned', `http://hooks.invalid:${port}/by-name`, 'Pinned Co');
      const result: WebhookDeliveryResult = await handle.result();
      assert.equal(result.status, 'succeeded', String(result.lastError));
    });
    assert.equal(lookups, 1);
    assert.equal(receiver.requests[0]!.path, '/by-name');
    assert.equal(receiver.requests[0]!.headers.host, `hooks.invalid:${port}`);
  });

  test('where private targets are forbidden (live), a delivery to one is refused at every attempt', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    await withWorker('strict', { webhookUrlPolicy: { allowPrivate: false } }, async () => {
      const handle = await startOn('strict', receiver.url, 'Strict Co');
      const result: WebhookDeliveryResult = await handle.result();
      assert.equal(result.status, 'dead');
      assert.equal(result.attempts, 6);
      assert.match(result.lastError!, /127\.0\.0\.1.*non-public/);
    });
    assert.equal(receiver.requests.length, 0, 'nothing is sent to a private address');
  });

  test('dispatch twice never duplicates; replay from the dead-letter queue delivers again', async () => {
    let healthy = false;
    const { receiver, handle, ref } = await deliverOne(() => ({ status: healthy ? 200 : 500 }));
    const { runId } = await handle.describe();
    assert.deepEqual(await startDeliveryWorkflow(gateway, ref, 'dispatch'), {
      workflowId: handle.workflowId,
      outcome: 'started',
    });
    assert.deepEqual(await startDeliveryWorkflow(gateway, ref, 'replay'), {
      workflowId: handle.workflowId,
      outcome: 'already_running',
    });
    assert.equal((await handle.describe()).runId, runId, 'joined, not restarted');

    assert.equal((await handle.result()).status, 'dead');
    assert.equal(receiver.requests.length, 6);
    assert.equal((await startDeliveryWorkflow(gateway, ref, 'dispatch')).outcome, 'already_closed');
    assert.equal((await handle.describe()).runId, runId, 'a closed delivery is not dispatched again');

    healthy = true;
    assert.equal((await startDeliveryWorkflow(gateway, ref, 'replay')).outcome, 'started');
    const replayed = stack.temporal.client.workflow.getHandle(handle.workflowId);
    const result: WebhookDeliveryResult = await replayed.result();
    assert.notEqual((await replayed.describe()).runId, runId);
    assert.equal(result.status, 'succeeded');
    assert.equal(receiver.requests.length, 7);
    const attempts = await attemptRows(ref.id);
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.status_code]),
      [...[1, 2, 3, 4, 5, 6].map((n) => [n, 500]), [7, 200]],
    );
    const row = await deliveryRow(ref.id);
    assert.equal(row.status, 'succeeded');
    assert.equal(row.dead_lettered_at, null);
    assert.equal(row.attempt_count, 7);
  });
});
