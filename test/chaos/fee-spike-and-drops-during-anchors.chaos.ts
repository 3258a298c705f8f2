import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { eventLedger, signerNonces } from '../support/chain-ledger.ts';
import { enrollChips, mintThroughApi, sleep, waitUntil } from '../support/chain-load.ts';
import { type RealisticChain, startRealisticChain } from '../support/realistic-chain.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.ts';

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
    chain = await startRealisticChain({ blockTime: 2 });
    stack = await startTestStack({
      chain,
      startWorker: false,
      dispatcher: false,
      apiClient: 'native',
      mintWaitMs: 60_000,
      apiEnv: { RATE_LIMIT_PER_MINUTE: '0' },
    });
    tenant = await stack.api.createTenant('Acme Logistics');
    worker = await startWorkerProcess(stack, { rpcUrl: chain.rpcUrls, env: { CHAIN_CONFIRMATIONS: '2' } });
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

    const source = {
      orm: stack.api.db.orm,
      rpcUrl: chain.anvil.rpcUrl,
      contractAddress: chain.contractAddress,
    };
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
    const nonces = await signerNonces(source, signer);
    assert.equal(nonces.pending, nonces.mined, 'no transaction stuck behind a nonce gap');
    assert.equal(nonces.sharedNonces, 0, 'no nonce claimed by two live intents');

    const { logs } = await worker!.stop();
    worker = undefined;
    const totals = logs.find((line) => line.msg === 'chain signer totals' && line.environment === 'test');
    assert.ok(totals, 'the worker logged its totals');
    assert.equal(Number(totals.nonceErrors), 0, 'nonce errors');
    assert.ok(Number(totals.feeBumps) > 0, `the spike made the worker bump fees: ${JSON.stringify(totals)}`);
    assert.ok(Number(totals.drops) >= 2, `the worker noticed the drops: ${JSON.stringify(totals)}`);
  });
});
