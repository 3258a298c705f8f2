import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  checkImport,
  IMPORT_CHUNK,
  writeImport,
} from '../../src/lifecycle/provision/spreadsheet-import-run.ts';
import {
  findImport,
  importTwinId,
  recordImport,
} from '../../src/lifecycle/provision/spreadsheet-import-store.ts';
import type { TenantScope } from '../../src/platform/db/tenant-scope.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { waitUntil } from '../support/chain-load.ts';
import { holdTwin } from '../support/held-twin.ts';

const ROWS = 1_000;
const csv = (prefix: string) =>
  Buffer.from(
    `material_number,order_id\r\n${Array.from({ length: ROWS }, (_, i) => `${prefix}-${i + 1},PO-1`).join('\r\n')}\r\n`,
  );

/**
 * The import's write step writes every twin exactly once: run twice at the same time (a retry beside an attempt
 * whose worker is presumed dead, both stopped mid-chunk on a held row), run again once done, and run again with
 * its progress lost. Real database, the steps the worker's activities run.
 */
describe('spreadsheet import: exactly once', () => {
  let api: TestApi;
  let scope: TenantScope;
  const em = () => api.db.orm.em.fork();
  const twins = async (prefix: string) =>
    (
      await em().execute<{ n: number; ids: number }[]>(
        `select count(*)::int as n, count(distinct service_internal_id)::int as ids from asset_twins
         where company_id = ? and material_number like ?`,
        [scope.companyId, `${prefix}-%`],
      )
    )[0]!;
  const uploaded = async (prefix: string) => {
    const file = csv(prefix);
    const sha256 = createHash('sha256').update(file).digest('hex');
    const { job } = await recordImport(em(), scope, { sha256, fileName: `${prefix}.csv`, file });
    assert.deepEqual(await checkImport(em(), scope, job.id), { state: 'writing' });
    return job.id;
  };

  beforeAll(async () => {
    api = await startTestApi();
    const tenant = await api.createTenant('Exactly Once');
    scope = { companyId: tenant.companyId, environment: 'test' };
  });
  afterAll(async () => {
    await api?.close();
  });

  test('two attempts at once, stopped mid-write on a held row, write each twin once', async () => {
    const jobId = await uploaded('TWICE');
    // Row 602 (item 600 counting from 0) is in the chunk from item 500: the chunks before commit, it waits.
    const committed = Math.floor(600 / IMPORT_CHUNK) * IMPORT_CHUNK;
    const held = await holdTwin(api.db.url, scope, importTwinId(jobId, 602));
    let first: Promise<unknown> | undefined;
    let second: Promise<unknown> | undefined;
    try {
      first = writeImport(em(), scope, jobId);
      await waitUntil(
        async () => (await findImport(em(), scope, jobId))!.processed === committed,
        30_000,
        'the chunks before the held row committed',
      );
      // A second attempt (a retry while the first one's worker is presumed dead) stops at the same chunk.
      second = writeImport(em(), scope, jobId);
      assert.equal((await twins('TWICE')).n, committed, 'the held chunk is not written');
    } finally {
      await held.release();
    }
    assert.deepEqual(await Promise.all([first, second]), [
      { state: 'done', written: ROWS },
      { state: 'done', written: ROWS },
    ]);
    assert.deepEqual(await twins('TWICE'), { n: ROWS, ids: ROWS });
    const job = await findImport(em(), scope, jobId);
    assert.deepEqual([job!.state, job!.processed, job!.written], ['done', ROWS, ROWS]);

    assert.deepEqual(
      await writeImport(em(), scope, jobId),
      { state: 'done', written: ROWS },
      'once done: nothing',
    );
    assert.equal((await twins('TWICE')).n, ROWS);
  });

  test('a job marked failed after its twins were written, uploaded again, writes nothing twice', async () => {
    const jobId = await uploaded('AGAIN');
    await writeImport(em(), scope, jobId);
    // As if the workflow had given up after the last chunk committed (the twins are all there).
    await em().execute(`update spreadsheet_imports set state = 'failed' where id = ?`, [jobId]);
    assert.equal(await uploaded('AGAIN'), jobId, 'the same file, the same job, started over');
    assert.deepEqual(await writeImport(em(), scope, jobId), { state: 'done', written: ROWS });
    assert.deepEqual(await twins('AGAIN'), { n: ROWS, ids: ROWS });
  });
});
