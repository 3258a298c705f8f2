import assert from 'node:assert/strict';
import { Interface, type InterfaceAbi, JsonRpcProvider, Wallet } from 'ethers';
import { afterAll, beforeAll, beforeEach, test } from 'vitest';
import type { PassportChain } from '../../src/adapters/chain/passport-chain.ts';
import { TransactionManager } from '../../src/adapters/chain/transaction-manager.ts';
import { startTestChain, type TestChain } from '../support/anvil.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

let db: TestDatabase;
let t: TestChain;
let chain: PassportChain;
let tokenId: string;

beforeAll(async () => {
  [db, t] = await Promise.all([createTestDatabase(), startTestChain()]);
  chain = t.connect(t.platform.privateKey, { transactions: { orm: db.orm, stuckAfterMs: 1_000 } });
  ({ tokenId } = await chain.writer.mint({
    to: t.others[0]!.address,
    metadataUri: 'ipfs://r',
    chipUid: '04DD0000000001',
  }));
}, 60_000);
beforeEach(() => t.rpc('evm_setAutomine', [true]));
afterAll(async () => {
  await t?.stop();
  await db?.drop();
});

const hashOf = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const until = async (check: () => Promise<boolean>) => {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(
        `not in time: ${JSON.stringify(await chain.transactions!.list(), (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

test('a transaction left unmined is re-signed with higher fees under its nonce; the hash announced first leads to the mined one', async () => {
  await t.rpc('evm_setAutomine', [false]);
  const announced: string[] = [];
  const anchoring = chain.writer.logEvent(
    { tokenId, action: 'STUCK', dataHash: hashOf(1) },
    { operationKey: 'stuck-1', onSubmitted: (hash) => void announced.push(hash) },
  );
  await until(async () => ((await chain.transactions!.list())[0]?.feeBumps ?? 0) >= 1);
  const [row] = await chain.transactions!.list();
  assert.equal(row!.txHashes.length, row!.feeBumps + 1);
  assert.ok(row!.maxFeePerGas > 0n);
  assert.notEqual(row!.txHash, announced[0]);
  assert.ok(await chain.provider.getTransaction(row!.txHash), 'the node holds the replacement');
  await t.rpc('evm_mine');
  const result = await anchoring;
  const final = (await chain.transactions!.list())[0]!;
  assert.equal(result.txHash, final.txHash);
  assert.equal(final.state, 'confirmed');
  // A retried activity holding the first hash: it resolves to the mined transaction, not to "unknown".
  const outcome = await chain.writer.getTransactionOutcome(announced[0]!);
  assert.equal(outcome.status, 'mined');
  assert.equal(outcome.status === 'mined' && outcome.txHash, final.txHash);
  assert.equal((await chain.writer.waitForTransaction(announced[0]!)).txHash, final.txHash);
}, 60_000);

test('a nonce taken by another sender while our transaction was dropped: the intent is re-signed under a new nonce, once', async () => {
  await t.rpc('evm_setAutomine', [false]);
  let first = '';
  const anchoring = chain.writer.logEvent(
    { tokenId, action: 'SUPERSEDED', dataHash: hashOf(2) },
    {
      operationKey: 'superseded-1',
      onSubmitted: (hash) => {
        first = hash;
      },
    },
  );
  await until(async () => first !== '');
  const taken = (await chain.transactions!.list())[0]!;
  await t.rpc('anvil_dropTransaction', [first]);
  // Another program with the same key sends under that nonce (outbidding ours, should the manager have put it
  // back in the mempool already), and it is mined.
  const outsider = await new Wallet(t.platform.privateKey, chain.provider).sendTransaction({
    to: chain.contractAddress,
    data: new Interface(chain.artifact.abi as InterfaceAbi).encodeFunctionData('logEvent', [
      BigInt(tokenId),
      'OUTSIDE',
      hashOf(3),
    ]),
    nonce: taken.nonce,
    gasLimit: 200_000n,
    maxFeePerGas: 100_000_000_000n,
    maxPriorityFeePerGas: 50_000_000_000n,
  });
  await t.rpc('evm_setAutomine', [true]);
  await t.rpc('evm_mine');
  assert.equal((await chain.provider.getTransactionReceipt(outsider.hash))?.status, 1);

  const result = await anchoring;
  const rows = await chain.transactions!.list();
  const old = rows.find((row) => row.id === taken.id)!;
  assert.equal(old.state, 'superseded');
  const replacement = rows.find((row) => row.id === old.supersededBy)!;
  assert.equal(replacement.state, 'confirmed');
  assert.ok(replacement.nonce > taken.nonce);
  assert.equal(result.txHash, replacement.txHash);
  assert.deepEqual(replacement.operationKeys, ['superseded-1#logEvent']);
  const logs = await chain.provider.getLogs({ address: chain.contractAddress, fromBlock: 0 });
  assert.equal(
    logs.filter((log) => log.data.includes(hashOf(2).slice(2))).length,
    1,
    'the anchor is on chain once',
  );
}, 60_000);

test('a process that stored its intent but died before broadcasting: another process broadcasts it, and the retried write waits for it', async () => {
  // "Process A": its node connection fails exactly when broadcasting.
  class NoBroadcast extends JsonRpcProvider {
    override send(method: string, params: unknown[] | Record<string, unknown>): Promise<unknown> {
      if (method === 'eth_sendRawTransaction') return Promise.reject(new Error('socket hang up'));
      return super.send(method, params);
    }
  }
  const provider = new NoBroadcast(t.anvil.rpcUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
  try {
    const a = new TransactionManager({
      orm: db.orm,
      provider,
      wallet: new Wallet(t.platform.privateKey, provider),
      confirmations: 1,
    });
    const data = new Interface(chain.artifact.abi as InterfaceAbi).encodeFunctionData('logEvent', [
      BigInt(tokenId),
      'ORPHANED',
      hashOf(4),
    ]);
    const stored = await a.send({
      operationKeys: ['orphan-1#logEvent'],
      method: 'logEvent',
      to: chain.contractAddress,
      data,
      gasLimit: 200_000n,
    });
    assert.equal(stored.state, 'signed');
    assert.match(stored.lastError ?? '', /socket hang up/);
    assert.equal(await chain.provider.getTransaction(stored.txHash), null, 'never reached the node');

    // "Process B" runs the same operation (the activity retried elsewhere): no second transaction.
    const result = await chain.writer.logEvent(
      { tokenId, action: 'ORPHANED', dataHash: hashOf(4) },
      { operationKey: 'orphan-1' },
    );
    assert.equal(result.txHash, stored.txHash);
    const rows = (await chain.transactions!.list()).filter((row) =>
      row.operationKeys.includes('orphan-1#logEvent'),
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.state, 'confirmed');
    assert.equal(rows[0]!.nonce, stored.nonce);
  } finally {
    provider.destroy();
  }
}, 60_000);

test('fee bumps stop at the signer’s cap: during a spike above it the write waits, and goes out once the base fee is back', async () => {
  const gwei = 1_000_000_000n;
  const capped = t.connect(t.platform.privateKey, {
    transactions: { orm: db.orm, stuckAfterMs: 500, maxFeePerGasCap: 5n * gwei },
  });
  await t.rpc('evm_setAutomine', [false]);
  await t.rpc('anvil_setNextBlockBaseFeePerGas', [`0x${(50n * gwei).toString(16)}`]);
  const anchoring = capped.writer.logEvent(
    { tokenId, action: 'CAPPED', dataHash: hashOf(5) },
    { operationKey: 'capped-1' },
  );
  const row = async () =>
    (await capped.transactions!.list()).find((r) => r.operationKeys.includes('capped-1#logEvent'));
  await until(async () => /fee cap/.test((await row())?.lastError ?? ''));
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const waiting = (await row())!;
  assert.ok(waiting.maxFeePerGas <= 5n * gwei, `offered ${waiting.maxFeePerGas} wei per gas`);
  assert.ok(['signed', 'sent'].includes(waiting.state));
  assert.equal(await capped.provider.getTransaction(waiting.txHash), null, 'not accepted at 50 gwei');

  await t.rpc('anvil_setNextBlockBaseFeePerGas', [`0x${gwei.toString(16)}`]);
  await until(async () => Boolean(await capped.provider.getTransaction((await row())!.txHash)));
  await t.rpc('evm_mine');
  const result = await anchoring;
  const done = (await row())!;
  assert.equal(done.state, 'confirmed');
  assert.equal(result.txHash, done.txHash);
  assert.ok(done.maxFeePerGas <= 5n * gwei);
}, 60_000);

test('a chain replaced under the same chain id (anvil restarted without its state): earlier transactions are abandoned, never replayed, and nonces start from the new chain', async () => {
  const before = await chain.transactions!.list({ limit: 1000 });
  assert.ok(before.length > 0);
  const replacement = await startTestChain();
  try {
    const genesis = async (c: TestChain) => (await c.chain.provider.getBlock(0))!.hash;
    assert.notEqual(await genesis(replacement), await genesis(t));
    assert.equal(
      replacement.contractAddress,
      t.contractAddress,
      'same deployer, same first nonce, same address',
    );
    const fresh = replacement.connect(replacement.platform.privateKey, {
      transactions: { orm: db.orm },
      receiptTimeoutMs: 10_000,
    });
    const minted = await fresh.writer.mint({
      to: t.others[0]!.address,
      metadataUri: 'ipfs://new',
      chipUid: '04DD0000000002',
    });
    const rows = await fresh.transactions!.list({ limit: 1000 });
    const mint = rows.find((row) => row.txHash === minted.txHash)!;
    assert.equal(mint.state, 'confirmed');
    assert.equal(mint.nonce, 1, 'the deployment used nonce 0 of the new chain');
    for (const old of before) {
      const now = rows.find((row) => row.id === old.id)!;
      if (old.state !== 'superseded') assert.equal(now.state, 'abandoned', `transaction ${old.id}`);
    }
    // Nothing of the old chain was broadcast on the new one: only the deployment and the new mint.
    assert.equal(await fresh.provider.getTransactionCount(fresh.signerAddress, 'latest'), 2);
  } finally {
    await replacement.stop();
  }
}, 60_000);

test('a chain without a base fee (no EIP-1559, e.g. a permissioned chain) gets legacy transactions at the node’s gas price', async () => {
  // The same anvil, seen through a provider that reports no base fee in its blocks.
  class NoBaseFee extends JsonRpcProvider {
    override async send(method: string, params: unknown[] | Record<string, unknown>): Promise<unknown> {
      const result = await super.send(method, params);
      if (method.startsWith('eth_getBlockBy') && result && typeof result === 'object')
        delete (result as { baseFeePerGas?: string }).baseFeePerGas;
      return result;
    }
  }
  const provider = new NoBaseFee(t.anvil.rpcUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
  try {
    const platform = t.connect(t.platform.privateKey, { provider, transactions: { orm: db.orm } });
    const result = await platform.writer.logEvent(
      { tokenId, action: 'LEGACY', dataHash: hashOf(6) },
      { operationKey: 'legacy-1' },
    );
    const sent = await provider.getTransaction(result.txHash);
    assert.equal(sent!.type, 0);
    const row = (await platform.transactions!.list())[0]!;
    assert.equal(row.txHash, result.txHash);
    assert.equal(sent!.gasPrice, row.maxFeePerGas, 'the stored max fee is the gas price offered');
    assert.equal(row.maxPriorityFeePerGas, 0n);
  } finally {
    provider.destroy();
  }
}, 60_000);
