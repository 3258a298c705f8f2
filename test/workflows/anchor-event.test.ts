import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { describe, test } from 'vitest';
import type { AnchorEventInput, AnchorEventProgress } from '../../src/processes/anchor-event.ts';
import { anchorSupplyChainEvent } from '../../workflows/index.ts';
import { recordingRoundTests } from './record-rounds.ts';
import { failureOf, type Stubs, scope, workflowHarness } from './support.ts';

const harness = workflowHarness();

const input: AnchorEventInput = { scope, eventId: 5 };
const logged = { transactionHash: '0xlog', blockNumber: 40 };

function stubs(overrides: Stubs = {}): Stubs {
  return { logEventOnChain: () => logged, recordEventAnchor: () => undefined, ...overrides };
}

describe('anchor-event workflow', () => {
  test('logs the event on chain, then records its transaction', async () => {
    await harness.withWorker(stubs(), async ({ start, log }) => {
      const handle = await start(anchorSupplyChainEvent, input);
      assert.deepEqual(await handle.result(), { eventId: 5, transactionHash: '0xlog', blockNumber: 40 });
      assert.deepEqual(log.names(), ['logEventOnChain', 'recordEventAnchor']);
      assert.deepEqual(log.inputsOf('logEventOnChain'), [input]);
      assert.deepEqual(log.inputsOf('recordEventAnchor'), [{ ...input, ...logged }]);
      assert.deepEqual(await handle.query<AnchorEventProgress>('anchorProgress'), {
        step: 'done',
        transactionHash: '0xlog',
      });
    });
  });

  test('a chain that refuses the event fails the workflow, nothing recorded', async () => {
    const refusing = stubs({
      logEventOnChain: () => {
        throw ApplicationFailure.create({ type: 'ChainRejected', message: 'token 7 is recycled' });
      },
    });
    await harness.withWorker(refusing, async ({ start, log }) => {
      const failure = await failureOf((await start(anchorSupplyChainEvent, input)).result());
      assert.equal(failure.type, 'ChainRejected');
      assert.deepEqual(log.names(), ['logEventOnChain']);
    });
  });

  recordingRoundTests({
    harness,
    workflow: anchorSupplyChainEvent,
    args: [input],
    progressQuery: 'anchorProgress',
    record: 'recordEventAnchor',
    stubs: (record) => stubs({ recordEventAnchor: record }),
  });
});
