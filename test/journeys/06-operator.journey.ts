import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { stack } from './client.ts';
import { recall } from './shared.ts';

type Passports = { tokenId: string; chipUid: string }[];

/** The Temporal Web UI's own HTTP API, as its pages call it. */
async function listed(query: string): Promise<{ workflowId: string; type: string; status: string }[]> {
  const response = await fetch(
    `${stack().temporalUiUrl}/api/v1/namespaces/default/workflows?query=${encodeURIComponent(query)}&pageSize=1000`,
  );
  assert.equal(response.status, 200);
  const body = (await response.json()) as {
    executions?: { execution: { workflowId: string }; type: { name: string }; status: string }[];
  };
  return (body.executions ?? []).map((e) => ({
    workflowId: e.execution.workflowId,
    type: e.type.name,
    status: e.status,
  }));
}

// An operator opens the Temporal UI npm start prints and finds the day's work by what they know: a chip, a
// passport, a kind of workflow.
describe('an operator watches the workflows', () => {
  test('finds a passport’s mint by chip and its anchors by token, all completed', async () => {
    const [longLived] = await recall<Passports>('passports');
    const mints = await listed(`DppChipUid = "${longLived!.chipUid}"`);
    assert.deepEqual(
      mints.map((m) => [m.workflowId, m.status]),
      [[`mint:test:${longLived!.chipUid}`, 'WORKFLOW_EXECUTION_STATUS_COMPLETED']],
    );
    const anchors = (await listed(`DppTokenId = "${longLived!.tokenId}"`)).filter((w) =>
      w.workflowId.startsWith('anchor-event:'),
    );
    assert.ok(anchors.length >= 300, `anchor workflows: ${anchors.length}`);
    assert.ok(anchors.every((a) => a.status === 'WORKFLOW_EXECUTION_STATUS_COMPLETED'));
    const failed = await listed('ExecutionStatus = "Failed"');
    assert.deepEqual(failed, [], 'no workflow failed during the journeys');
  });
});
