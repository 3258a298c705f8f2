/**
 * Activity timeout and retry rules, as the Temporal server applies them. Pure functions: no state, no I/O.
 */
import { durationToMs, enums, type IFailure, type IRetryPolicy, msToDuration } from './proto.ts';

export interface ActivityTimeouts {
  scheduleToCloseMs: number;
  scheduleToStartMs: number;
  startToCloseMs: number;
  heartbeatMs: number;
}

export interface RetryPolicyMs {
  initialIntervalMs: number;
  backoffCoefficient: number;
  maximumIntervalMs: number;
  /** 0 means unlimited. */
  maximumAttempts: number;
  nonRetryableErrorTypes: string[];
}

export class InvalidActivityAttributes extends Error {}

const DEFAULT_INITIAL_INTERVAL_MS = 1000;
const DEFAULT_BACKOFF_COEFFICIENT = 2;
const DEFAULT_MAXIMUM_INTERVAL_FACTOR = 100;

/**
 * Fills in missing timeouts the way the server does: everything derives from ScheduleToClose when it is
 * set, otherwise from the run timeout (0 = unbounded), and nothing may exceed the run timeout.
 */
export function normalizeActivityTimeouts(
  requested: ActivityTimeouts,
  runTimeoutMs: number,
): ActivityTimeouts {
  const t = { ...requested };
  if (t.scheduleToCloseMs < 0 || t.scheduleToStartMs < 0 || t.startToCloseMs < 0 || t.heartbeatMs < 0) {
    throw new InvalidActivityAttributes('A valid timeout may not be negative.');
  }
  if (t.scheduleToCloseMs > 0) {
    t.scheduleToStartMs =
      t.scheduleToStartMs > 0 ? Math.min(t.scheduleToStartMs, t.scheduleToCloseMs) : t.scheduleToCloseMs;
    t.startToCloseMs =
      t.startToCloseMs > 0 ? Math.min(t.startToCloseMs, t.scheduleToCloseMs) : t.scheduleToCloseMs;
  } else if (t.startToCloseMs > 0) {
    t.scheduleToCloseMs = runTimeoutMs;
    if (t.scheduleToStartMs <= 0) t.scheduleToStartMs = runTimeoutMs;
  } else {
    throw new InvalidActivityAttributes(
      'A valid StartToClose or ScheduleToCloseTimeout is not set on command.',
    );
  }
  if (runTimeoutMs > 0) {
    t.scheduleToCloseMs = Math.min(t.scheduleToCloseMs || runTimeoutMs, runTimeoutMs);
    t.scheduleToStartMs = Math.min(t.scheduleToStartMs || runTimeoutMs, runTimeoutMs);
    t.startToCloseMs = Math.min(t.startToCloseMs, runTimeoutMs);
    t.heartbeatMs = Math.min(t.heartbeatMs, runTimeoutMs);
  }
  if (t.heartbeatMs > t.startToCloseMs) t.heartbeatMs = t.startToCloseMs;
  return t;
}

/** Applies the server's defaults: 1s initial interval, coefficient 2, maximum 100x initial, no attempt cap. */
export function retryPolicyWithDefaults(policy: IRetryPolicy | null | undefined): RetryPolicyMs {
  const initialIntervalMs = durationToMs(policy?.initialInterval) || DEFAULT_INITIAL_INTERVAL_MS;
  const backoffCoefficient = policy?.backoffCoefficient || DEFAULT_BACKOFF_COEFFICIENT;
  const maximumIntervalMs =
    durationToMs(policy?.maximumInterval) || initialIntervalMs * DEFAULT_MAXIMUM_INTERVAL_FACTOR;
  const maximumAttempts = policy?.maximumAttempts ?? 0;
  if (backoffCoefficient < 1)
    throw new InvalidActivityAttributes('BackoffCoefficient cannot be less than 1.');
  if (maximumAttempts < 0) throw new InvalidActivityAttributes('MaximumAttempts cannot be negative.');
  if (maximumIntervalMs < initialIntervalMs) {
    throw new InvalidActivityAttributes('MaximumInterval cannot be less than InitialInterval.');
  }
  return {
    initialIntervalMs,
    backoffCoefficient,
    maximumIntervalMs,
    maximumAttempts,
    nonRetryableErrorTypes: [...(policy?.nonRetryableErrorTypes ?? [])],
  };
}

export function retryPolicyToProto(policy: RetryPolicyMs): IRetryPolicy {
  return {
    initialInterval: msToDuration(policy.initialIntervalMs),
    backoffCoefficient: policy.backoffCoefficient,
    maximumInterval: msToDuration(policy.maximumIntervalMs),
    maximumAttempts: policy.maximumAttempts,
    nonRetryableErrorTypes: policy.nonRetryableErrorTypes,
  };
}

/** Delay before the attempt after `failedAttempt` (1-based): initial * coefficient^(n-1), capped. */
export function backoffDelayMs(policy: RetryPolicyMs, failedAttempt: number): number {
  const raw = policy.initialIntervalMs * policy.backoffCoefficient ** Math.max(0, failedAttempt - 1);
  return Math.min(raw, policy.maximumIntervalMs);
}

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; retryState: number };

const RetryState = enums.RetryState;

/** What the failure says about retrying, for application and timeout failures alike. */
export function failureRetryTraits(failure: IFailure | null | undefined): {
  nonRetryable: boolean;
  type: string;
  nextRetryDelayMs: number | undefined;
} {
  const app = failure?.applicationFailureInfo;
  if (app) {
    const next = durationToMs(app.nextRetryDelay);
    return {
      nonRetryable: !!app.nonRetryable,
      type: app.type ?? '',
      nextRetryDelayMs: next > 0 ? next : undefined,
    };
  }
  const timeout = failure?.timeoutFailureInfo;
  if (timeout) {
    const names: Record<number, string> = {
      [enums.TimeoutType.TIMEOUT_TYPE_START_TO_CLOSE]: 'StartToClose',
      [enums.TimeoutType.TIMEOUT_TYPE_HEARTBEAT]: 'Heartbeat',
      [enums.TimeoutType.TIMEOUT_TYPE_SCHEDULE_TO_START]: 'ScheduleToStart',
      [enums.TimeoutType.TIMEOUT_TYPE_SCHEDULE_TO_CLOSE]: 'ScheduleToClose',
    };
    const timeoutType = timeout.timeoutType ?? 0;
    const retryable =
      timeoutType === enums.TimeoutType.TIMEOUT_TYPE_START_TO_CLOSE ||
      timeoutType === enums.TimeoutType.TIMEOUT_TYPE_HEARTBEAT;
    return {
      nonRetryable: !retryable,
      type: `TemporalTimeout:${names[timeoutType] ?? ''}`,
      nextRetryDelayMs: undefined,
    };
  }
  return { nonRetryable: false, type: '', nextRetryDelayMs: undefined };
}

/**
 * Whether a failed attempt is retried. `expirationTime` is the absolute ScheduleToClose deadline (0 = none):
 * a retry that could not start before it is not made.
 */
export function activityRetryDecision(
  policy: RetryPolicyMs,
  failedAttempt: number,
  failure: IFailure | null | undefined,
  now: number,
  expirationTime: number,
): RetryDecision {
  const traits = failureRetryTraits(failure);
  if (traits.nonRetryable || policy.nonRetryableErrorTypes.includes(traits.type)) {
    return { retry: false, retryState: RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE };
  }
  if (policy.maximumAttempts > 0 && failedAttempt >= policy.maximumAttempts) {
    return { retry: false, retryState: RetryState.RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED };
  }
  const delayMs = traits.nextRetryDelayMs ?? backoffDelayMs(policy, failedAttempt);
  if (expirationTime > 0 && now + delayMs >= expirationTime) {
    return { retry: false, retryState: RetryState.RETRY_STATE_TIMEOUT };
  }
  return { retry: true, delayMs };
}
