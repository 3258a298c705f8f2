import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  activityRetryDecision,
  backoffDelayMs,
  InvalidActivityAttributes,
  normalizeActivityTimeouts,
  retryPolicyWithDefaults,
} from '../../src/temporal-server/activity-retry.ts';
import { msToDuration } from '../../src/temporal-server/proto.ts';

const RETRY_STATE_NON_RETRYABLE_FAILURE = 2;
const RETRY_STATE_TIMEOUT = 3;
const RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED = 4;

describe('activity retry rules (pure)', () => {
  test('server defaults: 1s initial, coefficient 2, maximum 100x initial, unlimited attempts', () => {
    const policy = retryPolicyWithDefaults(undefined);
    assert.deepEqual(policy, {
      initialIntervalMs: 1000,
      backoffCoefficient: 2,
      maximumIntervalMs: 100_000,
      maximumAttempts: 0,
      nonRetryableErrorTypes: [],
    });
    assert.deepEqual(
      [1, 2, 3, 4, 7, 8, 20].map((attempt) => backoffDelayMs(policy, attempt)),
      [1000, 2000, 4000, 8000, 64_000, 100_000, 100_000],
    );
  });

  test('invalid policies are rejected', () => {
    assert.throws(() => retryPolicyWithDefaults({ backoffCoefficient: 0.5 }), InvalidActivityAttributes);
    assert.throws(
      () =>
        retryPolicyWithDefaults({
          initialInterval: msToDuration(10_000),
          maximumInterval: msToDuration(1000),
        }),
      InvalidActivityAttributes,
    );
  });

  test('retry decisions', () => {
    const policy = retryPolicyWithDefaults({ maximumAttempts: 3, nonRetryableErrorTypes: ['Bad'] });
    const retryable = { message: 'x', applicationFailureInfo: { type: 'Flaky' } };
    assert.deepEqual(activityRetryDecision(policy, 1, retryable, 0, 0), { retry: true, delayMs: 1000 });
    assert.deepEqual(activityRetryDecision(policy, 3, retryable, 0, 0), {
      retry: false,
      retryState: RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED,
    });
    assert.deepEqual(activityRetryDecision(policy, 1, { applicationFailureInfo: { type: 'Bad' } }, 0, 0), {
      retry: false,
      retryState: RETRY_STATE_NON_RETRYABLE_FAILURE,
    });
    assert.deepEqual(
      activityRetryDecision(policy, 1, { applicationFailureInfo: { nonRetryable: true } }, 0, 0),
      {
        retry: false,
        retryState: RETRY_STATE_NON_RETRYABLE_FAILURE,
      },
    );
    assert.deepEqual(activityRetryDecision(policy, 1, retryable, 9_500, 10_000), {
      retry: false,
      retryState: RETRY_STATE_TIMEOUT,
    });
    const explicitDelay = { applicationFailureInfo: { nextRetryDelay: msToDuration(7000) } };
    assert.deepEqual(activityRetryDecision(policy, 1, explicitDelay, 0, 0), { retry: true, delayMs: 7000 });
    const scheduleToStart = { timeoutFailureInfo: { timeoutType: 2 } };
    assert.equal(activityRetryDecision(policy, 1, scheduleToStart, 0, 0).retry, false);
  });

  test('timeouts are filled in like the server does', () => {
    const none = { scheduleToCloseMs: 0, scheduleToStartMs: 0, startToCloseMs: 0, heartbeatMs: 0 };
    assert.deepEqual(normalizeActivityTimeouts({ ...none, startToCloseMs: 5000 }, 0), {
      scheduleToCloseMs: 0,
      scheduleToStartMs: 0,
      startToCloseMs: 5000,
      heartbeatMs: 0,
    });
    assert.deepEqual(normalizeActivityTimeouts({ ...none, scheduleToCloseMs: 8000, heartbeatMs: 9000 }, 0), {
      scheduleToCloseMs: 8000,
      scheduleToStartMs: 8000,
      startToCloseMs: 8000,
      heartbeatMs: 8000,
    });
    assert.deepEqual(normalizeActivityTimeouts({ ...none, startToCloseMs: 5000 }, 60_000), {
      scheduleToCloseMs: 60_000,
      scheduleToStartMs: 60_000,
      startToCloseMs: 5000,
      heartbeatMs: 0,
    });
    assert.throws(() => normalizeActivityTimeouts(none, 0), InvalidActivityAttributes);
  });
});
