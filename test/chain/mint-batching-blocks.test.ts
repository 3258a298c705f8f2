import assert from 'node:assert/strict';
import { afterAll, beforeAll, test } from 'vitest';
import type { TxResult } from '../../src/adapters/chain/passport-types.ts';
import { type RealisticChain, startRealisticChain } from '../support/realistic-chain.ts';

// On a chain with a block time, mints that arrive one after the other while a mint transaction waits for its
// block are held back and leave together as one mintBatch once it is in (instead of one transaction each): they
// land in the next block either way, and one batch shares the per-transaction gas.

let chain: RealisticChain;
beforeAll(async () => {
  chain = await startRealisticChain({ blockTime: 2 });
});
afterAll(() => chain.stop());

const uid = (n: number) => `04B10C4000${n.toString(16).padStart(4, '0').toUpperCase()}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('mints arriving while a mint waits for its block leave together in the next one', async () => {
  const owner = chain.others[1]!.address;
  const mint = (n: number) =>
    chain.chain.writer.mint({ to: owner, tokenId: n, metadataUri: `ipfs://held-${n}`, chipUid: uid(n) });
  // right after a block: the first mint waits ~2 s for the next one
  await chain.waitBlocks(1);
  const first = mint(1);
  const later: Promise<TxResult>[] = [];
  for (let n = 2; n <= 6; n++) {
    await sleep(150); // one by one, each after the previous one could have been sent
    later.push(mint(n));
  }
  const alone = await first;
  const held = await Promise.all(later);
  assert.equal(new Set(held.map((r) => r.txHash)).size, 1, 'the five later mints share one transaction');
  assert.notEqual(held[0]!.txHash, alone.txHash);
  assert.ok(held[0]!.blockNumber > alone.blockNumber, 'sent once the first mint was in its block');
  assert.ok(held[0]!.blockNumber <= alone.blockNumber + 2, 'and mined right after it');
  for (let n = 1; n <= 6; n++) assert.equal(await chain.chain.reader.tokenURI(n), `ipfs://held-${n}`);
  const receipt = await chain.chain.provider.getTransactionReceipt(held[0]!.txHash);
  const single = await chain.chain.provider.getTransactionReceipt(alone.txHash);
  assert.ok(receipt!.gasUsed / 5n < single!.gasUsed, 'a held passport cost less gas than the lone one');
});
