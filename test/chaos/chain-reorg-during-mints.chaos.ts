import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { mintLedger, signerNonces } from '../support/chain-ledger.ts';
import { enrollChips, mintThroughApi, sleep, waitUntil } from '../support/chain-load.ts';
import { type RealisticChain, startRealisticChain } from '../support/realistic-chain.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.ts';

const MINTS = 50;
const chipOf = (i: number) => `04CA${i.toString(16).toUpperCase().padStart(10, '0')}`;

describe('a reorg of depth 3 during 50 mints on a chain with 2 s blocks (CHAIN_CONFIRMATIONS=2)', () => {
  let chain: RealisticChain;
  let stack: TestStack;
  let tenant: TestTenant;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    chain = await startRealisticChain({ blockTime: 2 });
    stack = await startTestStack({
      chain,
      startWorker: false,
      dispatcher: false,
      apiClient: 'native',
      mintWaitMs: 60_000,
      apiEnv: { RATE_LIMIT_PER_MINUTE: '0' },
    });
    tenant = await stack.api.createTenant('Acme Apparel');
    // The production worker process, over both RPC endpoints of the chain.
    worker = await startWorkerProcess(stack, { rpcUrl: chain.rpcUrls, env: { CHAIN_CONFIRMATIONS: '2' } });
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
    const source = {
      orm: stack.api.db.orm,
      rpcUrl: chain.anvil.rpcUrl,
      contractAddress: chain.contractAddress,
    };
    let ledger = await mintLedger(source, chips);
    await waitUntil(
      async () => {
        ledger = await mintLedger(source, chips);
        return ledger.reorgedOutLeft === 0 && ledger.mintEventsOff === 0 && ledger.recorded === MINTS;
      },
      45_000,
      'records reconciled with the canonical chain',
    ).catch(() => {});
    assert.deepEqual(
      {
        recorded: ledger.recorded,
        duplicates: ledger.duplicates,
        reorgedOutLeft: ledger.reorgedOutLeft,
        mintEventsOff: ledger.mintEventsOff,
        missing: ledger.missing,
      },
      { recorded: MINTS, duplicates: 0, reorgedOutLeft: 0, mintEventsOff: 0, missing: [] },
    );
    // The count can fail: a passport left naming the block its mint was in before a reorg is seen.
    await db.execute('update passports set mint_block = mint_block - 1 where chip_uid = ?', [chips[0]]);
    const stale = await mintLedger(source, chips);
    assert.deepEqual([stale.recorded, stale.reorgedOutLeft], [MINTS - 1, 1], 'a stale record is counted');
    await db.execute('update passports set mint_block = mint_block + 1 where chip_uid = ?', [chips[0]]);
    const nonces = await signerNonces(source, signer);
    assert.equal(nonces.pending, nonces.mined, 'no transaction stuck behind a nonce gap');
    assert.equal(nonces.sharedNonces, 0, 'no nonce claimed by two live intents');

    const { logs } = await worker!.stop();
    worker = undefined;
    const totals = logs.find((line) => line.msg === 'chain signer totals' && line.environment === 'test');
    assert.ok(totals, 'the worker logged its totals');
    assert.equal(Number(totals.nonceErrors), 0, 'nonce errors');
    assert.ok(Number(totals.reorgs) > 0, 'the worker saw the reorg');
  });
});
