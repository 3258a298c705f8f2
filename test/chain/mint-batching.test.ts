import assert from 'node:assert/strict';
import { Contract, type InterfaceAbi, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { chipHash } from '../../src/adapters/chain/chip-hash.ts';
import { isChainRevert } from '../../src/adapters/chain/errors.ts';
import { startTestChain, type TestChain } from '../support/anvil.ts';
import { mined } from '../support/passport-contract.ts';

let t: TestChain;
beforeAll(async () => {
  t = await startTestChain();
  // A second minter for the adapter with batching off; granted before the platform adapter sends anything.
  const admin = new Contract(
    t.contractAddress,
    t.chain.artifact.abi as InterfaceAbi,
    new Wallet(t.platform.privateKey, t.chain.provider),
  );
  const minterRole = (await admin.getFunction('MINTER_ROLE')()) as string;
  await mined(await admin.getFunction('grantRole')(minterRole, t.others[3]!.address));
});
afterAll(() => t.stop());

const uid = (n: number) => `04B47C4000${n.toString(16).padStart(4, '0').toUpperCase()}`;

describe('mints with reserved ids share transactions under load (mintBatch)', () => {
  test('20 concurrent mints: every passport right, fewer transactions than passports', async () => {
    const owner = t.others[1]!.address;
    const before = { ...t.chain.mints.stats };
    const submitted = new Map<number, string>();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.chain.writer.mint(
          {
            to: owner,
            tokenId: 100 + i,
            metadataUri: `ipfs://batch-${i}`,
            chipUid: uid(i),
            depositWei: BigInt(i),
          },
          {
            onSubmitted: (txHash) => {
              submitted.set(i, txHash);
            },
          },
        ),
      ),
    );
    for (const [i, result] of results.entries()) {
      assert.equal(result.tokenId, String(100 + i));
      assert.equal(submitted.get(i), result.txHash, 'onSubmitted saw the transaction that carries it');
      assert.deepEqual(
        result.events.map((e) => [e.name, e.args.tokenId]),
        [
          ['Transfer', BigInt(100 + i)],
          ['Minted', BigInt(100 + i)],
        ],
        'a passport sees only the events about its own token',
      );
      assert.equal(await t.chain.reader.ownerOf(100 + i), owner);
      assert.equal(await t.chain.reader.tokenURI(100 + i), `ipfs://batch-${i}`);
      assert.equal(await t.chain.reader.depositOf(100 + i), BigInt(i));
      assert.equal(await t.chain.reader.chipHashOf(100 + i), chipHash(uid(i)));
      const found = await t.chain.reader.findMintByChip(uid(i));
      assert.equal(found?.txHash, result.txHash, 'crash recovery finds the carrying transaction');
    }
    const transactions = new Set(results.map((r) => r.txHash)).size;
    assert.ok(transactions < 20, `20 passports took ${transactions} transactions`);
    assert.ok(t.chain.mints.stats.batches > before.batches);
  });

  test('blockTime: the block’s timestamp, asked of the node once per block', async () => {
    const result = await t.chain.writer.mint({
      to: t.others[1]!.address,
      tokenId: 150,
      metadataUri: 'ipfs://time',
      chipUid: uid(150),
    });
    const block = await t.chain.provider.getBlock(result.blockNumber);
    const expected = new Date(block!.timestamp * 1000).toISOString();
    assert.equal(await t.chain.reader.blockTime(result.blockNumber), expected);
    let asked = 0;
    const getBlock = t.chain.provider.getBlock.bind(t.chain.provider);
    t.chain.provider.getBlock = ((...args: Parameters<typeof getBlock>) => {
      asked++;
      return getBlock(...args);
    }) as typeof getBlock;
    try {
      assert.equal(await t.chain.reader.blockTime(result.blockNumber), expected);
      assert.equal(asked, 0, 'a block already asked about is remembered');
    } finally {
      t.chain.provider.getBlock = getBlock;
    }
  });

  test('a lone mint goes out at once as mintWithId', async () => {
    const before = { ...t.chain.mints.stats };
    const result = await t.chain.writer.mint({
      to: t.others[1]!.address,
      tokenId: 200,
      metadataUri: 'ipfs://alone',
      chipUid: uid(200),
    });
    assert.equal(result.tokenId, '200');
    assert.equal(t.chain.mints.stats.batches, before.batches);
    const tx = await t.chain.provider.getTransaction(result.txHash);
    assert.equal(tx?.data.slice(0, 10), selector('mintWithId'));
  });

  test('one refused passport in a batch fails alone; the others are minted', async () => {
    await t.chain.writer.mint({
      to: t.others[1]!.address,
      tokenId: 300,
      metadataUri: 'ipfs://first',
      chipUid: uid(300),
    });
    const before = { ...t.chain.mints.stats };
    // First attempts: no lookup of an earlier transaction (a database round trip) before the batcher, so the four
    // reach it together and leave as one batch (with the lookup, a busy machine let 302 go out alone, unsplit).
    const outcomes = await Promise.allSettled(
      [301, 302, 303, 304].map((tokenId) =>
        t.chain.writer.mint(
          {
            to: t.others[2]!.address,
            tokenId,
            metadataUri: `ipfs://second-${tokenId}`,
            // 302 carries the chip already minted as token 300
            chipUid: tokenId === 302 ? uid(300) : uid(tokenId),
          },
          { firstAttempt: true },
        ),
      ),
    );
    const [ok1, refused, ok3, ok4] = outcomes;
    assert.equal(refused?.status, 'rejected');
    assert.ok(
      refused?.status === 'rejected' && isChainRevert(refused.reason, 'ChipAlreadyMinted'),
      'the refusal names the contract error',
    );
    for (const ok of [ok1, ok3, ok4]) assert.equal(ok?.status, 'fulfilled');
    for (const tokenId of [301, 303, 304])
      assert.equal(await t.chain.reader.ownerOf(tokenId), t.others[2]!.address);
    assert.equal(
      await t.chain.reader.findTokenByChip(uid(300)),
      '300',
      'the chip stays with its first token',
    );
    assert.ok(t.chain.mints.stats.fallbacks > before.fallbacks, 'the batch was split into single mints');
  });

  test('mintBatchMax 1 sends every mint alone', async () => {
    const alone = t.connect(t.others[3]!.privateKey, { mintBatchMax: 1 });
    try {
      const results = await Promise.all(
        [400, 401, 402].map((tokenId) =>
          alone.writer.mint({
            to: t.others[1]!.address,
            tokenId,
            metadataUri: `ipfs://one-${tokenId}`,
            chipUid: uid(tokenId),
          }),
        ),
      );
      assert.equal(new Set(results.map((r) => r.txHash)).size, 3);
      assert.equal(alone.mints.stats.batches, 0);
      for (const result of results) {
        const tx = await alone.provider.getTransaction(result.txHash);
        assert.equal(tx?.data.slice(0, 10), selector('mintWithId'));
      }
    } finally {
      await alone.close();
    }
  });
});

function selector(name: string): string {
  return new Contract(t.contractAddress, t.chain.artifact.abi as InterfaceAbi).interface.getFunction(name)!
    .selector;
}
