import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { mintLedger } from '../support/chain-ledger.ts';
import { enrollChips, mintThroughApi, sleep, waitUntil } from '../support/chain-load.ts';
import type { RealisticChain } from '../support/realistic-chain.ts';
import type { TestStack } from '../support/stack.ts';
import type { WorkerProcess } from '../support/worker-process.ts';
import {
  assertMintedExactlyOnce,
  assertSignerNoncesClean,
  ledgerSource,
  startChainScenario,
  stopWorkerForTotals,
} from './support/chain-chaos.ts';

const MINTS = 50;
const chipOf = (i: number) => `04CA${i.toString(16).toUpperCase().padStart(10, '0')}`;

describe('a reorg of depth 3 during 50 mints on a chain with 2 s blocks (CHAIN_CONFIRMATIONS=2)', () => {
  let chain: RealisticChain;
  let stack: TestStack;
  let tenant: TestTenant;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    ({ chain, stack, tenant, worker } = await startChainScenario('Acme Apparel'));
  });
  afterAll(async () => {
    await worker?.stop();
    await stack?.close();
  });

  test('the reorg takes back recorded passports; each mint ends exactly once on the canonical chain and in the database', async () => {
    const call = (method: string, path: string, body?: unknown) =>
      stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
    const chips = Array.from({ length: MINTS }, (_, i) => chipOf(i));
    await enrollChips(call, chips);
    const db = stack.api.db.orm.em.fork();

    // Five bursts of ten, one per block.
    const outcomes: ReturnType<typeof mintThroughApi>[] = [];
    const sending = (async () => {
      for (let first = 0; first < MINTS; first += 10) {
        for (const chipUid of chips.slice(first, first + 10)) outcomes.push(mintThroughApi(call, chipUid));
        await sleep(2_000);
      }
    })();

    // Once passports are recorded from transactions in the last blocks (confirmed: 2 blocks deep), those blocks
    // are replaced by empty ones.
    let recordedThen: string[] = [];
    await waitUntil(
      async () => {
        const head = await chain.head();
        const rows = await db.execute<{ transaction_hash: string }[]>(
          'select transaction_hash from passports where mint_block >= ?',
          [head - 1],
        );
        recordedThen = rows.map((row) => row.transaction_hash.toLowerCase());
        return recordedThen.length > 0;
      },
      60_000,
      'passports recorded from the last two blocks',
    );
    const removed = (await chain.reorg(3)).map((hash) => hash.toLowerCase());
    const takenBack = recordedThen.filter((hash) => removed.includes(hash));
    assert.ok(takenBack.length > 0, 'the reorg removed transactions of passports already in the database');

    await sending;
    const results = await Promise.all(outcomes);
    const failed = results.filter((result) => !result.ok);
    assert.deepEqual(failed, [], 'every mint completed');

    // Nothing of the signer left in the node; then the database agrees with the canonical chain.
    const signer = chain.platform.address;
    await waitUntil(async () => (await chain.pendingOf(signer)).length === 0, 60_000, 'mempool empty');
    const source = ledgerSource(stack, chain);
    let ledger = await mintLedger(source, chips);
    await waitUntil(
      async () => {
        ledger = await mintLedger(source, chips);
        return ledger.reorgedOutLeft === 0 && ledger.mintEventsOff === 0 && ledger.recorded === MINTS;
      },
      45_000,
      'records reconciled with the canonical chain',
    ).catch(() => {});
    assertMintedExactlyOnce(ledger, MINTS);
    // The count can fail: a passport left naming the block its mint was in before a reorg is seen.
    await db.execute('update passports set mint_block = mint_block - 1 where chip_uid = ?', [chips[0]]);
    const stale = await mintLedger(source, chips);
    assert.deepEqual([stale.recorded, stale.reorgedOutLeft], [MINTS - 1, 1], 'a stale record is counted');
    await db.execute('update passports set mint_block = mint_block + 1 where chip_uid = ?', [chips[0]]);
    await assertSignerNoncesClean(source, signer);

    const totals = await stopWorkerForTotals(worker!);
    worker = undefined;
    assert.ok(Number(totals.reorgs) > 0, 'the worker saw the reorg');
  });
});
