import type { EntityManager } from '@mikro-orm/postgresql';

/** How many rows of each kind one company gets (issue 26's sizes are `VOLUME_SIZES`). */
export interface VolumeSizes {
  passports: number;
  events: number;
  deliveries: number;
  resales: number;
  users: number;
  apiKeys: number;
}

export const VOLUME_SIZES: VolumeSizes = {
  passports: 1_000_000,
  events: 10_000_000,
  deliveries: 1_000_000,
  resales: 100_000,
  users: 100_000,
  apiKeys: 1_000,
};

export function scaledSizes(scale: number, base: VolumeSizes = VOLUME_SIZES): VolumeSizes {
  const of = (n: number) => Math.max(1, Math.round(n * scale));
  return {
    passports: of(base.passports),
    events: of(base.events),
    deliveries: of(base.deliveries),
    resales: of(base.resales),
    users: of(base.users),
    apiKeys: of(base.apiKeys),
  };
}

/** Token ids of the seeded passports start here (far above the ids a mint hands out). */
export const VOLUME_TOKEN_BASE = 1_000_000_000_000;

export interface SeededVolume {
  endpointId: string;
  /** Token ids of the first, a middle and the last seeded passport. */
  tokens: string[];
  /** Inventory cursors (chip ids) before the middle and the last page. */
  middleCursor: number;
  lastCursor: number;
}

/**
 * Adds `sizes` rows of chips (each with a bound twin and, but for every 10th, a passport), supply-chain
 * events spread over the passports, webhook deliveries of one endpoint (every 20th dead-lettered), resales
 * and users to one company and environment, through INSERT … SELECT generate_series (never the API), then
 * ANALYZEs the tables. `tag` (two letters) and `tokenBase`, distinct per call, keep unique columns apart.
 */
export async function seedVolume(
  em: EntityManager,
  scope: { companyId: string; environment: 'live' | 'test' },
  sizes: VolumeSizes,
  tag: string,
  log: (line: string) => void = () => {},
  tokenBase: number = VOLUME_TOKEN_BASE,
): Promise<SeededVolume> {
  const conn = em.getConnection();
  const c = scope.companyId;
  const env = scope.environment;
  const n = sizes.passports;
  const step = async (label: string, sql: string, params: unknown[] = []) => {
    const started = performance.now();
    await conn.execute(sql, params);
    log(`  seeded ${label} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  const [contract] = await conn.execute<{ contract_address: string }[]>(
    'select contract_address from passports order by id limit 1',
  );
  const contractAddress = contract?.contract_address ?? `0x${'ab'.repeat(20)}`;
  const uidPrefix = tag.toUpperCase().padEnd(2, '0').slice(0, 2);
  const uid = (expr: string) => `'${uidPrefix}' || lpad(upper(to_hex(${expr})), 12, '0')`;
  const token = (expr: string) => `(${tokenBase} + ${expr})::text`;

  await step(
    `${n} chips`,
    `insert into chips (company_id, environment, chip_uid, product_id, status, created_at)
     select ?, ?, ${uid('i')}, 'SKU-' || (i % 500), 'ACTIVE', now() - interval '1 second' * (? - i)
     from generate_series(1, ?) i`,
    [c, env, n, n],
  );
  await step(
    `${n} twins`,
    `insert into asset_twins (company_id, environment, service_internal_id, status, material_number, chip_uid, bound_at)
     select ?, ?, '${tag}' || i, 'ACTIVE', 'MAT-' || (i % 100), ${uid('i')}, now()
     from generate_series(1, ?) i`,
    [c, env, n],
  );
  await step(
    `${n - Math.floor(n / 10)} passports`,
    `insert into passports (company_id, environment, token_id, chip_id, chip_uid, product_id, owner_wallet, material,
       metadata_url, service_uid, transaction_hash, mint_block, mint_timestamp, locked_deposit_wei, metadata_cache,
       contract_address, status, created_at)
     select ch.company_id, ch.environment, ${token('g.i')}, ch.id, ch.chip_uid, ch.product_id,
       '0x${'11'.repeat(20)}', 'Cotton', 'ipfs://volume', gen_random_uuid(), '0x' || md5(ch.chip_uid) || md5(ch.chip_uid),
       g.i, ch.created_at, 1000, '{}', ?, 'ACTIVE', ch.created_at
     from generate_series(1, ?) g(i)
     join chips ch on ch.environment = ? and ch.chip_uid = ${uid('g.i')}
     where g.i % 10 <> 0`,
    [contractAddress, n, env],
  );
  await step(
    'usage reports of every 3rd passport',
    `insert into usage_reports (passport_id, meter_event_identifier)
     select p.id, 'dpp-mint-' || p.environment || '-' || p.token_id from passports p
     where p.company_id = ? and p.environment = ? and p.id % 3 = 0`,
    [c, env],
  );
  await step(
    `${sizes.events} supply-chain events`,
    `insert into supply_chain_events (company_id, environment, token_id, action, actor, location_name, metadata, timestamp)
     select ?, ?, ${token(`(1 + (i % ${n}))`)}, 'SHIPPED', 'Warehouse', 'Porto', '{}', now()
     from generate_series(1, ?) i
     where (1 + (i % ${n})) % 10 <> 0`,
    [c, env, sizes.events],
  );
  const endpointId = (
    await conn.execute<{ id: string }[]>(
      `insert into webhook_endpoints (id, company_id, environment, url, event_types, secret)
       values (gen_random_uuid(), ?, ?, 'https://hooks.example/volume', '[]', '\\x00') returning id`,
      [c, env],
    )
  )[0]!.id;
  await step(
    `${sizes.deliveries} outbox events`,
    `insert into outbox_events (id, company_id, environment, event_type, data, occurred_at, dispatched_at)
     select gen_random_uuid(), ?, ?, 'passport.minted', '{}', now() - interval '1 second' * (? - i), now()
     from generate_series(1, ?) i`,
    [c, env, sizes.deliveries, sizes.deliveries],
  );
  await step(
    `${sizes.deliveries} webhook deliveries`,
    `insert into webhook_deliveries (id, company_id, environment, event_id, endpoint_id, event_type, status,
       attempt_count, succeeded_at, dead_lettered_at, created_at)
     select gen_random_uuid(), o.company_id, o.environment, o.id, ?, o.event_type,
       case when row_number() over () % 20 = 0 then 'dead' else 'succeeded' end, 1,
       case when row_number() over () % 20 = 0 then null else o.occurred_at end,
       case when row_number() over () % 20 = 0 then o.occurred_at end, o.occurred_at
     from outbox_events o where o.company_id = ? and o.environment = ?`,
    [endpointId, c, env],
  );
  await step(
    `${sizes.deliveries} webhook attempts`,
    `insert into webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code)
     select d.id, 1, d.created_at, 120, case when d.status = 'dead' then 500 else 200 end
     from webhook_deliveries d where d.company_id = ? and d.environment = ?`,
    [c, env],
  );
  await step(
    `${sizes.resales} resales`,
    `insert into resales (id, company_id, environment, token_id, seller_kind, seller_ref, seller_wallet, buyer_email,
       buyer_wallet, amount, currency, status, created_at)
     select gen_random_uuid(), ?, ?, ${token(`(1 + (i % ${n}))`)}, 'company', ?, '0x${'11'.repeat(20)}',
       'buyer' || i || '@example.com', '0x${'22'.repeat(20)}', 5000, 'eur', 'COMPLETED',
       now() - interval '1 second' * (? - i)
     from generate_series(1, ?) i where (1 + (i % ${n})) % 10 <> 0`,
    [c, env, c, sizes.resales, sizes.resales],
  );
  await step(
    `${sizes.users} users`,
    `insert into users (company_id, email) select ?, '${tag}-user' || i || '@example.com' from generate_series(1, ?) i`,
    [c, sizes.users],
  );
  await step(
    `${sizes.apiKeys} revoked API keys`,
    `insert into api_keys (id, company_id, environment, name, prefix, lookup_id, secret_hash, revoked_at)
     select gen_random_uuid(), ?, ?, 'old key ' || i, 'dpp_test_', '${tag}' || i, repeat('0', 64), now()
     from generate_series(1, ?) i`,
    [c, env, sizes.apiKeys],
  );
  // The platform's other brands: a month of hourly usage counts of ten companies over their eight slots each
  // (Migration20261128600000_usage_count_slots), so usage_counts has the size it has in production, not only
  // this company's few hours (the meter's plan is judged at volume: test/integration/query-plans.test.ts).
  await step(
    'hourly usage counts of 10 other companies',
    `with others as (
       insert into companies (id, name) select gen_random_uuid(), '${tag}-other ' || i from generate_series(1, 10) i
       returning id
     )
     insert into usage_counts (company_id, environment, hour, slot, mints)
     select o.id, ?, date_bin('1 hour', now(), timestamptz '2000-01-01 00:00:00+00') - interval '1 hour' * h, s, 3
     from others o, generate_series(0, 719) h, generate_series(0, 7) s`,
    [env],
  );
  await step(
    'analyze',
    'analyze chips, asset_twins, passports, supply_chain_events, outbox_events, webhook_deliveries, webhook_attempts, resales, usage_reports, usage_counts, users, api_keys',
  );
  // One statement counted every seeded mint on the same few hourly rows: clear their dead versions, as
  // autovacuum would between a brand's many small mint transactions.
  await step('vacuum usage_counts', 'vacuum analyze usage_counts');
  const cursors = await conn.execute<{ middle: number; last: number }[]>(
    `select (select id from chips where company_id = ? and environment = ? order by id offset ? limit 1) as middle,
       (select id from chips where company_id = ? and environment = ? order by id desc offset 50 limit 1) as last`,
    [c, env, Math.floor(n / 2), c, env],
  );
  const tokenOf = (i: number) => String(tokenBase + (i % 10 === 0 ? i + 1 : i));
  return {
    endpointId,
    tokens: [tokenOf(1), tokenOf(Math.floor(n / 2)), tokenOf(n - 1)],
    middleCursor: Number(cursors[0]!.middle),
    lastCursor: Number(cursors[0]!.last),
  };
}
