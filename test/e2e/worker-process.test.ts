import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import type { TestStack } from '../support/stack.ts';
import {
  enrollAndMintParka,
  startStackWithWorkerProcess,
  type WorkerProcess,
} from '../support/worker-process.ts';

describe('the production worker process (worker/main.ts, configured by environment only)', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    ({ stack, tenant, worker } = await startStackWithWorkerProcess());
  });
  afterAll(async () => {
    await worker?.stop();
    await stack.close();
  });

  test('mints, dispatches the outbox, logs the SDK’s lines as JSON, and on SIGTERM drains and exits cleanly', async () => {
    const uid = '04BEEF00000001';
    const minted = await enrollAndMintParka(stack, tenant, uid);
    assert.equal(await stack.chain.chain.reader.findTokenByChip(uid), minted.body.blockchain.tokenId);

    const outbox = () =>
      stack.api.db.orm.em
        .getConnection()
        .execute<{ event_type: string; dispatched: boolean }[]>(
          'select event_type, dispatched_at is not null as dispatched from outbox_events order by occurred_at',
        );
    for (let i = 0; i < 100 && (await outbox()).some((row) => !row.dispatched); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(await outbox(), [
      { event_type: 'asset.initialized', dispatched: true },
      { event_type: 'asset.minted', dispatched: true },
    ]);

    const stopped = await worker!.stop();
    worker = undefined;
    assert.deepEqual([stopped.exitCode, stopped.signal], [0, null], 'exits with 0 after its shutdown steps');
    const messages = stopped.logs.map((line) => line.msg);
    for (const step of ['stopped outbox dispatcher', 'stopped workers', 'stopped chains', 'stopped database'])
      assert.ok(messages.includes(step), `logged "${step}": ${messages.join(' | ')}`);
    assert.ok(
      stopped.logs.some((line) => line.component === 'temporal-sdk' && line.msg === 'Worker state changed'),
      'the SDK’s own logs are JSON lines of the same log',
    );
    const totals = stopped.logs.find(
      (line) => line.msg === 'chain signer totals' && line.environment === 'test',
    );
    assert.equal(totals?.sent, 1, 'one transaction sent for the test environment');
    assert.equal(totals?.nonceErrors, 0);
  });
});
