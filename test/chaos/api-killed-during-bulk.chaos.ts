import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createCompanyWithKey } from '../../src/accounts/companies/companies.ts';
import { type ApiProcess, startApiProcess } from '../support/api-process.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

const ITEMS = 10_000;

describe('the API is killed during a bulk provision sent with an Idempotency-Key', () => {
  let db: TestDatabase;
  let api: ApiProcess | undefined;
  let key: string;
  const env = () => ({ DATABASE_URL: db.url, RATE_LIMIT_PER_MINUTE: '0' });
  const bulk = (url: string, idempotencyKey: string, orderId: string) =>
    fetch(`${url}/v1/erp/provision/bulk`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'x-service-env': 'test',
        'content-type': 'application/json',
        'idempotency-key': idempotencyKey,
      },
      body: JSON.stringify({
        items: Array.from({ length: ITEMS }, (_, i) => ({
          erp_metadata: { material_number: `MAT-${i}`, order_id: orderId },
        })),
      }),
    });
  const twins = async (orderId: string) =>
    (
      await db.orm.em
        .fork()
        .execute<{ n: number }[]>('select count(*)::int as n from asset_twins where order_id = ?', [orderId])
    )[0]!.n;

  beforeAll(async () => {
    db = await createTestDatabase();
    key = (await createCompanyWithKey(db.orm.em.fork(), { name: 'Acme', environment: 'test' })).apiKey.key;
  });
  afterAll(async () => {
    await api?.stop();
    await db.drop();
  });

  test('at any moment of the request, the same call again leaves exactly one set of twins', async () => {
    // Killed before the statement, during it, around its commit and after the answer: every moment counts.
    for (const [round, killAfterMs] of [0, 60, 120, 150, 180, 210, 250, 400].entries()) {
      const orderId = `PO-KILL-${round}`;
      const idempotencyKey = `bulk-kill-${round}`;
      api = await startApiProcess(env());
      const first = bulk(api.url, idempotencyKey, orderId).then(
        (answer) => answer.status,
        () => 'cut off' as const,
      );
      await new Promise((resolve) => setTimeout(resolve, killAfterMs));
      await api.kill();
      const firstOutcome = await first;
      assert.ok(firstOutcome === 'cut off' || firstOutcome === 201, `first call: ${firstOutcome}`);

      api = await startApiProcess(env());
      const again = await bulk(api.url, idempotencyKey, orderId);
      assert.equal(again.status, 201, await again.clone().text());
      const body = (await again.json()) as { count: number; items: { service_internal_id: string }[] };
      assert.equal(body.count, ITEMS);
      assert.equal(await twins(orderId), ITEMS, `round ${round} (killed after ${killAfterMs} ms): one set`);
      const ids = await db.orm.em
        .fork()
        .execute<{ service_internal_id: string }[]>(
          'select service_internal_id from asset_twins where order_id = ? order by id',
          [orderId],
        );
      assert.deepEqual(
        new Set(ids.map((r) => r.service_internal_id)),
        new Set(body.items.map((i) => i.service_internal_id)),
        'the answer names the twins that exist',
      );
      await api.stop();
      api = undefined;
    }
  });
});
