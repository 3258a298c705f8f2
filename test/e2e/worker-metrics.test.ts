import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import type { TestTenant } from '../support/api.ts';
import { parseExposition, sampleValue } from '../support/prometheus-text.ts';
import type { TestStack } from '../support/stack.ts';
import { waitFor } from '../support/wait-for.ts';
import {
  enrollAndMintParka,
  startStackWithWorkerProcess,
  type WorkerProcess,
} from '../support/worker-process.ts';

const TOKEN = 'metrics-token-of-the-worker-metrics-test';

/** The worker process's own /metrics (METRICS_PORT): our series and the Temporal SDK core's, one scrape target. */
describe('the worker process serves /metrics on METRICS_PORT', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let worker: WorkerProcess | undefined;
  let metricsUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    ({ stack, tenant, worker } = await startStackWithWorkerProcess({
      METRICS_PORT: String(port),
      METRICS_TOKEN: TOKEN,
    }));
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await stack.close();
  });

  test('after a mint: workflow task latencies from the SDK, the mint and its activities from us; token required', async () => {
    const uid = '04BEEF0000AA01';
    await enrollAndMintParka(stack, tenant, uid);

    const refused = await fetch(metricsUrl);
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('www-authenticate'), 'Bearer');
    const scrape = async () => {
      const response = await fetch(metricsUrl, { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(response.status, 200);
      return parseExposition(await response.text());
    };
    const families = await waitFor(
      'the SDK’s workflow task latency in the worker’s exposition',
      scrape,
      (f) => [...f.keys()].some((name) => name.startsWith('temporal_workflow_task_execution_latency')),
      20,
    );
    const taskLatency = [...families.values()].find((f) =>
      f.name.startsWith('temporal_workflow_task_execution_latency'),
    )!;
    assert.equal(taskLatency.type, 'histogram');
    const count = taskLatency.samples.find(
      (s) => s.name.endsWith('_count') && s.labels.workflow_type === 'mintPassport',
    );
    assert.ok(count && count.value >= 1, JSON.stringify(taskLatency.samples.slice(0, 3)));
    assert.equal(sampleValue(families, 'dpp_mints_total', { environment: 'test', outcome: 'minted' }), 1);
    assert.equal(
      sampleValue(families, 'dpp_activity_duration_seconds_count', {
        workflow: 'mintPassport',
        activity: 'mintOnChain',
        outcome: 'completed',
      }),
      1,
    );
    // The funded-balance alarm: each environment's signer (anvil-funded) beside the default threshold, not empty.
    for (const [environment, signer] of [
      ['test', stack.chain.platform.address],
      ['live', stack.chain.others.at(-1)!.address],
    ] as const) {
      const balance = sampleValue(families, 'dpp_chain_signer_balance_wei', { environment, signer });
      assert.ok(balance !== undefined && balance > 1e18, `${environment} signer balance: ${balance}`);
      assert.equal(sampleValue(families, 'dpp_chain_signer_min_balance_wei', { environment }), 0.05e18);
      assert.equal(sampleValue(families, 'dpp_chain_signer_empty', { environment, signer }), 0);
    }
  });
});
