import { Context } from '@temporalio/activity';
import { WorkflowFailedError, type WorkflowHandle, type WorkflowStartOptions } from '@temporalio/client';
import { ApplicationFailure, TemporalFailure, type Workflow } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { afterEach, beforeAll, beforeEach } from 'vitest';
import type { Activities } from '../../activities/index.ts';
import { searchAttributes } from '../../src/processes/search-attributes.ts';
import { workflowBundle } from '../support/prebuilt.ts';
import { createTestWorkflowEnvironment } from '../support/temporal.ts';

/**
 * Fast tests of one workflow: the real workflow code on the official time-skipping test server, its
 * activities plain stub functions (no database, chain or HTTP). Timers and retry backoffs pass at once while
 * the test waits for a result; while it only queries or signals, the server's time stands still.
 */

/** Stand-ins for some of the activities, typed as the real ones. */
export type Stubs = {
  [K in keyof Activities]?: (
    input: Parameters<Activities[K]>[0],
  ) => Promise<Awaited<ReturnType<Activities[K]>>> | Awaited<ReturnType<Activities[K]>>;
};

export interface Call {
  name: keyof Activities;
  input: unknown;
  /** The attempt (1 for the first) and when it ran, in the test server's (skipped) time. */
  attempt: number;
  at: number;
}

/** What the stubs saw, in order; `waitFor` resolves once an activity has been called `count` times. */
export interface CallLog {
  calls: Call[];
  names(): (keyof Activities)[];
  inputsOf(name: keyof Activities): unknown[];
  waitFor(name: keyof Activities, count?: number): Promise<void>;
}

export interface WorkerContext {
  log: CallLog;
  /** Starts `workflow` on the worker's task queue (the test's server goes, with any open run, after the test). */
  start<W extends Workflow>(workflow: W, ...args: Parameters<W>): Promise<WorkflowHandle<W>>;
}

export interface WorkflowHarness {
  env: TestWorkflowEnvironment;
  /** Runs `body` with a worker for a fresh task queue whose activities are `stubs` (calls logged). */
  withWorker<T>(stubs: Stubs, body: (context: WorkerContext) => Promise<T>): Promise<T>;
}

/**
 * One bundle of the workflows per test file; a fresh test server per test (under a second), so no test's
 * runs or clock reach another. Sharing one server per file failed: after a resale whose claim update
 * completed and whose payout child started, the test server (1.38.0) kept time skipping locked, and a later
 * test's 24-hour timer never fired.
 */
export function workflowHarness(): WorkflowHarness {
  let env: TestWorkflowEnvironment | undefined;
  let bundle: WorkflowBundleWithSourceMap | undefined;
  let queues = 0;
  beforeAll(async () => {
    bundle = await workflowBundle('plain');
  });
  beforeEach(async () => {
    env = await createTestWorkflowEnvironment('time-skipping');
  });
  afterEach(async () => {
    await env?.teardown();
    env = undefined;
  });
  return {
    get env() {
      if (!env) throw new Error('the harness starts in beforeAll');
      return env;
    },
    async withWorker(stubs, body) {
      const log = callLog();
      const taskQueue = `workflow-test-${++queues}`;
      const worker = await Worker.create({
        connection: this.env.nativeConnection,
        namespace: this.env.namespace ?? 'default',
        taskQueue,
        workflowBundle: bundle!,
        activities: logged(stubs, log, () => this.env.currentTimeMs()),
      });
      let runs = 0;
      const start: WorkerContext['start'] = (workflow, ...args) => {
        const workflowId = `${workflow.name}-${queues}-${++runs}`;
        const options = { taskQueue, workflowId, args } as unknown as WorkflowStartOptions<typeof workflow>;
        return this.env.client.workflow.start(workflow, options);
      };
      return worker.runUntil(body({ log, start }));
    },
  };
}

function callLog(): CallLog & { record(call: Call): void } {
  const calls: Call[] = [];
  const waiting = new Set<() => void>();
  const count = (name: keyof Activities) => calls.filter((call) => call.name === name).length;
  return {
    calls,
    names: () => calls.map((call) => call.name),
    inputsOf: (name) => calls.filter((call) => call.name === name).map((call) => call.input),
    waitFor(name, wanted = 1) {
      return new Promise<void>((resolve) => {
        const check = () => {
          if (count(name) < wanted) return;
          waiting.delete(check);
          resolve();
        };
        waiting.add(check);
        check();
      });
    },
    record(call) {
      calls.push(call);
      for (const check of [...waiting]) check();
    },
  };
}

function logged(
  stubs: Stubs,
  log: ReturnType<typeof callLog>,
  now: () => Promise<number>,
): Record<string, (input: unknown) => unknown> {
  return Object.fromEntries(
    Object.entries(stubs).map(([name, stub]) => [
      name,
      async (input: unknown) => {
        const { attempt } = Context.current().info;
        log.record({ name: name as keyof Activities, input, attempt, at: await now() });
        return (stub as (input: unknown) => unknown)(input);
      },
    ]),
  );
}

/** A stub that fails (retryably, as a database outage would) its first `failures` calls, then answers. */
export function failingFirst<I, O>(failures: number, answer: (input: I) => O, message = 'database is down') {
  let calls = 0;
  return async (input: I): Promise<O> => {
    calls++;
    if (calls <= failures) throw new Error(`${message} (call ${calls})`);
    return answer(input);
  };
}

/** A failure the activity options make final (no further attempt in this round). */
export function domainRefusal(message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: 'DomainError', message, nonRetryable: true });
}

/**
 * How a workflow run failed, as its client sees it: the innermost cause's type and message (an activity's
 * failure arrives wrapped in an ActivityFailure, a local activity's and the workflow's own unwrapped).
 */
export async function failureOf(result: Promise<unknown>): Promise<{ type?: string; message: string }> {
  try {
    await result;
  } catch (error) {
    if (!(error instanceof WorkflowFailedError)) throw error;
    let cause: unknown = error.cause;
    while (cause instanceof TemporalFailure && cause.cause) cause = cause.cause;
    const failure = cause as TemporalFailure;
    return failure instanceof ApplicationFailure
      ? { type: failure.type ?? undefined, message: failure.message }
      : { message: failure.message };
  }
  throw new Error('the workflow did not fail');
}

/** A promise the test resolves when it wants a stub to go on. */
export function gate<T = void>(): { promise: Promise<T>; open(value: T): void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Polls `read` (a query, a describe) until `accept` holds: queries see a workflow task's end, not its start. */
export async function eventually<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The workflow's `DppAttention` search attribute, as operators filter on it. */
export async function attentionOf(
  env: TestWorkflowEnvironment,
  workflowId: string,
): Promise<string | undefined> {
  const described = await env.client.workflow.getHandle(workflowId).describe();
  return described.typedSearchAttributes.get(searchAttributes.attention);
}

export const scope = { companyId: 'company-1', environment: 'test' as const };
