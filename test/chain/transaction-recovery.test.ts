import assert from 'node:assert/strict';
import { keccak256, toUtf8Bytes } from 'ethers';
import { afterAll, beforeAll, beforeEach, test } from 'vitest';
import { ChainRevert } from '../../src/adapters/chain/errors.ts';
import { TransactionTimeoutError } from '../../src/adapters/chain/receipt-wait.ts';
import { startTestChain, type TestChain } from '../support/anvil.ts';

let t: TestChain;
beforeAll(async () => {
  t = await startTestChain();
});
beforeEach(() => t.rpc('evm_setAutomine', [false]));
afterAll(() => t.stop());

const owner = () => t.others[0]!.address;

async function waitForHashes(hashes: string[], count: number): Promise<void> {
  while (hashes.length < count) await new Promise((resolve) => setTimeout(resolve, 10));
}

test('a transaction hash resolves to unknown, pending, then mined with its events', async () => {
  assert.deepEqual(await t.chain.writer.getTransactionOutcome(keccak256(toUtf8Bytes('never sent'))), {
    status: 'unknown',
  });
  const hashes: string[] = [];
  const minting = t.chain.writer.mint(
    { to: owner(), metadataUri: 'ipfs://pending', chipUid: '04AA000000000A' },
    { onSubmitted: (hash) => void hashes.push(hash) },
  );
  await waitForHashes(hashes, 1);
  assert.deepEqual(await t.chain.writer.getTransactionOutcome(hashes[0]!), { status: 'pending' });
  await t.rpc('evm_mine');
  const minted = await minting;
  const outcome = await t.chain.writer.getTransactionOutcome(hashes[0]!);
  assert.equal(outcome.status, 'mined');
  assert.ok(outcome.status === 'mined');
  assert.equal(outcome.txHash, minted.txHash);
  assert.equal(outcome.confirmations, 1);
  assert.equal(String(outcome.events.find((e) => e.name === 'Minted')?.args.tokenId), minted.tokenId);
});

test('crash recovery: a mint whose receipt did not come in time is found by hash and by chip', async () => {
  const impatient = t.connect(t.platform.privateKey, { receiptTimeoutMs: 300 });
  let stored: string | undefined;
  const error = await impatient.writer
    .mint(
      { to: owner(), metadataUri: 'ipfs://late', chipUid: '04AA000000000B' },
      {
        onSubmitted: (hash) => {
          stored = hash;
        },
      },
    )
    .catch((e: unknown) => e);
  assert.ok(error instanceof TransactionTimeoutError);
  assert.equal(error.txHash, stored);
  assert.equal(await t.chain.reader.findTokenByChip('04AA000000000B'), null, 'not mined yet');

  await t.rpc('evm_mine');
  const recovered = await t.chain.writer.waitForTransaction(stored!);
  const tokenId = recovered.events.find((e) => e.name === 'Minted')?.args.tokenId;
  assert.equal(typeof tokenId, 'bigint');
  assert.equal(await t.chain.reader.findTokenByChip('04AA000000000B'), String(tokenId));
});

test('a transaction that reverts when mined is reported with its decoded custom error', async () => {
  // both estimates run before either mint is in the pool, so the duplicate only fails in the block
  const hashes: string[] = [];
  const mint = (uri: string) =>
    t.chain.writer.mint(
      { to: owner(), metadataUri: uri, chipUid: '04AA000000000C' },
      { onSubmitted: (hash) => void hashes.push(hash) },
    );
  const attempts = [mint('ipfs://one'), mint('ipfs://two')].map((p) => p.catch((e: unknown) => e));
  await waitForHashes(hashes, 2);
  await t.rpc('evm_mine');
  const [first, second] = await Promise.all(attempts);
  const failed = [first, second].find((r) => r instanceof ChainRevert);
  const succeeded = [first, second].find((r) => !(r instanceof ChainRevert)) as {
    tokenId: string;
    txHash: string;
  };
  assert.ok(failed instanceof ChainRevert, 'one of the two reverted');
  assert.equal(failed.name, 'ChipAlreadyMinted');
  assert.equal(String(failed.args.tokenId), succeeded.tokenId);
  assert.ok(failed.txHash && hashes.includes(failed.txHash) && failed.txHash !== succeeded.txHash);

  const outcome = await t.chain.writer.getTransactionOutcome(failed.txHash);
  assert.equal(outcome.status, 'reverted');
  assert.ok(outcome.status === 'reverted');
  assert.equal(outcome.error.name, 'ChipAlreadyMinted');
});

test('a revert detected at estimation never takes a nonce', async () => {
  await t.rpc('evm_setAutomine', [true]);
  const chain = t.connect(t.platform.privateKey);
  await assert.rejects(
    chain.writer.logEvent({ tokenId: 12345, action: 'X', dataHash: `0x${'00'.repeat(32)}` }),
    {
      name: 'UnknownToken',
    },
  );
  assert.deepEqual(chain.nonces.stats, { sent: 0, nonceErrors: 0, resyncs: 0 });
  const next = await chain.writer.mint({
    to: owner(),
    metadataUri: 'ipfs://after',
    chipUid: '04AA000000000D',
  });
  assert.match(next.tokenId, /^[1-9][0-9]*$/);
  assert.deepEqual(chain.nonces.stats, { sent: 1, nonceErrors: 0, resyncs: 1 });
});
