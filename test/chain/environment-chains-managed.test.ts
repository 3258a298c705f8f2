import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, test } from 'vitest';
import { openPassportChains } from '../../src/adapters/chain/environment-chains.ts';
import { listChainTransactions } from '../../src/adapters/chain/transaction-report.ts';
import { loadConfig } from '../../src/platform/config/config.ts';
import { metricsRegistry } from '../../src/platform/observability/metrics.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

let db: TestDatabase;
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'dpp-managed-chains-'));
  dirs.push(dir);
  return dir;
};
beforeAll(async () => {
  db = await createTestDatabase();
}, 60_000);
afterAll(async () => {
  await db?.drop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test('openPassportChains with the database: both environments write through the transaction manager, also after the local chain was replaced', async () => {
  const owner = '0x000000000000000000000000000000000000dEaD';
  const mintOn = async (dataDir: string, chip: string) => {
    const chains = await openPassportChains(loadConfig({}), { dataDir, orm: db.orm });
    try {
      assert.ok(chains.live.transactions && chains.test.transactions);
      const live = await chains.live.writer.mint({ to: owner, metadataUri: 'ipfs://live', chipUid: chip });
      const test = await chains.test.writer.mint({ to: owner, metadataUri: 'ipfs://test', chipUid: chip });
      return { live, test };
    } finally {
      await chains.close();
    }
  };
  const first = await mintOn(tempDir(), '04EE0000000001');
  const recorded = await listChainTransactions(db.orm);
  assert.deepEqual(
    recorded.map((row) => [row.txHash, row.state]).sort(),
    [
      [first.live.txHash, 'confirmed'],
      [first.test.txHash, 'confirmed'],
    ].sort(),
  );
  assert.notEqual(recorded[0]!.signer, recorded[1]!.signer, 'one signer per environment');

  // A new data directory: a fresh local chain (same chain id), the same database. Anvil's genesis block carries
  // its start second: a second later, another genesis hash.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const second = await mintOn(tempDir(), '04EE0000000002');
  assert.equal(second.live.tokenId, '1');
  const after = await listChainTransactions(db.orm);
  const state = (hash: string) => after.find((row) => row.txHash === hash)?.state;
  assert.equal(state(first.live.txHash), 'abandoned');
  assert.equal(state(first.test.txHash), 'abandoned');
  assert.equal(state(second.live.txHash), 'confirmed');
  assert.equal(state(second.test.txHash), 'confirmed');

  // What the managers reported reaches /metrics.
  const exposition = await metricsRegistry.metrics();
  const value = (series: string) =>
    Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(exposition)?.[1] ?? 0);
  for (const environment of ['live', 'test']) {
    assert.equal(
      value(`dpp_chain_transactions_total{environment="${environment}",state="confirmed"}`),
      2,
      environment,
    );
    assert.equal(
      value(`dpp_chain_transactions_total{environment="${environment}",state="abandoned"}`),
      1,
      environment,
    );
    assert.equal(value(`dpp_chain_confirmation_seconds_count{environment="${environment}"}`), 2, environment);
  }
}, 120_000);
