import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { findImport, recordImport } from '../../src/lifecycle/provision/spreadsheet-import-store.ts';
import { sweepStalledImports } from '../../src/lifecycle/provision/spreadsheet-import-sweep.ts';
import { createLogger } from '../../src/platform/logging/logger.ts';
import { workflowIds } from '../../src/processes/workflow-ids.ts';
import type { TestTenant } from '../support/api.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

/**
 * An upload recorded whose workflow never started (its API process stopped in between) is not lost: the
 * worker's sweep starts it, and the job ends as an upload's would. Real API database, Temporal and worker.
 */
describe('spreadsheet import: the worker sweep starts a stalled job', () => {
  let stack: TestStack;
  let tenant: TestTenant;

  beforeAll(async () => {
    stack = await startTestStack({ dispatcher: false });
    tenant = await stack.api.createTenant('Stalled Import');
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  test('recorded but never started → swept, written once; a finished job is left alone', async () => {
    const scope = { companyId: tenant.companyId, environment: 'test' as const };
    const file = Buffer.from('material_number,order_id\r\nST-1,PO-1\r\nST-2,PO-1\r\nST-3,PO-1\r\n');
    const sha256 = createHash('sha256').update(file).digest('hex');
    const em = () => stack.api.db.orm.em.fork();
    const { job } = await recordImport(em(), scope, { sha256, fileName: 'stalled.csv', file });
    const gateway = {
      client: stack.temporal.client,
      taskQueuePrefix: stack.api.config.temporal.taskQueuePrefix,
    };
    const log = createLogger('silent');

    assert.equal(await sweepStalledImports(em(), gateway, log, { olderThanSeconds: 0 }), 1);
    const handle = stack.temporal.client.workflow.getHandle(workflowIds.spreadsheetImport('test', job.id));
    assert.deepEqual(await handle.result(), { state: 'done', written: 3 });
    const done = await findImport(em(), scope, job.id);
    assert.deepEqual([done!.state, done!.written], ['done', 3]);
    assert.equal(await sweepStalledImports(em(), gateway, log, { olderThanSeconds: 0 }), 0);
    const [twins] = await em().execute<{ n: number }[]>(
      `select count(*)::int as n from asset_twins where company_id = ? and material_number like 'ST-%'`,
      [tenant.companyId],
    );
    assert.equal(twins!.n, 3);
  });
});
