import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { describe, test } from 'vitest';
import type { RecycleInput, RecycleProgress } from '../../src/processes/recycle.ts';
import { recycleTokenPassport } from '../../workflows/index.ts';
import { recordingRoundTests } from './record-rounds.ts';
import { failureOf, type Stubs, scope, workflowHarness } from './support.ts';

const harness = workflowHarness();

const input: RecycleInput = {
  scope,
  tokenId: '7',
  recycler: '0xrecycler',
  rewardReceiver: '0xreceiver',
  location: { locationName: 'Hub', latitude: 53.5, longitude: 10 },
  mintBlock: 12,
};
const released = {
  transactionHash: '0xrecycle',
  blockNumber: 30,
  rewardReceiver: '0xReceiver',
  amountWei: '1000000000000000',
  recycledAt: '2026-01-02T00:00:00.000Z',
};

function stubs(overrides: Stubs = {}): Stubs {
  return { recycleOnChain: () => released, recordRecycle: () => ({ passportId: 1 }), ...overrides };
}

describe('recycle workflow', () => {
  test('releases the deposit on chain, then records the recycling', async () => {
    await harness.withWorker(stubs(), async ({ start, log }) => {
      const handle = await start(recycleTokenPassport, input);
      assert.deepEqual(await handle.result(), {
        tokenId: '7',
        transactionHash: '0xrecycle',
        rewardReceiver: '0xReceiver',
        releasedWei: '1000000000000000',
        status: 'RECYCLED',
      });
      assert.deepEqual(log.names(), ['recycleOnChain', 'recordRecycle']);
      assert.deepEqual(log.inputsOf('recycleOnChain'), [
        { tokenId: '7', rewardReceiver: '0xreceiver', mintBlock: 12 },
      ]);
      assert.deepEqual(log.inputsOf('recordRecycle'), [{ ...input, ...released }]);
      assert.deepEqual(await handle.query<RecycleProgress>('recycleProgress'), {
        step: 'done',
        transactionHash: '0xrecycle',
      });
    });
  });

  test('a passport already recycled on chain fails the workflow at once, nothing recorded', async () => {
    const already = stubs({
      recycleOnChain: () => {
        throw ApplicationFailure.create({ type: 'AlreadyRecycled', message: 'token 7 is recycled' });
      },
    });
    await harness.withWorker(already, async ({ start, log }) => {
      const failure = await failureOf((await start(recycleTokenPassport, input)).result());
      assert.deepEqual(failure, { type: 'AlreadyRecycled', message: 'token 7 is recycled' });
      assert.deepEqual(log.names(), ['recycleOnChain'], 'one attempt: the refusal is final');
    });
  });

  recordingRoundTests({
    harness,
    workflow: recycleTokenPassport,
    args: [input],
    progressQuery: 'recycleProgress',
    record: 'recordRecycle',
    stubs: (record) =>
      stubs({
        recordRecycle: async () => {
          await record();
          return { passportId: 1 };
        },
      }),
  });
});
