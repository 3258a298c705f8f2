import assert from 'node:assert/strict';
import { afterAll, beforeAll, test } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
}, 60_000);
afterAll(() => db?.drop());

test('the reorg reconciler finds passports and events by transaction hash through an index, not a scan', async () => {
  const plans = await db.orm.em.fork().transactional(async (tx) => {
    // With sequential scans priced out, the planner takes an index whenever one can serve the filter.
    await tx.execute('set local enable_seqscan = off');
    const plan = async (table: string) =>
      (
        await tx.execute<{ 'QUERY PLAN': string }[]>(
          `explain select id from ${table} where transaction_hash = any(array['0x01', '0x02'])`,
        )
      )
        .map((row) => row['QUERY PLAN'])
        .join('\n');
    return { passports: await plan('passports'), events: await plan('supply_chain_events') };
  });
  assert.match(plans.passports, /passports_transaction_hash_idx/);
  assert.match(plans.events, /supply_chain_events_transaction_hash_idx/);
}, 60_000);
