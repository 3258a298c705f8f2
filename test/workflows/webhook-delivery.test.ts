import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import type {
  AttemptInput,
  AttemptOutcome,
  DeliveryProgress,
  DeliveryRef,
  WebhookDeliveryInput,
} from '../../src/processes/webhook-delivery.ts';
import { webhookDelivery } from '../../workflows/index.ts';
import { eventually, type Stubs, workflowHarness } from './support.ts';

const harness = workflowHarness();

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const delivery: DeliveryRef = {
  id: 'delivery-1',
  eventId: 'event-1',
  endpointId: 'endpoint-1',
  companyId: 'company-1',
  environment: 'test',
  eventType: 'asset.minted',
};
const dispatched: WebhookDeliveryInput = { delivery, mode: 'dispatch', firstAttemptMade: true };
const replayed: WebhookDeliveryInput = { delivery, mode: 'replay' };

const answered = (statusCode: number, result: AttemptOutcome['result'] = 'failed'): AttemptOutcome => ({
  result,
  attempted: true,
  statusCode,
  error: statusCode >= 300 ? `HTTP ${statusCode}` : null,
  durationMs: 3,
});

/** The endpoint answers each attempt with the next outcome (the last one repeats). */
function stubs(outcomes: AttemptOutcome[], opened: Partial<{ attemptsBefore: number }> = {}): Stubs {
  let next = 0;
  return {
    openWebhookDelivery: () => ({ deliveryId: 'row-1', attemptsBefore: 1, ...opened }),
    attemptWebhookDelivery: () => outcomes[Math.min(next++, outcomes.length - 1)]!,
    deadLetterWebhookDelivery: () => undefined,
  };
}

describe('webhook delivery workflow', () => {
  test('after the dispatcher’s failed attempt 1: attempts 2 to 6 on the schedule, then the dead-letter queue', async () => {
    await harness.withWorker(stubs([answered(500)]), async ({ start, log }) => {
      const startedAt = await harness.env.currentTimeMs();
      const handle = await start(webhookDelivery, dispatched);
      assert.deepEqual(await handle.result(), {
        status: 'dead',
        attempts: 5,
        lastStatusCode: 500,
        lastError: 'HTTP 500',
      });
      const attempts = log.calls.filter((call) => call.name === 'attemptWebhookDelivery');
      const after = attempts.map((call) => Math.round((call.at - startedAt) / MINUTE));
      assert.deepEqual(
        after,
        [5, 20, 80, 320, 1040],
        'minutes after attempt 1: +5 m, 20 m, 1 h 20, 5 h 20, 17 h 20',
      );
      assert.deepEqual(
        attempts.map((call) => call.input),
        [2, 3, 4, 5, 6].map((attempt, index) => ({
          delivery,
          deliveryId: 'row-1',
          attempt,
          nextAttemptInMs: [15 * MINUTE, HOUR, 4 * HOUR, 12 * HOUR, null][index],
        })),
      );
      assert.deepEqual(log.inputsOf('deadLetterWebhookDelivery'), [{ delivery, deliveryId: 'row-1' }]);
      assert.equal(log.names().at(-1), 'deadLetterWebhookDelivery');
    });
  });

  test('the progress query shows the wait before the next attempt', async () => {
    await harness.withWorker(stubs([answered(200, 'succeeded')]), async ({ start, log }) => {
      const startedAt = await harness.env.currentTimeMs();
      const handle = await start(webhookDelivery, dispatched);
      const waiting = await eventually(
        () => handle.query<DeliveryProgress>('deliveryProgress'),
        (progress) => progress.phase === 'waiting',
      );
      assert.equal(waiting.status, 'pending');
      assert.equal(waiting.lastAttempt, 1, 'the dispatcher’s attempt');
      assert.equal(waiting.attemptsThisRun, 0);
      const nextAt = Date.parse(waiting.nextAttemptAt!) - startedAt;
      assert.ok(Math.abs(nextAt - 5 * MINUTE) < 5000, `${nextAt} ms`);
      assert.deepEqual(log.names(), ['openWebhookDelivery'], 'no attempt before the wait is over');

      assert.deepEqual(await handle.result(), {
        status: 'succeeded',
        attempts: 1,
        lastStatusCode: 200,
        lastError: null,
      });
      const done = await handle.query<DeliveryProgress>('deliveryProgress');
      assert.deepEqual(done, {
        status: 'succeeded',
        phase: 'done',
        attemptsThisRun: 1,
        lastAttempt: 2,
        nextAttemptAt: null,
        lastStatusCode: 200,
        lastError: null,
      });
    });
  });

  test('a replayed dead letter makes attempt 1 at once, numbered after the earlier attempts', async () => {
    await harness.withWorker(
      stubs([answered(204, 'succeeded')], { attemptsBefore: 6 }),
      async ({ start, log }) => {
        const startedAt = await harness.env.currentTimeMs();
        const handle = await start(webhookDelivery, replayed);
        assert.deepEqual(await handle.result(), {
          status: 'succeeded',
          attempts: 1,
          lastStatusCode: 204,
          lastError: null,
        });
        const [attempt] = log.calls.filter((call) => call.name === 'attemptWebhookDelivery');
        assert.ok(attempt!.at - startedAt < MINUTE, 'no wait');
        assert.equal((attempt!.input as AttemptInput).attempt, 7);
        assert.equal((attempt!.input as AttemptInput).nextAttemptInMs, 5 * MINUTE);
        assert.deepEqual(log.inputsOf('openWebhookDelivery'), [replayed]);
      },
    );
  });

  test('a disabled endpoint stops the delivery; an undeliverable event goes to the dead-letter queue at once', async () => {
    const disabled: AttemptOutcome = {
      result: 'stopped',
      attempted: false,
      statusCode: null,
      error: 'endpoint disabled',
      durationMs: 0,
    };
    await harness.withWorker(stubs([answered(500), disabled]), async ({ start, log }) => {
      const result = await (await start(webhookDelivery, replayed)).result();
      assert.deepEqual(result, {
        status: 'stopped',
        attempts: 1,
        lastStatusCode: 500,
        lastError: 'endpoint disabled',
      });
      assert.equal(log.inputsOf('deadLetterWebhookDelivery').length, 0);
    });
    const tooLarge: AttemptOutcome = {
      result: 'undeliverable',
      attempted: false,
      statusCode: null,
      error: 'payload too large',
      durationMs: 0,
    };
    await harness.withWorker(stubs([tooLarge]), async ({ start, log }) => {
      const result = await (await start(webhookDelivery, replayed)).result();
      assert.deepEqual(result, {
        status: 'dead',
        attempts: 0,
        lastStatusCode: null,
        lastError: 'payload too large',
      });
      assert.deepEqual(log.names(), [
        'openWebhookDelivery',
        'attemptWebhookDelivery',
        'deadLetterWebhookDelivery',
      ]);
    });
  });

  test('an attempt whose activity fails outright counts as a failed attempt; the schedule goes on', async () => {
    let calls = 0;
    const lost: Stubs = {
      ...stubs([]),
      attemptWebhookDelivery: () => {
        if (++calls === 1) throw new Error('worker lost its database');
        return answered(200, 'succeeded');
      },
    };
    await harness.withWorker(lost, async ({ start, log }) => {
      const handle = await start(webhookDelivery, replayed);
      const failed = await eventually(
        () => handle.query<DeliveryProgress>('deliveryProgress'),
        (progress) => progress.phase === 'waiting',
      );
      assert.equal(failed.lastError, 'attempt did not complete: worker lost its database');
      assert.equal(failed.lastAttempt, 2);
      assert.equal((await handle.result()).status, 'succeeded');
      assert.deepEqual(
        log.calls.filter((call) => call.name === 'attemptWebhookDelivery').map((call) => call.attempt),
        [1, 1],
        'never retried by Temporal: the schedule is the only retry',
      );
    });
  });

  test('a delivery an earlier run already closed ends without an attempt', async () => {
    const closed: Stubs = {
      ...stubs([]),
      openWebhookDelivery: () => ({ deliveryId: 'row-1', attemptsBefore: 3, closedAs: 'succeeded' }),
    };
    await harness.withWorker(closed, async ({ start, log }) => {
      const result = await (await start(webhookDelivery, dispatched)).result();
      assert.deepEqual(result, { status: 'succeeded', attempts: 0, lastStatusCode: null, lastError: null });
      assert.deepEqual(log.names(), ['openWebhookDelivery']);
    });
  });
});
