import assert from 'node:assert/strict';
import { Interface, type InterfaceAbi, id as keccakText } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { FailoverJsonRpcProvider } from '../../src/adapters/chain/failover-provider.ts';
import type { PassportChain } from '../../src/adapters/chain/passport-chain.ts';
import { reorgRecordReconciler } from '../../src/adapters/chain/reorg-records.ts';
import type { ReorgChange } from '../../src/adapters/chain/transaction-manager.ts';
import { openOrm } from '../../src/platform/db/orm.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { type RealisticChain, startRealisticChain } from '../support/realistic-chain.ts';

let db: TestDatabase;
let t: RealisticChain;
let chain: PassportChain;
const reconciled: ReorgChange[] = [];
const COMPANY = '00000000-0000-4000-8000-000000000024';

/** Stores an anchor as recordEventAnchor would once its transaction is confirmed. */
async function recordAnchor(name: string, result: { txHash: string; blockNumber: number }): Promise<void> {
  await db.orm.em.fork().execute(
    `insert into supply_chain_events (company_id, environment, token_id, action, data_hash, transaction_hash, block_number)
     values (?, 'test', '1', 'SHIPPED', ?, ?, ?)`,
    [COMPANY, dataHashOf(name), result.txHash, result.blockNumber],
  );
}

/** Recorded anchors whose transaction or block is not the canonical one. */
async function recordsOffChain(): Promise<string[]> {
  const rows = await db.orm.em
    .fork()
    .execute<{ data_hash: string; transaction_hash: string; block_number: string }[]>(
      'select data_hash, transaction_hash, block_number from supply_chain_events where company_id = ?',
      [COMPANY],
    );
  const wrong: string[] = [];
  for (const row of rows) {
    const receipt = await chain.provider.getTransactionReceipt(row.transaction_hash);
    if (!receipt || receipt.blockNumber !== Number(row.block_number)) wrong.push(row.data_hash);
  }
  return wrong;
}

beforeAll(async () => {
  [db, t] = await Promise.all([createTestDatabase(), startRealisticChain({ blockTime: 2 })]);
  chain = t.managed(db.orm, {
    confirmations: 2,
    transactions: {
      orm: db.orm,
      stuckAfterMs: 6_000,
      reconcile: async (change) => {
        reconciled.push(change);
        await reorgRecordReconciler(db.orm)(change);
      },
    },
  });
  chain.transactions!.start();
  await db.orm.em
    .fork()
    .execute(`insert into companies (id, name, created_at) values (?, 'Reorg Test', now())`, [COMPANY]);
}, 60_000);
afterAll(async () => {
  await t?.stop();
  await db?.drop();
});

const owner = () => t.others[0]!.address;
const GWEI = 1_000_000_000n;
const chipOf = (tokenId: number) => `04AA0000${tokenId.toString(16).toUpperCase().padStart(6, '0')}`;
const dataHashOf = (name: string) => keccakText(name);

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every log of the contract on the canonical chain, decoded. */
async function contractLogs(name: 'Minted' | 'SupplyChainEvent') {
  const abi = new Interface(chain.artifact.abi as InterfaceAbi);
  const logs = await chain.provider.getLogs({
    address: chain.contractAddress,
    fromBlock: 0,
    toBlock: 'latest',
    topics: [abi.getEvent(name)!.topicHash],
  });
  return logs.map((log) => ({ log, args: abi.parseLog(log)!.args }));
}

describe('transaction manager on a chain with 2 s blocks', () => {
  test('a mint is stored before broadcast, confirmed after 2 blocks, and a retry with its key sends nothing', async () => {
    const minted = await chain.writer.mint(
      { to: owner(), tokenId: 1, metadataUri: 'ipfs://one', chipUid: '04AA000000B001' },
      { operationKey: 'smoke-1' },
    );
    const [row] = await chain.transactions!.list();
    assert.equal(row!.state, 'confirmed');
    assert.equal(row!.txHash, minted.txHash);
    assert.deepEqual(row!.operationKeys, ['smoke-1#mint']);
    assert.ok((await t.head()) - minted.blockNumber + 1 >= 2);
    const again = await chain.writer.mint(
      { to: owner(), tokenId: 1, metadataUri: 'ipfs://one', chipUid: '04AA000000B001' },
      { operationKey: 'smoke-1' },
    );
    assert.equal(again.txHash, minted.txHash);
    assert.equal((await chain.transactions!.list()).length, 1);
  }, 60_000);

  test('mints and anchors through a fee spike, two dropped transactions and a reorg of depth 3: each operation once on the canonical chain and in chain_transactions', async () => {
    const manager = chain.transactions!;
    const signer = chain.signerAddress;
    const start = { ...manager.stats };
    const tokens = [2, 3, 4, 5, 6, 7, 8, 9];
    const mintOf = (tokenId: number) =>
      chain.writer.mint(
        { to: owner(), tokenId, metadataUri: `ipfs://m${tokenId}`, chipUid: chipOf(tokenId) },
        { operationKey: `mint-${tokenId}` },
      );
    const anchorOf = (i: number) =>
      chain.writer.logEvent(
        { tokenId: tokens[i % tokens.length]!, action: 'SHIPPED', dataHash: dataHashOf(`anchor-${i}`) },
        { operationKey: `anchor-${i}` },
      );

    // 1. A base-fee spike (100 gwei, ~50x) right after the mints reach the mempool: anvil evicts them, the manager
    //    re-signs them with higher fees under the same nonces.
    const mints = tokens.map(mintOf);
    await waitUntil(async () => (await t.pendingOf(signer)).length > 0);
    await t.spikeBaseFee(100n * GWEI);
    const minted = await Promise.all(mints);
    assert.ok(manager.stats.feeBumps > start.feeBumps, 'the spike made the manager bump fees');

    // 2. Two anchors dropped from the mempool: broadcast again (same signed bytes, same nonce).
    const dropsBefore = manager.stats.drops;
    const anchors = Array.from({ length: 8 }, (_, i) => anchorOf(i));
    await waitUntil(async () => (await t.pendingOf(signer)).length >= 2);
    const pending = await t.pendingOf(signer);
    for (const tx of pending.slice(0, 2)) await t.dropTransaction(tx.hash);
    const anchored = await Promise.all(anchors);
    const afterDrops = await manager.list({ limit: 1000 });
    for (const dropped of pending.slice(0, 2)) {
      const row = afterDrops.find((r) => r.txHashes.includes(dropped.hash));
      assert.equal(row?.state, 'confirmed', `dropped ${dropped.hash} was sent again and confirmed`);
    }
    assert.ok(manager.stats.drops > dropsBefore, `drops seen ${manager.stats.drops - dropsBefore}`);

    // 3. More anchors, confirmed (2 blocks), then the last 3 blocks are replaced by empty ones.
    const late = await Promise.all([8, 9, 10, 11].map(anchorOf));
    for (const [i, result] of [...anchored, ...late].entries()) await recordAnchor(`anchor-${i}`, result);
    const removed = await t.reorg(3);
    const ours = new Set([...minted, ...anchored, ...late].map((result) => result.txHash));
    const reorgedOut = removed.filter((hash) => ours.has(hash));
    assert.ok(reorgedOut.length > 0, 'the reorg removed confirmed transactions of ours');
    await waitUntil(async () => {
      const rows = await manager.list({ limit: 1000 });
      const confirmed = rows.filter((row) => row.state === 'confirmed');
      return (
        rows.every((row) => row.state === 'confirmed' || row.state === 'superseded') &&
        reorgedOut.every((hash) => confirmed.some((row) => row.txHashes.includes(hash) && row.reorgs > 0))
      );
    });
    assert.ok(manager.stats.reorgs >= reorgedOut.length);
    assert.ok(reconciled.length > 0, 'records naming reorged transactions were reconciled');
    // Reconciled in the round that confirms the re-sent transaction (the row reads confirmed a moment before).
    await waitUntil(async () => (await recordsOffChain()).length === 0, 5_000).catch(async () => {
      throw new Error(
        `records off chain: ${(await recordsOffChain()).join(', ')}; reconciled ${JSON.stringify(reconciled)}`,
      );
    });
    // A record written from a result older than the reorg (the record activity ran late) is corrected too.
    const reorgedAnchor = [...anchored, ...late].findIndex((result) => reorgedOut.includes(result.txHash));
    await db.orm.em
      .fork()
      .execute('delete from supply_chain_events where data_hash = ?', [
        dataHashOf(`anchor-${reorgedAnchor}`),
      ]);
    await recordAnchor(`anchor-${reorgedAnchor}`, [...anchored, ...late][reorgedAnchor]!);
    await waitUntil(async () => (await recordsOffChain()).length === 0, 20_000);

    // 4. Retried operations (same keys) find their transactions: no new row, no new transaction.
    const rowsBefore = (await manager.list({ limit: 1000 })).length;
    const retried = await Promise.all([
      ...tokens.map(mintOf),
      ...Array.from({ length: 12 }, (_, i) => anchorOf(i)),
    ]);
    assert.equal((await manager.list({ limit: 1000 })).length, rowsBefore);
    const rows = await manager.list({ limit: 1000 });
    for (const result of retried)
      assert.ok(rows.some((row) => row.txHash === result.txHash && row.state === 'confirmed'));
    // A retried mint that rode in a mintBatch answers with its own passport's events only.
    for (const [i, tokenId] of tokens.entries())
      assert.ok(
        retried[i]!.events.every((event) => event.args.tokenId === BigInt(tokenId)),
        `token ${tokenId}`,
      );

    // Exactly once on the canonical chain...
    const mintedLogs = await contractLogs('Minted');
    for (const tokenId of [1, ...tokens])
      assert.equal(
        mintedLogs.filter((l) => l.args.tokenId === BigInt(tokenId)).length,
        1,
        `token ${tokenId}`,
      );
    assert.equal(await chain.reader.totalMinted(), BigInt(1 + tokens.length));
    const anchorLogs = await contractLogs('SupplyChainEvent');
    for (let i = 0; i < 12; i++)
      assert.equal(
        anchorLogs.filter((l) => l.args.dataHash === dataHashOf(`anchor-${i}`)).length,
        1,
        `anchor ${i}`,
      );
    // ...and once in chain_transactions, in a canonical block, with one nonce per live row.
    const live = rows.filter((row) => row.state !== 'superseded');
    for (const key of [
      ...tokens.map((n) => `mint-${n}#mint`),
      ...Array.from({ length: 12 }, (_, i) => `anchor-${i}#logEvent`),
    ])
      assert.equal(live.filter((row) => row.operationKeys.includes(key)).length, 1, key);
    for (const row of live) {
      const block = await chain.provider.getBlock(row.blockNumber!);
      assert.equal(block?.hash, row.blockHash, `transaction ${row.id} is in a canonical block`);
    }
    assert.equal(new Set(live.map((row) => row.nonce)).size, live.length);
    assert.equal(manager.stats.nonceErrors, 0);
  }, 240_000);

  test('two managers on two database pools send for one signer at once, through an RPC outage: no nonce error, no duplicate', async () => {
    const secondPool = await openOrm(db.url, 5);
    try {
      const [a, b] = [db.orm, secondPool].map((orm) =>
        t.managed(orm, { confirmations: 2, transactions: { orm, stuckAfterMs: 6_000 } }),
      ) as [PassportChain, PassportChain];
      const anchor = (sender: PassportChain, name: string) =>
        sender.writer.logEvent(
          { tokenId: 1, action: 'INSPECTED', dataHash: dataHashOf(name) },
          { operationKey: name },
        );
      const names = {
        a: Array.from({ length: 15 }, (_, i) => `two-a-${i}`),
        b: Array.from({ length: 15 }, (_, i) => `two-b-${i}`),
        shared: Array.from({ length: 5 }, (_, i) => `two-shared-${i}`),
      };
      const sending = Promise.all([
        ...names.a.map((name) => anchor(a, name)),
        ...names.b.map((name) => anchor(b, name)),
        // The same operations from both processes at once: one transaction each.
        ...names.shared.flatMap((name) => [anchor(a, name), anchor(b, name)]),
      ]);
      // The first endpoint fails for 3 s: both fail over to the second.
      t.endpoints[0].cut();
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      t.endpoints[0].restore();
      const results = await sending;

      const stats = [a, b].map((sender) => sender.transactions!.stats);
      assert.equal(stats[0]!.nonceErrors + stats[1]!.nonceErrors, 0, 'nonce errors');
      assert.equal(stats[0]!.sent + stats[1]!.sent, 35, 'one transaction per operation');
      const failovers = [a, b].reduce(
        (sum, sender) => sum + ((sender.provider as FailoverJsonRpcProvider).stats?.failovers ?? 0),
        0,
      );
      assert.ok(failovers > 0, 'the outage moved requests to the second endpoint');
      for (const [i, name] of names.shared.entries())
        assert.equal(results[30 + 2 * i]!.txHash, results[31 + 2 * i]!.txHash, name);

      const rows = (await a.transactions!.list({ limit: 1000 })).filter((row) =>
        row.operationKeys.some((key) => key.startsWith('two-')),
      );
      assert.equal(rows.length, 35);
      assert.ok(rows.every((row) => row.state === 'confirmed'));
      const nonces = rows.map((row) => row.nonce).sort((x, y) => x - y);
      assert.deepEqual(
        nonces,
        Array.from({ length: 35 }, (_, i) => nonces[0]! + i),
        'consecutive nonces, none twice',
      );
      const logs = await contractLogs('SupplyChainEvent');
      for (const name of [...names.a, ...names.b, ...names.shared])
        assert.equal(logs.filter((l) => l.args.dataHash === dataHashOf(name)).length, 1, name);
    } finally {
      await secondPool.close(true);
    }
  }, 180_000);
});
