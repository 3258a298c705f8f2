import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { eventLedger } from '../support/chain-ledger.ts';
import { enrollChips, mintThroughApi, sleep, waitUntil } from '../support/chain-load.ts';
import type { RealisticChain } from '../support/realistic-chain.ts';
import type { TestStack } from '../support/stack.ts';
import type { WorkerProcess } from '../support/worker-process.ts';
import {
  assertSignerNoncesClean,
  ledgerSource,
  startChainScenario,
  stopWorkerForTotals,
} from './support/chain-chaos.ts';

const ANCHORS = 50;
const PASSPORTS = 5;
const GWEI = 1_000_000_000n;
const chipOf = (i: number) => `04CE${i.toString(16).toUpperCase().padStart(10, '0')}`;

describe('a base-fee spike and two dropped transactions during 50 supply-chain event anchors', () => {
  let chain: RealisticChain;
  let stack: TestStack;
  let tenant: TestTenant;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    ({ chain, stack, tenant, worker } = await startChainScenario('Acme Logistics'));
  });
  afterAll(async () => {
    await worker?.stop();
    await stack?.close();
  });

  test('every event is anchored exactly once on the canonical chain and recorded once, nothing lost', async () => {
    const call = (method: string, path: string, body?: unknown) =>
      stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
    const chips = Array.from({ length: PASSPORTS }, (_, i) => chipOf(i));
    await enrollChips(call, chips);
    const minted = await Promise.all(chips.map((chipUid) => mintThroughApi(call, chipUid)));
    assert.deepEqual(
      minted.filter((m) => !m.ok),
      [],
    );
    const tokens = (
      await stack.api.db.orm.em
        .fork()
        .execute<{ token_id: string }[]>('select token_id from passports order by id')
    ).map((row) => row.token_id);

    const signer = chain.platform.address;
    const logged: Promise<number>[] = [];
    const logEvent = async (i: number) => {
      const answer = await call('POST', '/v1/iaas/log-event', {
        tokenId: tokens[i % tokens.length],
        action: i % 2 === 0 ? 'SHIPPED' : 'DELIVERED',
        locationName: `Dock ${i}`,
        latitude: 53.5,
        longitude: 9.9,
        metadata: { sequence: i },
      });
      assert.equal(answer.status, 201, answer.text);
      return answer.body.eventId as number;
    };
    const sending = (async () => {
      for (let first = 0; first < ANCHORS; first += 10) {
        for (let i = first; i < first + 10; i++) logged.push(logEvent(i));
        await sleep(2_000);
      }
    })();

    // The spike as soon as anchors wait in the mempool (they no longer pay the next block's base fee), then two
    // of the signer's pending transactions dropped from it.
    await waitUntil(async () => (await chain.pendingOf(signer)).length > 0, 30_000, 'anchors pending');
    await chain.spikeBaseFee(100n * GWEI);
    await waitUntil(async () => (await chain.pendingOf(signer)).length >= 2, 30_000, 'two anchors pending');
    const dropped = (await chain.pendingOf(signer)).slice(0, 2);
    for (const tx of dropped) await chain.dropTransaction(tx.hash);

    await sending;
    const ids = await Promise.all(logged);
    assert.equal(new Set(ids).size, ANCHORS);
    await Promise.all(
      ids.map((id) => stack.temporal.client.workflow.getHandle(`anchor-event:test:${id}`).result()),
    );
    await waitUntil(async () => (await chain.pendingOf(signer)).length === 0, 60_000, 'mempool empty');
    await chain.waitBlocks(2);

    const source = ledgerSource(stack, chain);
    const ledger = await eventLedger(source, ids);
    assert.deepEqual(
      {
        recorded: ledger.recorded,
        duplicates: ledger.duplicates,
        reorgedOutLeft: ledger.reorgedOutLeft,
        missing: ledger.missing,
      },
      { recorded: ANCHORS, duplicates: 0, reorgedOutLeft: 0, missing: [] },
    );
    await assertSignerNoncesClean(source, signer);

    const totals = await stopWorkerForTotals(worker!);
    worker = undefined;
    assert.ok(Number(totals.feeBumps) > 0, `the spike made the worker bump fees: ${JSON.stringify(totals)}`);
    // A dropped transaction comes back one of two ways, depending on which poll sees it first: the monitor finds
    // its hash gone and broadcasts it again, or a fee bump already replaced it with a new hash.
    const rows = await stack.api.db.orm.em
      .fork()
      .execute<{ state: string; tx_hash: string; dropped: string }[]>(
        `select state, tx_hash, d.hash as dropped from chain_transactions
           join unnest(?::text[]) as d(hash) on d.hash = any(tx_hashes)`,
        [`{${dropped.map((tx) => tx.hash).join(',')}}`],
      );
    assert.deepEqual(
      rows.map((row) => row.state),
      ['confirmed', 'confirmed'],
      'both dropped transactions end confirmed',
    );
    const replaced = rows.filter((row) => row.tx_hash !== row.dropped).length;
    assert.ok(
      replaced + Number(totals.rebroadcasts) >= 2,
      `the worker sent the dropped transactions again or replaced them: ${JSON.stringify({ replaced, totals })}`,
    );
  });
});
