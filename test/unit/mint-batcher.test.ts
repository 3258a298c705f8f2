import assert from 'node:assert/strict';
import { test } from 'vitest';
import { MintBatcher, type MintOrder, type MintSender } from '../../src/adapters/chain/mint-batcher.ts';
import type { TxResult } from '../../src/adapters/chain/passport-types.ts';

/** A sender that records what leaves (single or batch) and lets the test decide when a transaction is in a block. */
function fakeSender(options: { included?: boolean } = {}) {
  const sent: bigint[][] = [];
  const inBlock = new Map<string, () => void>();
  const result = (txHash: string): TxResult => ({ txHash, blockNumber: 1, events: [] });
  const sender: MintSender = {
    single: async (order) => {
      const txHash = `0x${sent.length}`;
      sent.push([order.tokenId]);
      await order.onSubmitted?.(txHash);
      return result(txHash);
    },
    submitBatch: async (orders) => {
      const txHash = `0x${sent.length}`;
      sent.push(orders.map((o) => o.tokenId));
      return txHash;
    },
    wait: async (txHash) => result(txHash),
    isRefusal: () => false,
    ...(options.included === false
      ? {}
      : {
          included: (txHash: string) =>
            new Promise<void>((resolve) => {
              inBlock.set(txHash, resolve);
            }),
        }),
  };
  return { sender, sent, mine: (txHash: string) => inBlock.get(txHash)?.() };
}

const order = (tokenId: number): MintOrder => ({
  to: '0x0000000000000000000000000000000000000001',
  tokenId: BigInt(tokenId),
  metadataUri: `ipfs://${tokenId}`,
  chipHash: `0x${tokenId.toString(16).padStart(64, '0')}`,
  depositWei: 0n,
});
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

test('mints arriving while the last mint transaction waits for its block leave together once it is in', async () => {
  const { sender, sent, mine } = fakeSender();
  const batcher = new MintBatcher(sender, 10);
  const first = batcher.mint(order(1));
  await tick();
  assert.deepEqual(sent, [[1n]], 'a lone mint leaves at once');
  const later = [2, 3, 4].map((n) => batcher.mint(order(n)));
  await tick();
  assert.deepEqual(sent, [[1n]], 'held while the first waits for its block');
  mine('0x0');
  await Promise.all([first, ...later]);
  assert.deepEqual(sent, [[1n], [2n, 3n, 4n]]);
});

test('a full batch leaves without waiting for the block', async () => {
  const { sender, sent } = fakeSender();
  const batcher = new MintBatcher(sender, 3);
  void batcher.mint(order(1));
  await tick();
  const held = [2, 3].map((n) => batcher.mint(order(n)));
  await tick();
  assert.deepEqual(sent, [[1n]], 'two of three held');
  await Promise.all([...held, batcher.mint(order(4))]);
  assert.deepEqual(sent, [[1n], [2n, 3n, 4n]]);
});

test('without a way to see blocks (or on a node that mines at once) nothing is held', async () => {
  const { sender, sent } = fakeSender({ included: false });
  const batcher = new MintBatcher(sender, 10);
  await batcher.mint(order(1));
  await batcher.mint(order(2));
  assert.deepEqual(sent, [[1n], [2n]]);
});
