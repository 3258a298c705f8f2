import {
  ActivityCancellationType,
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
  TimeoutFailure,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { ConformanceActivities } from '../activities.ts';

const { greet } = proxyActivities<ConformanceActivities>({ startToCloseTimeout: '10s' });
const { sleepy: localSleepy } = proxyLocalActivities<ConformanceActivities>({ startToCloseTimeout: '10s' });

export const addSignal = defineSignal<[number]>('add');
export const proceedSignal = defineSignal('proceed');
export const totalQuery = defineQuery<number>('total');
export const failingQuery = defineQuery<number>('failing');

export async function greetWorkflow(name: string): Promise<string> {
  return await greet(name);
}

/** Retries `flaky` with a 1s/x2 backoff; reports the winning attempt and the virtual time it took. */
export async function retryWorkflow(
  succeedOnAttempt: number,
): Promise<{ attempt: number; elapsedMs: number }> {
  const { flaky } = proxyActivities<ConformanceActivities>({
    startToCloseTimeout: '10s',
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumAttempts: 5 },
  });
  const start = Date.now();
  const attempt = await flaky(succeedOnAttempt);
  return { attempt, elapsedMs: Date.now() - start };
}

export interface FailureReport {
  retryState: string;
  type?: string | undefined;
  nonRetryable?: boolean | undefined;
  timeoutType?: string | undefined;
}

function report(err: unknown): FailureReport {
  if (!(err instanceof ActivityFailure)) throw err;
  const cause = err.cause;
  return {
    retryState: String(err.retryState),
    type: cause instanceof ApplicationFailure ? (cause.type ?? undefined) : undefined,
    nonRetryable: cause instanceof ApplicationFailure ? (cause.nonRetryable ?? undefined) : undefined,
    timeoutType: cause instanceof TimeoutFailure ? String(cause.timeoutType) : undefined,
  };
}

export async function failureWorkflow(kind: 'nonRetryable' | 'typed'): Promise<FailureReport> {
  const { alwaysFails } = proxyActivities<ConformanceActivities>({
    startToCloseTimeout: '10s',
    retry: { initialInterval: '1s', maximumAttempts: 5, nonRetryableErrorTypes: ['BadInput'] },
  });
  try {
    await alwaysFails(kind);
    throw new Error('expected a failure');
  } catch (err) {
    return report(err);
  }
}

export async function timeoutWorkflow(kind: 'startToClose' | 'heartbeat'): Promise<FailureReport> {
  const { sleepy } = proxyActivities<ConformanceActivities>({
    startToCloseTimeout: '500ms',
    retry: { initialInterval: '1s', maximumAttempts: 2 },
  });
  const { checkpointThenHang } = proxyActivities<ConformanceActivities>({
    startToCloseTimeout: '20s',
    heartbeatTimeout: '500ms',
    retry: { initialInterval: '1s', maximumAttempts: 2 },
  });
  try {
    if (kind === 'startToClose') await sleepy(5_000);
    else await checkpointThenHang(true);
    throw new Error('expected a timeout');
  } catch (err) {
    return report(err);
  }
}

export async function heartbeatDetailsWorkflow(): Promise<{ attempt: number; details: unknown }> {
  const { checkpointThenHang } = proxyActivities<ConformanceActivities>({
    startToCloseTimeout: '20s',
    heartbeatTimeout: '500ms',
    retry: { initialInterval: '1s', maximumAttempts: 3 },
  });
  return await checkpointThenHang(false);
}

export async function cancelActivityWorkflow(): Promise<string> {
  const { heartbeatUntilCancelled } = proxyActivities<ConformanceActivities>({
    startToCloseTimeout: '30s',
    heartbeatTimeout: '1s',
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  });
  try {
    await CancellationScope.cancellable(async () => {
      const running = heartbeatUntilCancelled();
      await sleep(300);
      CancellationScope.current().cancel();
      await running;
    });
    return 'not cancelled';
  } catch (err) {
    if (isCancellation(err)) return 'cancelled';
    throw err;
  }
}

/** Sleeps and reports how much workflow (virtual) time passed. */
export async function sleeper(ms: number): Promise<number> {
  const start = Date.now();
  await sleep(ms);
  return Date.now() - start;
}

export async function accumulate(expectedSignals: number): Promise<number> {
  let total = 0;
  let received = 0;
  setHandler(addSignal, (n) => {
    total += n;
    received++;
  });
  setHandler(totalQuery, () => total);
  setHandler(failingQuery, () => {
    throw new Error('query handler failed');
  });
  await condition(() => received >= expectedSignals);
  return total;
}

export async function waitForever(): Promise<void> {
  await condition(() => false);
}

/** Upserts a search attribute, then waits so it can be described and listed while running. */
export async function tagged(tag: string): Promise<string> {
  upsertSearchAttributes({ CustomKeywordField: [tag] });
  let proceed = false;
  setHandler(proceedSignal, () => {
    proceed = true;
  });
  await condition(() => proceed);
  return tag;
}

/** An activity, a wait for a signal, then another activity (used to swap workers in between). */
export async function twoSteps(): Promise<string[]> {
  const first = await greet('first');
  let proceed = false;
  setHandler(proceedSignal, () => {
    proceed = true;
  });
  await condition(() => proceed);
  const second = await greet('second');
  return [first, second];
}

export async function manySteps(steps: number): Promise<number> {
  let total = 0;
  for (let i = 0; i < steps; i++) {
    total += (await greet(String(i))).length;
    await sleep(10);
  }
  return total;
}

export async function countdown(n: number): Promise<string> {
  if (n > 0) {
    await sleep(1000);
    await continueAsNew<typeof countdown>(n - 1);
  }
  return workflowInfo().continuedFromExecutionRunId ? 'done after continue-as-new' : 'done';
}

/** Fails its workflow task (a plain Error) until the proceed signal arrived. */
export async function failsUntilFixed(): Promise<string> {
  let fixed = false;
  setHandler(proceedSignal, () => {
    fixed = true;
  });
  if (!fixed) throw new Error('not fixed yet');
  return 'fixed';
}

/**
 * Keeps its first workflow task open with a local activity, then waits for `waitFor` signals (0: returns
 * at once, racing any signal that arrived meanwhile) and reports how many it saw.
 */
export async function signalDuringTask(waitFor: number): Promise<number> {
  let received = 0;
  setHandler(addSignal, () => {
    received++;
  });
  await localSleepy(500);
  await condition(() => received >= waitFor);
  return received;
}

/** Local, regular, local: the shape of our mint workflow. The first local step fails until its 3rd attempt. */
export async function localSteps(name: string): Promise<{ attempt: number; greetings: string[] }> {
  const local = proxyLocalActivities<ConformanceActivities>({
    startToCloseTimeout: '10s',
    retry: { initialInterval: '100ms', backoffCoefficient: 1, maximumAttempts: 5 },
  });
  const attempt = await local.flaky(3);
  const remote = await greet(name);
  const again = await local.greet(`${name} again`);
  return { attempt, greetings: [remote, again] };
}
