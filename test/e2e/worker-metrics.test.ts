import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/dev/ports.ts';
import { FACTORY_DEFAULT_KEY, generateSun } from '../../src/sun/index.ts';
import type { TestTenant } from '../support/api.ts';
import { parseExposition, sampleValue } from '../support/prometheus-text.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { waitFor } from '../support/wait-for.ts';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.ts';

const TOKEN = 'metrics-token-of-the-worker-metrics-test';

/** The worker process's own /metrics (METRICS_PORT): our series and the Temporal SDK core's, one scrape target. */
describe('the worker process serves /metrics on METRICS_PORT', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let worker: WorkerProcess | undefined;
  let metricsUrl: string;

  beforeAll(async () => {
    stack = await startTestStack({ startWorker: false, dispatcher: false, apiClient: 'native' });
    tenant = await stack.api.createTenant();
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    worker = await startWorkerProcess(stack, { env: { METRICS_PORT: String(port), METRICS_TOKEN: TOKEN } });
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await stack.close();
  });

  test('after a mint: workflow task latencies from the SDK, the mint and its activities from us; token required', async () => {
    const uid = '04BEEF0000AA01';
    const call = (method: string, path: string, body?: unknown) =>
      stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
    assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: uid })).status, 201);
    const tap = generateSun({
      uid,
      counter: 1,
      keys: { metaReadKey: FACTORY_DEFAULT_KEY, fileReadKey: FACTORY_DEFAULT_KEY },
    });
    const minted = await call('POST', '/v1/dpp/mint', {
      name: 'Parka',
      chipUid: uid,
      nfcData: `picc_data=${tap.piccData}&cmac=${tap.cmac}`,
      custom_dpp_data: { conformity_url: 'https://acme.example/doc.pdf' },
    });
    assert.equal(minted.status, 201, minted.text);

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
  });
});
