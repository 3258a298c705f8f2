import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { describe, test } from 'vitest';
import type { RegistryInput, RegistryProgress, RegistryStep } from '../../src/processes/registry.ts';
import { searchAttributes } from '../../src/processes/search-attributes.ts';
import { registerPassport } from '../../workflows/index.ts';
import { scope, workflowHarness } from './support.ts';

const harness = workflowHarness();
const input: RegistryInput = { scope, registrationId: '4b7c1c8e-2f43-4c55-9a55-0f3b8f1f3a11' };

/** A queue of intent ids the stubs drain; `answers` says how the registry answers each send, in order. */
function queue(ids: number[], answers: (RegistryStep | Error)[] = []) {
  const pending = [...ids];
  const sent: number[] = [];
  return {
    sent,
    pending,
    stubs: {
      nextRegistryIntent: () => pending[0] ?? null,
      sendRegistryIntent: ({ intentId }: { intentId: number }) => {
        const answer = answers.shift() ?? { outcome: 'registered' as const, registryId: 'EU-DPP-1' };
        if (answer instanceof Error) throw answer;
        if (answer.outcome === 'registered') {
          sent.push(intentId);
          pending.shift();
        }
        return answer;
      },
    },
  };
}

describe('registry workflow', () => {
  test('sends the intents in order, once each, and completes when drained (after lingering for more)', async () => {
    const intents = queue([1, 2, 3]);
    await harness.withWorker(intents.stubs, async ({ start, log }) => {
      const handle = await start(registerPassport, input);
      assert.deepEqual(await handle.result(), { sent: 3 });
      assert.deepEqual(intents.sent, [1, 2, 3]);
      assert.deepEqual(
        log.inputsOf('sendRegistryIntent'),
        [1, 2, 3].map((intentId) => ({ ...input, intentId })),
      );
    });
  });

  test('a registry down for a while: the send is retried until it answers, nothing skipped', async () => {
    const down = ApplicationFailure.retryable('registry answered HTTP 503', 'RegistryUnavailable');
    const intents = queue([7], [down, down, down]);
    await harness.withWorker(intents.stubs, async ({ start, log }) => {
      const handle = await start(registerPassport, input);
      assert.deepEqual(await handle.result(), { sent: 1 });
      assert.equal(log.inputsOf('sendRegistryIntent').length, 4);
      assert.deepEqual(intents.sent, [7]);
    });
  });

  test('a refusal flags the workflow and waits; the nudge retries the same intent first', async () => {
    const refused: RegistryStep = { outcome: 'refused', reason: 'Operator not verified (Art. 4).' };
    const intents = queue([4, 5], [refused]);
    await harness.withWorker(intents.stubs, async ({ start, log }) => {
      const handle = await start(registerPassport, input);
      await log.waitFor('sendRegistryIntent', 1);
      let progress: RegistryProgress | undefined;
      for (let i = 0; i < 50 && !progress?.refused; i++) {
        progress = await handle.query<RegistryProgress>('registryProgress');
        if (!progress.refused) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.deepEqual(progress?.refused, { reason: 'Operator not verified (Art. 4).' });
      const described = await handle.describe();
      assert.equal(described.typedSearchAttributes.get(searchAttributes.attention), 'registration_refused');
      assert.deepEqual(intents.sent, [], 'nothing after the refused intent goes first');

      await handle.signal('registryNudge');
      assert.deepEqual(await handle.result(), { sent: 2 });
      assert.deepEqual(
        log.inputsOf('sendRegistryIntent').map((call) => (call as { intentId: number }).intentId),
        [4, 4, 5],
      );
      assert.equal(
        (await handle.describe()).typedSearchAttributes.get(searchAttributes.attention),
        undefined,
      );
    });
  });
});
