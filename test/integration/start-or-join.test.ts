import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { type StartPolicy, startOrJoin, type WorkflowGateway } from '../../src/adapters/temporal/start.ts';
import { DomainError } from '../../src/platform/errors.ts';
import { taskQueueFor } from '../../src/processes/task-queues.ts';
import { createTestWorkflowEnvironment } from '../support/temporal.ts';
import type { heldOpen } from './fixtures/held-open-workflow.ts';

const foreign = () => new DomainError('conflict', 'not_yours', 'Started by another account.');

/**
 * startOrJoin under an id that does not name the company (as mint:{env}:{chipUid}): with `ownRunsOnly` a
 * company joins only its own run, running or completed; another company's run is its error, with no handle.
 */
let env: TestWorkflowEnvironment;
let gateway: WorkflowGateway;
let worker: Worker;
let running: Promise<void>;

beforeAll(async () => {
  env = await createTestWorkflowEnvironment('time-skipping');
  gateway = { client: env.client, taskQueuePrefix: 'start-or-join-' };
  worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue: taskQueueFor(gateway.taskQueuePrefix, 'test'),
    workflowsPath: fileURLToPath(new URL('./fixtures/held-open-workflow.ts', import.meta.url)),
  });
  running = worker.run();
});
afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
});

describe('startOrJoin with ownRunsOnly', () => {
  const start = (workflowId: string, companyId: string, input: string, guarded = true) =>
    startOrJoin<typeof heldOpen>(gateway, 'heldOpen', {
      workflowId,
      environment: 'test',
      args: [input],
      summary: 'held open',
      searchAttributes: { environment: 'test', company: companyId },
      ...(guarded ? { ownRunsOnly: foreign } : {}),
    });

  test('joins its own running run, refuses another company its run and its result', async () => {
    const id = 'held:test:one';
    const first = await start(id, 'company-a', 'a-secret');
    assert.equal(first.alreadyCompleted, false);
    const again = await start(id, 'company-a', 'a-again');
    assert.equal(again.alreadyCompleted, false);
    assert.equal((await again.handle.describe()).runId, (await first.handle.describe()).runId, 'joined');

    await assert.rejects(start(id, 'company-b', 'b-input'), (error: unknown) => {
      assert.ok(error instanceof DomainError);
      assert.equal(error.code, 'not_yours');
      assert.ok(!JSON.stringify(error).includes('a-secret'));
      return true;
    });

    await first.handle.signal('finish');
    assert.equal(await again.handle.result(), 'a-secret', 'the run company A started');
    // Completed: the owner is told so; another company gets its error, not the completed run.
    assert.equal((await start(id, 'company-a', 'a-later')).alreadyCompleted, true);
    await assert.rejects(start(id, 'company-b', 'b-later'), /Started by another account/);
  });

  test('without ownRunsOnly a start joins whatever runs under the id (ids that name the company)', async () => {
    const id = 'held:test:two';
    const first = await start(id, 'company-a', 'a-input', false);
    const other = await start(id, 'company-b', 'b-input', false);
    await first.handle.signal('finish');
    assert.equal(await other.handle.result(), 'a-input');
  });
});

/**
 * What each id policy does with a run that is going, completed, or ended otherwise (terminated); the same for
 * the run's own company with `ownRunsOnly` (its starts refuse a running run instead of joining it, then look).
 */
describe.each([
  ['', false],
  [' (own runs only)', true],
])('startOrJoin policies%s', (suffix, guarded) => {
  const start = (workflowId: string, input: string, policy?: StartPolicy) =>
    startOrJoin<typeof heldOpen>(gateway, 'heldOpen', {
      workflowId: `${workflowId}${suffix}`,
      environment: 'test',
      args: [input],
      summary: 'held open',
      searchAttributes: { environment: 'test', company: 'company-a' },
      ...(policy ? { policy } : {}),
      ...(guarded ? { ownRunsOnly: foreign } : {}),
    });
  const runId = async (handle: { describe(): Promise<{ runId: string }> }) => (await handle.describe()).runId;

  test('join (the default): joins a running run, starts a terminated one again, never a completed one', async () => {
    const first = await start('policy:join', 'one');
    const again = await start('policy:join', 'two', 'join');
    assert.deepEqual([again.alreadyCompleted, again.alreadyRunning], [false, false]);
    const firstRun = await runId(first.handle);
    assert.equal(await runId(again.handle), firstRun, 'joined');
    await first.handle.terminate('gave up');
    const restarted = await start('policy:join', 'three');
    assert.notEqual(await runId(restarted.handle), firstRun, 'a new run');
    await restarted.handle.signal('finish');
    assert.equal(await restarted.handle.result(), 'three');
    const done = await start('policy:join', 'four');
    assert.deepEqual([done.alreadyCompleted, done.alreadyRunning], [true, false]);
    assert.equal(await done.handle.result(), 'three', 'the completed run');
  });

  test('exclusive: nothing starts while a run goes; once it closed, a new run starts', async () => {
    const first = await start('policy:exclusive', 'one', 'exclusive');
    assert.deepEqual([first.alreadyCompleted, first.alreadyRunning], [false, false]);
    const busy = await start('policy:exclusive', 'two', 'exclusive');
    assert.deepEqual([busy.alreadyCompleted, busy.alreadyRunning], [false, true]);
    const firstRun = await runId(first.handle);
    assert.equal(await runId(busy.handle), firstRun, 'the running run, untouched');
    await first.handle.signal('finish');
    assert.equal(await first.handle.result(), 'one');
    const next = await start('policy:exclusive', 'three', 'exclusive');
    assert.deepEqual([next.alreadyCompleted, next.alreadyRunning], [false, false]);
    assert.notEqual(await runId(next.handle), firstRun, 'a new run');
    await next.handle.terminate('done with it');
  });

  test('once: joins a running run; once it closed, however it ended, nothing starts again', async () => {
    const first = await start('policy:once', 'one', 'once');
    const again = await start('policy:once', 'two', 'once');
    assert.deepEqual([again.alreadyCompleted, again.alreadyRunning], [false, false]);
    assert.equal(await runId(again.handle), await runId(first.handle), 'joined');
    await first.handle.terminate('gave up');
    const closed = await start('policy:once', 'three', 'once');
    assert.deepEqual([closed.alreadyCompleted, closed.alreadyRunning], [true, false]);
    assert.equal(await runId(closed.handle), await runId(first.handle), 'not started again');
  });
});
