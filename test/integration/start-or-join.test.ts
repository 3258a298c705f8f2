import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { startOrJoin, type WorkflowGateway } from '../../src/adapters/temporal/start.ts';
import { DomainError } from '../../src/platform/errors.ts';
import { taskQueueFor } from '../../src/processes/task-queues.ts';
import { createTestWorkflowEnvironment } from '../support/temporal.ts';
import type { heldOpen } from './fixtures/held-open-workflow.ts';

const foreign = () => new DomainError('conflict', 'not_yours', 'Started by another account.');

/**
 * startOrJoin under an id that does not name the company (as mint:{env}:{chipUid}): with `ownRunsOnly` a
 * company joins only its own run, running or completed; another company's run is its error, with no handle.
 */
describe('startOrJoin with ownRunsOnly', () => {
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
