import assert from 'node:assert/strict';
import { afterAll, beforeAll, test } from 'vitest';
import type { PassportChain } from '../../src/adapters/chain/passport-chain.ts';
import { type Orm, openOrm } from '../../src/platform/db/orm.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { type RealisticChain, startRealisticChain } from '../support/realistic-chain.ts';

let db: TestDatabase;
let secondPool: Orm;
let t: RealisticChain;

beforeAll(async () => {
  [db, t] = await Promise.all([createTestDatabase(), startRealisticChain({ blockTime: 1 })]);
  secondPool = await openOrm(db.url, 5);
}, 60_000);
afterAll(async () => {
  await t?.stop();
  await secondPool?.close();
  await db?.drop();
});

test('two worker processes watching the same reorged transactions count each reorg once between them, as chain_transactions does', async () => {
  // Two managers on two pools, both monitoring in the background: two worker processes of one signer.
  // Each process's observer feeds its /metrics (dpp_chain_transactions_total{state="reorged"}).
  const reorgEvents = [0, 0];
  const [a, b] = [db.orm, secondPool].map((orm, index) =>
    t.managed(orm, {
      confirmations: 2,
      pollIntervalMs: 100,
      transactions: {
        orm,
        observer: {
          event: (event) => {
            if (event === 'reorged') reorgEvents[index]!++;
          },
          confirmed: () => {},
        },
      },
    }),
  ) as [PassportChain, PassportChain];
  a.transactions!.start();
  b.transactions!.start();
  try {
    const minted = await Promise.all(
      [1, 2, 3, 4].map((tokenId) =>
        (tokenId % 2 === 0 ? a : b).writer.mint(
          {
            to: t.others[0]!.address,
            tokenId,
            metadataUri: `ipfs://totals-${tokenId}`,
            chipUid: `04AA0000000C0${tokenId}`,
          },
          { operationKey: `totals-${tokenId}` },
        ),
      ),
    );
    // Both monitors have seen them confirmed.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const removed = await t.reorg(3);
    // Transactions, not mints: a's two mints may share one mintBatch.
    const reorgedOut = new Set(minted.map((result) => result.txHash).filter((hash) => removed.includes(hash)))
      .size;
    assert.ok(reorgedOut > 0, 'the reorg took confirmed mints back');
    const deadline = Date.now() + 30_000;
    for (;;) {
      const rows = await a.transactions!.list();
      if (rows.filter((row) => row.reorgs > 0).every((row) => row.state === 'confirmed')) {
        if (rows.filter((row) => row.reorgs > 0).length === reorgedOut) break;
      }
      assert.ok(Date.now() < deadline, 'confirmed again in time');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const inTable = (await a.transactions!.list()).reduce((sum, row) => sum + row.reorgs, 0);
    assert.equal(inTable, reorgedOut, 'chain_transactions: one reorg per reorged transaction');
    assert.equal(
      a.transactions!.stats.reorgs + b.transactions!.stats.reorgs,
      inTable,
      'the processes’ totals (worker shutdown log) agree with chain_transactions',
    );
    assert.equal(reorgEvents[0]! + reorgEvents[1]!, inTable, 'the reorged metric counts each reorg once too');
  } finally {
    a.transactions!.stop();
    b.transactions!.stop();
  }
}, 90_000);
