import { newServiceInternalId } from '../src/passport/record/service-id.ts';
import { startTestApi } from '../test/support/api.ts';
import { sized } from './quick.ts';
import { atLeast, recordFigure } from './report/figures.ts';
import { rate, report } from './setup.ts';

const ITEMS = sized(10_000, 500);
const ROUNDS = sized(5, 1);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Bulk provisioning of 10,000 twins through HTTP (validation, idempotency key, one INSERT … SELECT, JSON
 * answer) against a raw multi-row INSERT … VALUES of the same rows, and against the endpoint's own statement
 * sent raw, on the same database, median of 5 each.
 */
export async function benchProvision(): Promise<void> {
  const api = await startTestApi();
  try {
    const tenant = await api.createTenant('Bench');
    const items = Array.from({ length: ITEMS }, (_, i) => ({
      erp_metadata: { material_number: `MAT-${String(i).padStart(6, '0')}`, order_id: `PO-${i % 97}` },
    }));
    const connection = api.db.orm.em.fork().getConnection();
    const placeholders = items.map(() => `(?, 'test', ?, 'INACTIVE', ?, ?)`).join(', ');
    const httpMs: number[] = [];
    const rawMs: number[] = [];
    const jsonMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const rawStarted = performance.now();
      const params = items.flatMap((item) => [
        tenant.companyId,
        newServiceInternalId(),
        item.erp_metadata.material_number,
        item.erp_metadata.order_id,
      ]);
      await connection.execute(
        `insert into asset_twins (company_id, environment, service_internal_id, status, material_number, order_id)
         values ${placeholders}`,
        params,
        'run',
      );
      rawMs.push(performance.now() - rawStarted);

      const jsonStarted = performance.now();
      const rows = items.map((item) => [
        newServiceInternalId(),
        item.erp_metadata.material_number,
        item.erp_metadata.order_id,
      ]);
      await connection.execute(
        `insert into asset_twins (company_id, environment, service_internal_id, status, material_number, order_id)
         select ?, 'test', r->>0, 'INACTIVE', r->>1, r->>2 from jsonb_array_elements(?::jsonb) as r`,
        [tenant.companyId, JSON.stringify(rows)],
        'run',
      );
      jsonMs.push(performance.now() - jsonStarted);

      const started = performance.now();
      const res = await api.call('POST', '/v1/erp/provision/bulk', {
        key: tenant.testKey,
        body: { items },
        headers: { 'idempotency-key': `bench-${round}` },
      });
      if (res.status !== 201 || res.body.count !== ITEMS) throw new Error(`bulk failed: ${res.status}`);
      httpMs.push(performance.now() - started);
    }
    const http = rate(ITEMS, median(httpMs));
    const raw = rate(ITEMS, median(rawMs));
    recordFigure({
      bench: 'provision',
      name: `bulk provision over HTTP ÷ raw multi-row INSERT (${ITEMS} items)`,
      ours: http,
      baseline: raw,
      unit: 'items/s',
      ...atLeast(0.8),
    });
    report(`provision: bulk of ${ITEMS} items, median of ${ROUNDS}`, {
      'raw multi-row INSERT rows/s (baseline)': raw,
      'raw INSERT … SELECT jsonb rows/s (ours, raw)': rate(ITEMS, median(jsonMs)),
      'HTTP bulk provision items/s': http,
      'HTTP bulk call ms': median(httpMs),
      'raw INSERT ms': median(rawMs),
      'ratio HTTP / raw multi-row INSERT': http / raw,
      'ratio HTTP / raw INSERT … SELECT jsonb': http / rate(ITEMS, median(jsonMs)),
    });
  } finally {
    await api.close();
  }
}
