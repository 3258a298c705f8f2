import type { Connection } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../src/platform/db/tenant-scope.ts';

/** Model and batch passports (set in beforeAll): half models (one per GTIN), half batches of 100 GTINs. */
const LEVELS = 20_000;
export const BATCHED_GTIN = '00000000000007';
/** Counterfeit signals, one per chip (set in beforeAll); every 10th still open, the rest resolved. */
const SIGNALS = 100_000;

/** Model and batch passports, and a signal per chip (newest first by raised_at), for the big company. */
export async function seedLevelsAndSignals(
  conn: Connection,
  big: TenantScope,
): Promise<{ levelId: number; signalCursor: string }> {
  // Created over time as a brand works: models and batches interleaved (every other row a batch).
  await conn.execute(
    `insert into dpp_levels (company_id, environment, granularity, gtin, lot, service_uid)
     select ?::uuid, ?, case when i % 2 = 0 then 'model' else 'batch' end,
            case when i % 2 = 0 then lpad((i / 2)::text, 14, '0') else lpad((i / 2 % 100 + 1)::text, 14, '0') end,
            case when i % 2 = 0 then null else 'LOT-' || i end, gen_random_uuid()
       from generate_series(1, ?) i order by i`,
    [big.companyId, big.environment, LEVELS],
  );
  await conn.execute(
    `insert into chip_signals (company_id, environment, chip_id, chip_uid, token_id, type, severity, occurrence,
       evidence, raised_at, updated_at, resolved_at, resolved_by)
     select c.company_id, c.environment, c.id, c.chip_uid, p.token_id, 'counter_jump', 'medium', '1',
            '{}'::jsonb, now() - make_interval(secs => c.id), now(),
            case when c.id % 10 <> 0 then now() end, case when c.id % 10 <> 0 then 'staff@example.com' end
       from chips c left join passports p on p.environment = c.environment and p.chip_uid = c.chip_uid
      where c.company_id = ? and c.environment = ?
      order by c.id limit ?`,
    [big.companyId, big.environment, SIGNALS],
  );
  await conn.execute('vacuum analyze dpp_levels, chip_signals');
  const [level] = await conn.execute<{ id: number }[]>(
    `select id from dpp_levels where company_id = ? and granularity = 'batch' order by id offset ? limit 1`,
    [big.companyId, LEVELS / 4],
  );
  const [signal] = await conn.execute<{ raised_at: Date; id: string }[]>(
    `select raised_at, id from chip_signals where company_id = ? and resolved_at is null
      order by raised_at desc, id desc offset ? limit 1`,
    [big.companyId, SIGNALS / 20],
  );
  // A middle page's cursors: a batch's in the middle of the levels, an open signal's in the middle of those.
  return { levelId: level!.id, signalCursor: `${new Date(signal!.raised_at).toISOString()}|${signal!.id}` };
}
