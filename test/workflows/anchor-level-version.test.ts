import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { describe, test } from 'vitest';
import type { AnchorEventProgress } from '../../src/processes/anchor-event.ts';
import type { AnchorLevelVersionInput } from '../../src/processes/anchor-level-version.ts';
import { anchorLevelVersion } from '../../workflows/index.ts';
import { recordingRoundTests } from './record-rounds.ts';
import { failureOf, type Stubs, scope, workflowHarness } from './support.ts';

const harness = workflowHarness();

const input: AnchorLevelVersionInput = { scope, levelId: 3, number: 2 };
const anchored = { transactionHash: '0xversion', blockNumber: 41 };

function stubs(overrides: Stubs = {}): Stubs {
  return {
    anchorLevelVersionOnChain: () => anchored,
    recordLevelVersionAnchor: () => undefined,
    ...overrides,
  };
}

describe('anchor-level-version workflow', () => {
  test('anchors the version on chain, then records its transaction on the version', async () => {
    await harness.withWorker(stubs(), async ({ start, log }) => {
      const handle = await start(anchorLevelVersion, input);
      assert.deepEqual(await handle.result(), anchored);
      assert.deepEqual(log.names(), ['anchorLevelVersionOnChain', 'recordLevelVersionAnchor']);
      assert.deepEqual(log.inputsOf('anchorLevelVersionOnChain'), [input]);
      assert.deepEqual(log.inputsOf('recordLevelVersionAnchor'), [{ ...input, ...anchored }]);
      assert.deepEqual(await handle.query<AnchorEventProgress>('anchorProgress'), {
        step: 'done',
        transactionHash: '0xversion',
      });
    });
  });

  test('a chain that refuses the anchor fails the workflow, nothing recorded', async () => {
    const refusing = stubs({
      anchorLevelVersionOnChain: () => {
        throw ApplicationFailure.create({ type: 'ChainRejected', message: 'NotMinterOrAdmin' });
      },
    });
    await harness.withWorker(refusing, async ({ start, log }) => {
      const failure = await failureOf((await start(anchorLevelVersion, input)).result());
      assert.equal(failure.type, 'ChainRejected');
      assert.deepEqual(log.names(), ['anchorLevelVersionOnChain']);
    });
  });

  recordingRoundTests({
    harness,
    workflow: anchorLevelVersion,
    args: [input],
    progressQuery: 'anchorProgress',
    record: 'recordLevelVersionAnchor',
    stubs: (record) => stubs({ recordLevelVersionAnchor: record }),
  });
});
