import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { test } from 'vitest';
import { workerObservability } from '../../src/platform/observability/worker-observability.ts';
import * as workflows from '../../workflows/index.ts';
import { productionWorkflowBundle } from '../support/stack.ts';
import { installTestRuntime } from '../support/temporal.ts';

const DIR = new URL('../fixtures/histories/', import.meta.url);

test('committed histories of our workflows replay deterministically on the current code', async () => {
  installTestRuntime();
  const files = (await readdir(DIR)).filter((f) => f.endsWith('.json')).sort();
  const histories = await Promise.all(
    files.map(async (file) => ({
      workflowId: file.replace(/\.json$/, ''),
      history: historyFromJSON(JSON.parse(await readFile(new URL(file, DIR), 'utf8'))),
    })),
  );
  const types = new Set(
    histories.map((h) => h.history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name),
  );
  const exported = Object.entries(workflows)
    .filter(([, value]) => typeof value === 'function')
    .map(([name]) => name);
  for (const name of exported)
    assert.ok(types.has(name), `no replay fixture for workflow ${name}: run npm run capture:histories`);

  const failures: string[] = [];
  for await (const result of Worker.runReplayHistories(
    // The sinks of the bundled observability interceptors (they are not called while replaying).
    { workflowBundle: await productionWorkflowBundle(), sinks: workerObservability(undefined).sinks },
    histories,
  )) {
    if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
  }
  assert.deepEqual(failures, []);
});
