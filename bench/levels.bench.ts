import assert from 'node:assert/strict';
import { BATTERY_DATA, contentPath, BATTERY_V1 as V1 } from '../test/support/fixtures/battery.ts';
import { enrollAndMint } from '../test/support/fixtures/mint.ts';
import { GTIN, OTHER_GTIN } from '../test/support/fixtures/products.ts';
import { startTestStack } from '../test/support/stack.ts';
import { scaledSizes, seedVolume } from '../test/support/volume-seed.ts';
import { sized } from './quick.ts';
import { atMost, recordFigure } from './report/figures.ts';
import { report } from './setup.ts';

const ITEMS = Number(process.env.BENCH_LEVEL_ITEMS ?? sized(1_000_000, 2_000));
const MODELS = Number(process.env.BENCH_LEVEL_MODELS ?? sized(1_000, 10));
const READS = Number(process.env.BENCH_LEVEL_REQUESTS ?? sized(60, 5));
const TARGET = 2;
const LOT = 'L1';

const p50 = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

/**
 * Issue 34: an item's merged view (model ← batch ← item) among ITEMS items under MODELS models (each with a
 * batch) against one item of the same company with no model, the same reads alternating in one run; p50 of each
 * and their ratio (target ≤ 2). Seeded with INSERT … SELECT generate_series (the volume seed, then the items'
 * GTIN and batch number set in one UPDATE); the two measured items are minted through the API.
 */
export async function benchLevels(): Promise<void> {
  const stack = await startTestStack({
    dispatcher: false,
    apiEnv: { RATE_LIMIT_PER_MINUTE: '0', PUBLIC_RATE_LIMIT_PER_MINUTE: '0' },
  });
  try {
    const conn = stack.api.db.orm.em.getConnection();
    const tenant = await stack.api.createTenant('Level Brand');
    const key = tenant.testKey;
    const call = (method: string, path: string, body?: unknown) =>
      stack.api.call(method, path, { key, ...(body === undefined ? {} : { body }) });
    const dppIdOf = async (token: string, gtin: string) =>
      (await stack.api.call('GET', `/test/01/${gtin}/21/${token}?format=public`, { env: null })).body
        .dppHeader.digitalProductPassportId as string;

    // Every 10th seeded chip has no passport, hence ITEMS / 0.9 chips below.
    // The measured item under its model and batch (the levels hold the data, the item writes nothing).
    const model = await call('POST', '/v1/dpps', { granularity: 'Model', gtin: GTIN, [V1]: BATTERY_DATA });
    assert.equal(model.status, 201, model.text);
    const batch = await call('POST', '/v1/dpps', {
      granularity: 'Batch',
      gtin: GTIN,
      lot: LOT,
      [V1]: { generalProductInformation: { warrantyPeriod: 'P10Y' } },
    });
    assert.equal(batch.status, 201, batch.text);
    const merged = await dppIdOf(await enrollAndMint(call, '04BB000000000A', { batch_number: LOT }), GTIN);
    // The baseline: an item of another GTIN (no model), its data its own.
    const plainToken = await enrollAndMint(call, '04BB000000000B', { gtin: OTHER_GTIN });
    const plainId = await dppIdOf(plainToken, OTHER_GTIN);
    assert.equal((await call('PUT', contentPath(plainId), BATTERY_DATA)).status, 201);

    const started = performance.now();
    console.log(`\nlevels: seeding ${ITEMS} items under ${MODELS} models, each with a batch`);
    const sizes = {
      ...scaledSizes(ITEMS / 900_000),
      events: 1_000,
      deliveries: 1_000,
      resales: 10,
      users: 5,
    };
    await seedVolume(
      stack.api.db.orm.em.fork(),
      { companyId: tenant.companyId, environment: 'test' },
      sizes,
      'lv',
      console.log,
    );
    const gtinOf = (expr: string) => `lpad(((${expr}) % ${MODELS - 1} + 1)::text, 14, '0')`;
    await conn.execute(
      `insert into dpp_levels (company_id, environment, granularity, gtin, lot, service_uid)
       select ?, 'test', kind, ${gtinOf('i')}, case kind when 'batch' then '${LOT}' end, gen_random_uuid()
       from generate_series(1, ?) i cross join (values ('model'), ('batch')) k(kind)`,
      [tenant.companyId, MODELS - 1],
    );
    await conn.execute(
      `insert into dpp_level_content (level_id, spec_group, specification_id, data)
       select id, 'battery', ?, ?::jsonb from dpp_levels where company_id = ? and gtin <> ?`,
      [V1, JSON.stringify(BATTERY_DATA), tenant.companyId, GTIN],
    );
    await conn.execute(
      `update passports set gtin = ${gtinOf('id')},
         metadata_cache = '{"custom_dpp_data": {"batch_number": "${LOT}"}}'::jsonb
       where company_id = ? and gtin is null`,
      [tenant.companyId],
    );
    await conn.execute('analyze');
    const [counts] = await conn.execute<{ items: string; levels: string }[]>(
      `select (select count(*) from passports where company_id = ?) as items,
              (select count(*) from dpp_levels where company_id = ?) as levels`,
      [tenant.companyId, tenant.companyId],
    );
    console.log(
      `  ${counts!.items} items, ${counts!.levels} levels; seeding took ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );

    const dpp = (id: string) => `/v1/dpps/${encodeURIComponent(id)}`;
    const reads: [string, (id: string) => string][] = [
      ['GET /v1/dpps/{dppId}', dpp],
      ['GET …/content/{specId}', (id) => contentPath(id)],
    ];
    const rows: Record<string, string> = {};
    let worst = 0;
    for (const [name, path] of reads) {
      const times = { merged: [] as number[], plain: [] as number[] };
      for (let i = -3; i < READS; i++) {
        for (const side of i % 2 === 0 ? (['merged', 'plain'] as const) : (['plain', 'merged'] as const)) {
          const at = performance.now();
          const res = await stack.api.call('GET', path(side === 'merged' ? merged : plainId), { key: null });
          const ms = performance.now() - at;
          assert.equal(res.status, 200, `${name} (${side}): ${res.text.slice(0, 200)}`);
          if (side === 'merged' && i === -3)
            assert.ok(res.text.includes('P10Y'), 'the batch’s value is merged');
          if (i >= 0) times[side].push(ms);
        }
      }
      const ratio = p50(times.merged) / p50(times.plain);
      worst = Math.max(worst, ratio);
      rows[name] = `${p50(times.plain).toFixed(1)}  ${p50(times.merged).toFixed(1)}  ${ratio.toFixed(2)}`;
      console.log(`  ${name.padEnd(28)} ${rows[name]}`);
    }
    recordFigure({
      bench: 'levels',
      name: `an item's merged view ÷ an item without levels, worst p50 (${counts!.items} items)`,
      ours: worst,
      baseline: 1,
      unit: 'ratio of p50s',
      ratio: worst,
      ...atMost(TARGET),
    });
    report(
      `levels: an item under a model and batch among ${counts!.items} items and ${counts!.levels} levels vs an ` +
        `item with no model; ${READS} public reads each; plain p50 ms, merged p50 ms, ratio`,
      {
        ...rows,
        [`worst ratio (target ≤ ${TARGET})`]: worst.toFixed(2),
        'meets target': worst <= TARGET ? 'yes' : 'NO',
      },
    );
  } finally {
    await stack.close();
  }
}
