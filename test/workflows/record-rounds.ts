import assert from 'node:assert/strict';
import type { Workflow } from '@temporalio/common';
import { test } from 'vitest';
import type { Activities } from '../../activities/index.ts';
import type { RecordAttention } from '../../src/processes/record-until-done.ts';
import { RETRY_RECORDING_SIGNAL } from '../../src/processes/record-until-done.ts';
import { attentionOf, domainRefusal, eventually, gate, type Stubs, type WorkflowHarness } from './support.ts';

/**
 * The tests every workflow that records a chain write with recordUntilDone shares (workflows/
 * record-until-done.ts): rounds of three quick attempts, the workflow flagged (`DppAttention`, `attention` in
 * its progress) between rounds, the next round after a wait or at once on `retryRecording`, the flag removed.
 */
export function recordingRoundTests<W extends Workflow>(options: {
  harness: WorkflowHarness;
  workflow: W;
  args: Parameters<W>;
  progressQuery: string;
  record: keyof Activities;
  /** The workflow's stubs, whose `record` activity calls the given function (it fails as a test wants). */
  stubs: (record: () => Promise<void>) => Stubs;
}): void {
  const { harness, workflow, args, progressQuery, record } = options;
  type Progress = { step: string; attention?: RecordAttention };

  test('recording that keeps failing is retried in rounds until done; the workflow is flagged meanwhile', async () => {
    const secondRound = gate();
    let calls = 0;
    const failing = async () => {
      calls++;
      if (calls <= 3) throw new Error(`database is down (call ${calls})`);
      await secondRound.promise;
    };
    await harness.withWorker(options.stubs(failing), async ({ start, log }) => {
      const handle = await start(workflow, ...args);
      const result = handle.result(); // the server skips the retry backoffs and the wait between rounds
      await log.waitFor(record, 4);
      const progress = await handle.query<Progress>(progressQuery);
      assert.equal(progress.step, 'recording');
      assert.deepEqual(progress.attention, {
        reason: 'record_failed',
        error: 'database is down (call 3)',
        failedRounds: 1,
      });
      assert.equal(await attentionOf(harness.env, handle.workflowId), 'record_failed');
      const attempts = log.calls.filter((call) => call.name === record);
      assert.deepEqual(
        attempts.map((call) => call.attempt),
        [1, 2, 3, 1],
        'a round is three attempts',
      );
      const waited = attempts[3]!.at - attempts[2]!.at;
      assert.ok(waited >= 20_000 && waited < 25_000, `the next round 20 s later (${waited} ms)`);
      secondRound.open();
      await result;
      assert.equal(await attentionOf(harness.env, handle.workflowId), undefined, 'the flag is removed');
      const done = await handle.query<Progress>(progressQuery);
      assert.equal(done.step, 'done');
      assert.equal(done.attention, undefined);
    });
  });

  test('retryRecording starts the next round at once instead of after the wait', async () => {
    let refused = false;
    const refusingOnce = async () => {
      if (refused) return;
      refused = true;
      throw domainRefusal('event row refused');
    };
    await harness.withWorker(options.stubs(refusingOnce), async ({ start, log }) => {
      const handle = await start(workflow, ...args);
      const flagged = await eventually(
        () => handle.query<Progress>(progressQuery),
        (progress) => progress.attention !== undefined,
      );
      assert.deepEqual(flagged.attention, {
        reason: 'record_failed',
        error: 'event row refused',
        failedRounds: 1,
      });
      const before = await harness.env.currentTimeMs();
      await handle.signal(RETRY_RECORDING_SIGNAL);
      await log.waitFor(record, 2);
      assert.ok((await harness.env.currentTimeMs()) - before < 20_000, 'no wait for the 20 s round timer');
      await handle.result();
      assert.equal(await attentionOf(harness.env, handle.workflowId), undefined);
    });
  });
}
