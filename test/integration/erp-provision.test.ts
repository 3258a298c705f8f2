import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { purgeExpiredKeys } from '../../src/platform/idempotency/purge.ts';
import { withCheckDigit } from '../../src/standards/gs1/gtin.ts';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';

const ID = /^svc_[a-z2-7]{20}$/;

interface TwinRow {
  service_internal_id: string;
  material_number: string | null;
  order_id: string | null;
  gtin: string | null;
  name: string | null;
  environment: string;
  chip_uid: string | null;
}

describe('ERP provisioning', () => {
  let api: TestApi;
  let acme: TestTenant;
  const provision = (body: unknown, headers: Record<string, string> = {}) =>
    api.call('POST', '/v1/erp/provision', { key: acme.testKey, body, headers });
  const twins = (where = 'true') =>
    api.db.orm.em.getConnection().execute<TwinRow[]>(`select * from asset_twins where ${where} order by id`);

  beforeAll(async () => {
    api = await startTestApi();
    acme = await api.createTenant('Acme');
  });
  afterAll(() => api.close());

  test('ERP shape reserves an INACTIVE twin', async () => {
    const res = await provision({ erp_metadata: { material_number: 'MAT-1', order_id: 'PO-1' } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.success, true);
    assert.equal(res.body.status, 'INACTIVE');
    assert.match(res.body.service_internal_id, ID);
    const row = (await twins(`service_internal_id = '${res.body.service_internal_id}'`))[0]!;
    assert.equal(row.material_number, 'MAT-1');
    assert.equal(row.order_id, 'PO-1');
    assert.equal(row.environment, 'test');
    assert.equal(row.chip_uid, null);
  });

  test('GTIN shape checks the GS1 check digit and needs metadata.name', async () => {
    const gtin = withCheckDigit('0001234560001');
    const ok = await provision({ gtin, metadata: { name: 'Trail Jacket' } });
    assert.equal(ok.status, 201, ok.text);
    const row = (await twins(`service_internal_id = '${ok.body.service_internal_id}'`))[0]!;
    assert.equal(row.gtin, gtin);
    assert.equal(row.name, 'Trail Jacket');

    const wrongDigit = `${gtin.slice(0, 13)}${(Number(gtin[13]) + 1) % 10}`;
    const bad = await provision({ gtin: wrongDigit, metadata: {} });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.errors.map((e: { path: string }) => e.path).sort(), [
      'body.gtin',
      'body.metadata.name',
    ]);
    const short = await provision({ gtin: '123', metadata: { name: 'x' } });
    assert.equal(short.status, 400);
    const neither = await provision({ erp_metadata: { material_number: '' } });
    assert.deepEqual(neither.body.errors.map((e: { path: string }) => e.path).sort(), [
      'body.erp_metadata.material_number',
      'body.erp_metadata.order_id',
    ]);
  });

  test('Idempotency-Key replays the first response; reuse with another body is 422', async () => {
    const headers = { 'idempotency-key': 'prov-42' };
    const body = { erp_metadata: { material_number: 'MAT-42', order_id: 'PO-42' } };
    const first = await provision(body, headers);
    assert.equal(first.status, 201);
    const again = await provision(body, headers);
    assert.equal(again.status, 201);
    assert.deepEqual(again.body, first.body);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal((await twins(`material_number = 'MAT-42'`)).length, 1);

    const reused = await provision(
      { erp_metadata: { material_number: 'MAT-43', order_id: 'PO-42' } },
      headers,
    );
    assert.equal(reused.status, 422);
    assert.equal(reused.body.code, 'idempotency_key_reused');

    const live = await api.call('POST', '/v1/erp/provision', {
      env: 'live',
      key: acme.liveKey,
      body,
      headers,
    });
    assert.equal(live.status, 201, 'keys are per environment');
    assert.notEqual(live.body.service_internal_id, first.body.service_internal_id);

    const failed = await provision(
      { erp_metadata: { material_number: '' } },
      { 'idempotency-key': 'prov-bad' },
    );
    assert.equal(failed.status, 400);
    const retried = await provision(body, { 'idempotency-key': 'prov-bad' });
    assert.equal(retried.status, 201, 'a failed request does not hold its key');

    const badKey = await provision(body, { 'idempotency-key': 'has space' });
    assert.equal(badKey.status, 400);
    assert.equal(badKey.body.code, 'invalid_idempotency_key');
  });

  test('concurrent bulk calls with one Idempotency-Key write one set of twins and answer the same', async () => {
    const items = Array.from({ length: 500 }, (_, i) => ({
      erp_metadata: { material_number: `CONC-${i}`, order_id: 'PO-CONC' },
    }));
    const call = () =>
      api.call('POST', '/v1/erp/provision/bulk', {
        key: acme.testKey,
        body: { items },
        headers: { 'idempotency-key': 'bulk-concurrent' },
      });
    const answers = await Promise.all([call(), call(), call()]);
    for (const answer of answers) assert.equal(answer.status, 201, answer.text);
    assert.deepEqual(answers[1]!.body, answers[0]!.body);
    assert.deepEqual(answers[2]!.body, answers[0]!.body);
    assert.equal(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true').length, 2);
    assert.equal((await twins(`order_id = 'PO-CONC'`)).length, 500);
  });

  test('an expired key starts a new request', async () => {
    const headers = { 'idempotency-key': 'prov-old' };
    const body = { erp_metadata: { material_number: 'MAT-OLD', order_id: 'PO-1' } };
    const first = await provision(body, headers);
    await api.db.orm.em
      .getConnection()
      .execute(`update idempotency_keys set created_at = now() - interval '25 hours' where key = 'prov-old'`);
    const second = await provision(
      { ...body, erp_metadata: { ...body.erp_metadata, order_id: 'PO-2' } },
      headers,
    );
    assert.equal(second.status, 201);
    assert.notEqual(second.body.service_internal_id, first.body.service_internal_id);
  });

  test('expired keys are purged; live keys stay and still replay', async () => {
    const body = { erp_metadata: { material_number: 'MAT-PURGE', order_id: 'PO-1' } };
    const stale = await provision(body, { 'idempotency-key': 'purge-stale' });
    const fresh = await provision(body, { 'idempotency-key': 'purge-fresh' });
    const sql = (query: string) => api.db.orm.em.getConnection().execute<{ key: string }[]>(query);
    await sql(
      `update idempotency_keys set created_at = now() - interval '25 hours' where key = 'purge-stale'`,
    );

    const deleted = await purgeExpiredKeys(api.db.orm.em.fork());
    assert.ok(deleted >= 1);
    const left = await sql(`select key from idempotency_keys where key like 'purge-%' order by key`);
    assert.deepEqual(
      left.map((row) => row.key),
      ['purge-fresh'],
    );
    const replay = await provision(body, { 'idempotency-key': 'purge-fresh' });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(replay.body, fresh.body);
    assert.equal(stale.status, 201);
    assert.equal(await purgeExpiredKeys(api.db.orm.em.fork()), 0, 'nothing left to purge');
  });

  test('bulk of 10,000 items in one call, in request order', async () => {
    const items = Array.from({ length: 10_000 }, (_, i) => ({
      erp_metadata: { material_number: `BULK-${i}`, order_id: `PO-${i % 7}` },
    }));
    const headers = { 'idempotency-key': 'bulk-1' };
    const res = await api.call('POST', '/v1/erp/provision/bulk', {
      key: acme.testKey,
      body: { items },
      headers,
    });
    assert.equal(res.status, 201, res.text.slice(0, 500));
    assert.equal(res.body.count, 10_000);
    assert.equal(res.body.items.length, 10_000);
    res.body.items.forEach((item: { material_number: string; service_internal_id: string }, i: number) => {
      assert.equal(item.material_number, `BULK-${i}`);
      assert.match(item.service_internal_id, ID);
    });
    const rows = await twins(`material_number like 'BULK-%'`);
    assert.equal(rows.length, 10_000);
    const byId = new Map(rows.map((r) => [r.service_internal_id, r]));
    assert.equal(byId.get(res.body.items[1234].service_internal_id)?.material_number, 'BULK-1234');

    const replay = await api.call('POST', '/v1/erp/provision/bulk', {
      key: acme.testKey,
      body: { items },
      headers,
    });
    assert.deepEqual(replay.body, res.body);
    assert.equal((await twins(`material_number like 'BULK-%'`)).length, 10_000);
  });

  test('a bulk with bad items names each by index and writes nothing', async () => {
    const items: unknown[] = Array.from({ length: 50 }, (_, i) => ({
      erp_metadata: { material_number: `BAD-${i}`, order_id: 'PO' },
    }));
    items[17] = { erp_metadata: { material_number: '', order_id: 'PO' } };
    items[40] = { erp_metadata: { order_id: 'PO' } };
    const res = await api.call('POST', '/v1/erp/provision/bulk', { key: acme.testKey, body: { items } });
    assert.equal(res.status, 400);
    assert.deepEqual(
      res.body.errors.map((e: { path: string }) => e.path),
      ['body.items.17.erp_metadata.material_number', 'body.items.40.erp_metadata.material_number'],
    );
    assert.equal((await twins(`material_number like 'BAD-%'`)).length, 0);

    const tooMany = await api.call('POST', '/v1/erp/provision/bulk', {
      key: acme.testKey,
      body: {
        items: Array.from({ length: 10_001 }, () => ({
          erp_metadata: { material_number: 'M', order_id: 'O' },
        })),
      },
    });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.errors[0].path, 'body.items');
  });
});
