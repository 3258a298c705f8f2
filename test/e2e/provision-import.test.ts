import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

/**
 * POST /v1/erp/provision/imports over HTTP: a CSV of twins imported by an API key, its job seen only by its own
 * company and environment, the bulk provisioning rule per row, a file that is not a spreadsheet refused as a
 * row-1 problem, and the same file again writing nothing.
 */
describe('spreadsheet import of twins (API)', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let other: TestTenant;
  const twins = async (tenant: TestTenant) =>
    (
      await stack.api.db.orm.em
        .fork()
        .execute<{ n: number }[]>('select count(*)::int as n from asset_twins where company_id = ?', [
          tenant.companyId,
        ])
    )[0]!.n;
  const start = async (tenant: TestTenant, text: string | Buffer) => {
    const res = await stack.api.call('POST', '/v1/erp/provision/imports', {
      key: tenant.testKey,
      body: { fileName: 'items.csv', content: Buffer.from(text).toString('base64') },
    });
    assert.equal(res.status, 202, res.text);
    return res.body.job;
  };
  const finished = async (tenant: TestTenant, id: string) => {
    for (let i = 0; i < 200; i++) {
      const res = await stack.api.call('GET', `/v1/erp/provision/imports/${id}`, { key: tenant.testKey });
      assert.equal(res.status, 200, res.text);
      if (!['checking', 'writing'].includes(res.body.job.state)) return res.body.job;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the import did not finish');
  };

  beforeAll(async () => {
    stack = await startTestStack({ mintWaitMs: 2000 });
    brand = await stack.api.createTenant('Brand');
    other = await stack.api.createTenant('Other');
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });

  test('a CSV is imported once; its job is the caller’s only', async () => {
    const csv = 'material_number;order_id\nM-1;PO-1\n\nM-2;PO-1\n';
    const job = await start(brand, csv);
    const done = await finished(brand, job.id);
    assert.deepEqual(
      { state: done.state, total: done.total, written: done.written, again: done.alreadyImported },
      { state: 'done', total: 2, written: 2, again: false },
    );
    assert.equal(await twins(brand), 2);
    const foreign = await stack.api.call('GET', `/v1/erp/provision/imports/${job.id}`, {
      key: other.testKey,
    });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'import_not_found');
    const live = await stack.api.call('GET', `/v1/erp/provision/imports/${job.id}`, {
      key: brand.liveKey,
      env: 'live',
    });
    assert.equal(live.status, 404, 'the other environment does not see it');

    // The file's job is one durable record: uploading it again answers that job, done, marked already imported.
    const again = await start(brand, csv);
    assert.deepEqual(
      { id: again.id, state: again.state, again: again.alreadyImported },
      { id: job.id, state: 'done', again: true },
    );
    assert.equal(await twins(brand), 2, 'nothing written twice');
    // The other company's identical file is its own import.
    assert.equal((await finished(other, (await start(other, csv)).id)).written, 2);
  });

  test('bad rows, a bad header and a file that is not a spreadsheet: named, nothing written', async () => {
    const before = await twins(brand);
    const rows = await finished(
      brand,
      (await start(brand, 'material_number,order_id,conformity_url\n,PO-1,\nM-3,PO-1,ftp://x\n')).id,
    );
    assert.equal(rows.state, 'refused');
    assert.deepEqual(
      rows.errors.map((e: { row: number; column: string }) => [e.row, e.column]),
      [
        [2, 'material_number'],
        [3, 'conformity_url'],
      ],
    );
    const header = await finished(brand, (await start(brand, 'material,order_id\nM-1,PO-1\n')).id);
    assert.deepEqual(
      header.errors.map((e: { row: number; column: string }) => [e.row, e.column]),
      [
        [1, 'material'],
        [1, 'material_number'],
      ],
    );
    const zip = await finished(brand, (await start(brand, Buffer.from('PK\u0003\u0004 broken'))).id);
    assert.equal(zip.state, 'refused');
    assert.equal(zip.errors[0].row, 1);
    assert.equal(await twins(brand), before);
  });
});
