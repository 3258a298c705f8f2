import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { status } from '@grpc/grpc-js';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createActivities } from './activities.ts';
import {
  bundleConformanceWorkflows,
  SERVER_EXECUTABLE,
  setUpTestProcess,
  TEST_TIMEOUT_MS,
  uniqueId,
} from './helpers.ts';
import { proceedSignal } from './workflows/conformance.ts';

setUpTestProcess();

const batchId = defineSearchAttributeKey('DppBatchId', SearchAttributeType.KEYWORD);
const taskQueue = 'dev-server';
let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;

before(async () => {
  const [created, workflowBundle] = await Promise.all([
    TestWorkflowEnvironment.createLocal({
      server: { executable: { type: 'existing-path', path: SERVER_EXECUTABLE }, searchAttributes: [batchId] },
    }),
    bundleConformanceWorkflows(),
  ]);
  env = created;
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle,
    activities: createActivities().activities,
  });
  running = worker.run();
});

after(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
});

const options = { timeout: TEST_TIMEOUT_MS };

describe('dev server (createLocal, real time)', () => {
  test('runs workflows in real time', options, async () => {
    assert.equal(env.supportsTimeSkipping, false);
    const greeting = await env.client.workflow.execute('greetWorkflow', {
      taskQueue,
      workflowId: uniqueId('dev-greet'),
      args: ['dev'],
    });
    assert.equal(greeting, 'Hello, dev!');
    const started = Date.now();
    const slept = await env.client.workflow.execute('sleeper', {
      taskQueue,
      workflowId: uniqueId('dev-sleep'),
      args: [300],
    });
    assert.ok(slept >= 300);
    assert.ok(Date.now() - started >= 290, 'a dev server timer takes real time');
  });

  test('describe and list by custom search attributes', options, async () => {
    const tag = uniqueId('tag');
    const handle = await env.client.workflow.start('tagged', {
      taskQueue,
      workflowId: uniqueId('tagged'),
      args: [tag],
      typedSearchAttributes: [{ key: batchId, value: 'batch-7' }],
      staticSummary: 'tagged workflow',
    });
    // Wait for the workflow's first task to upsert CustomKeywordField.
    let description = await handle.describe();
    for (let i = 0; i < 100 && !description.searchAttributes.CustomKeywordField; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      description = await handle.describe();
    }
    assert.equal(description.status.name, 'RUNNING');
    assert.equal(description.typedSearchAttributes.get(batchId), 'batch-7');
    assert.deepEqual(description.searchAttributes.CustomKeywordField, [tag]);
    assert.equal(await description.staticSummary(), 'tagged workflow');

    const listed = [];
    for await (const execution of env.client.workflow.list({ query: `DppBatchId = 'batch-7'` })) {
      listed.push(execution.workflowId);
    }
    assert.deepEqual(listed, [handle.workflowId]);
    const running = await env.client.workflow.count(
      `CustomKeywordField = '${tag}' AND ExecutionStatus = 'Running'`,
    );
    assert.equal(running.count, 1);
    await assert.rejects(env.client.workflow.count('NoSuchAttribute = 1'), (err: Error) => {
      const cause = err.cause as { code?: number; details?: string } | undefined;
      return cause?.code === status.INVALID_ARGUMENT && /NoSuchAttribute/.test(cause.details ?? '');
    });

    await handle.signal(proceedSignal);
    assert.equal(await handle.result(), tag);
    const completed = await env.client.workflow.count(
      `CustomKeywordField = '${tag}' AND ExecutionStatus = 'Completed'`,
    );
    assert.equal(completed.count, 1);
  });

  test('search attributes can be registered through the OperatorService', options, async () => {
    await env.connection.operatorService.addSearchAttributes({
      namespace: 'default',
      searchAttributes: { DppLot: 2 /* INDEXED_VALUE_TYPE_KEYWORD */ },
    });
    const { customAttributes } = await env.connection.operatorService.listSearchAttributes({
      namespace: 'default',
    });
    assert.equal(customAttributes?.DppLot, 2);
    assert.equal(customAttributes?.DppBatchId, 2);
    assert.equal(customAttributes?.CustomKeywordField, 2);
  });
});
