import assert from 'node:assert/strict';
import { afterAll, beforeAll, test } from 'vitest';
import { OUTBOX_LAG } from '../../src/platform/observability/metrics-endpoint.ts';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';
import { parseExposition, sampleValue } from '../support/prometheus-text.ts';

const DISPATCHED = 200_000;

let api: TestApi;
let tenant: TestTenant;

beforeAll(async () => {
  api = await startTestApi();
  tenant = await api.createTenant();
  const conn = api.db.orm.em.getConnection();
  await conn.execute(
    `insert into outbox_events (id, company_id, environment, event_type, data, occurred_at, recorded_at, dispatched_at)
     select gen_random_uuid(), ?, 'test', 'asset.minted', '{}', now() - interval '1 hour', now() - interval '1 hour', now()
     from generate_series(1, ?)`,
    [tenant.companyId, DISPATCHED],
  );
  await conn.execute(
    `insert into outbox_events (id, company_id, environment, event_type, data, occurred_at, recorded_at)
     select gen_random_uuid(), ?, 'test', 'asset.minted', '{}', now() - interval '2 minutes', now() - interval '90 seconds' + interval '1 second' * i
     from generate_series(0, 2) i`,
    [tenant.companyId],
  );
  await conn.execute('analyze outbox_events');
}, 300_000);
afterAll(() => api?.close());

test('the outbox lag gauge: the age of the oldest waiting event, read from the pending events only', async () => {
  const scraped = parseExposition(await (await fetch(`${api.baseUrl}/metrics`)).text());
  const lag = sampleValue(scraped, 'dpp_outbox_lag_seconds')!;
  assert.ok(lag >= 90 && lag < 120, `lag ${lag}`);
  assert.equal(sampleValue(scraped, 'dpp_outbox_pending_events'), 3);

  const [explained] = await api.db.orm.em
    .getConnection()
    .execute<{ 'QUERY PLAN': [{ Plan: Record<string, unknown> }] }[]>(
      `explain (analyze, format json) ${OUTBOX_LAG}`,
    );
  const nodes: Record<string, unknown>[] = [];
  const walk = (node: Record<string, unknown>) => {
    nodes.push(node);
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  walk(explained!['QUERY PLAN'][0].Plan);
  const scans = nodes.filter((n) => n['Relation Name'] === 'outbox_events');
  assert.ok(scans.length > 0);
  for (const scan of scans) {
    assert.notEqual(scan['Node Type'], 'Seq Scan', JSON.stringify(scan));
    assert.ok(
      (scan['Actual Rows'] as number) * (scan['Actual Loops'] as number) <= 10,
      `reads ${scan['Actual Rows']} rows of ${DISPATCHED + 3}`,
    );
  }
});

test('open chain transactions by chain and state, and the oldest one’s age, read from the transaction manager’s table', async () => {
  const conn = api.db.orm.em.getConnection();
  const row = (nonce: number, state: string, age: string) =>
    conn.execute(
      `insert into chain_transactions (chain_id, signer, nonce, operation_keys, method, to_address, data, gas_limit,
         max_fee_per_gas, max_priority_fee_per_gas, raw, tx_hash, tx_hashes, state, confirmations_required, created_at)
       values (31337, '0x00000000000000000000000000000000000000a1', ?, array['op:' || ?::text], 'mint',
         '0x00000000000000000000000000000000000000b2', '0x', 100000, 1, 1, '0x', '0x' || lpad(?::text, 64, '0'),
         array['0x' || lpad(?::text, 64, '0')], ?, 2, now() - ?::interval)`,
      [nonce, nonce, nonce, nonce, state, age],
    );
  await row(1, 'confirmed', '10 minutes');
  await row(2, 'sent', '45 seconds');
  await row(3, 'sent', '5 seconds');
  await row(4, 'mined', '1 second');
  const scraped = parseExposition(await (await fetch(`${api.baseUrl}/metrics`)).text());
  assert.equal(sampleValue(scraped, 'dpp_chain_transactions_open', { chain_id: '31337', state: 'sent' }), 2);
  assert.equal(sampleValue(scraped, 'dpp_chain_transactions_open', { chain_id: '31337', state: 'mined' }), 1);
  assert.equal(sampleValue(scraped, 'dpp_chain_transactions_open', { state: 'confirmed' }), undefined);
  const oldest = sampleValue(scraped, 'dpp_chain_oldest_open_transaction_seconds', { chain_id: '31337' })!;
  assert.ok(oldest >= 45 && oldest < 120, `oldest ${oldest}`);
});
