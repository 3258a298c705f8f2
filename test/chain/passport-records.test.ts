import assert from 'node:assert/strict';
import { type Contract, type ContractTransactionReceipt, parseEther, Wallet, ZeroAddress } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { chipHash } from '../../src/adapters/chain/chip-hash.ts';
import { decodeRevert } from '../../src/adapters/chain/errors.ts';
import { assertReverts, startTestChain, type TestChain } from '../support/anvil.ts';
import {
  type MintOrder,
  mined,
  rawMinterAndAdmin,
  rawPassport,
  sendMintBatch,
} from '../support/passport-contract.ts';

// The contract keeps what a passport never changes (chip hash, first owner, deposit, URI) in one data record per
// mint transaction, the owner only once a token moved, and per token only an index entry and the chip's slot.
// These tests pin what a user of the contract sees of that layout: tokens in the middle of a batch moved,
// claimed and recycled alone, ids of two batches interleaved, every URI as ordered, chips unique across batch
// and single mints, and the gas a batched passport saves.

let t: TestChain;
/** others[8] with MINTER_ROLE (raw sends; the platform account belongs to the adapter's transaction manager). */
let minter: Contract;
/** others[6] with DEFAULT_ADMIN_ROLE (claims). */
let admin: Contract;

const connect = (privateKey: string) => rawPassport(t, privateKey);

beforeAll(async () => {
  t = await startTestChain();
  ({ minter, admin } = await rawMinterAndAdmin(t));
});
afterAll(() => t.stop());

const uid = (n: number) => `04C0DE0000${n.toString(16).padStart(4, '0').toUpperCase()}`;
const cid = (n: number) =>
  `ipfs://bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenx${String(n).padStart(6, '0')}`;
const balance = (address: string) => t.chain.provider.getBalance(address);
const balanceOf = (owner: string) => minter.getFunction('balanceOf')(owner) as Promise<bigint>;

function order(n: number, to: string, deposit = 0n, metadataUri = cid(n)): MintOrder {
  return { to, tokenId: BigInt(n), metadataUri, chipHash: chipHash(uid(n)), deposit };
}

const mintBatch = (orders: readonly MintOrder[]) => sendMintBatch(minter, orders);

async function mintOne(o: MintOrder): Promise<ContractTransactionReceipt> {
  try {
    const tx = await minter.getFunction('mintWithId')(o.to, o.tokenId, o.metadataUri, o.chipHash, {
      value: o.deposit,
    });
    return mined(tx);
  } catch (error) {
    throw decodeRevert(minter.interface, error) ?? error;
  }
}

/** Every view of the orders' tokens answers what was ordered (owner as given in `owners`, default the order's). */
async function assertAsOrdered(orders: readonly MintOrder[], owners: Record<string, string> = {}) {
  for (const o of orders) {
    const label = `token ${o.tokenId}`;
    assert.equal(await t.chain.reader.ownerOf(o.tokenId), owners[String(o.tokenId)] ?? o.to, label);
    assert.equal(await t.chain.reader.tokenURI(o.tokenId), o.metadataUri, label);
    assert.equal(await t.chain.reader.chipHashOf(o.tokenId), o.chipHash, label);
    assert.equal(await t.chain.reader.depositOf(o.tokenId), o.deposit, label);
    assert.equal(await t.chain.reader.isRecycled(o.tokenId), false, label);
    assert.equal(await t.chain.reader.findTokenByChip(uid(Number(o.tokenId))), String(o.tokenId), label);
  }
}

describe('passports of one batch', () => {
  test('every token keeps its own URI, chip, deposit and owner (shared or not, any URI length)', async () => {
    const [a, b] = [t.others[0]!.address, t.others[1]!.address];
    const shared = [order(1, a, 5n), order(2, a, 5n), order(3, a, 5n, 'ipfs://x'), order(4, a, 5n)];
    const mixed = [
      order(11, a, 1n),
      order(12, b, 0n, `https://example.com/${'p'.repeat(300)}/é✓`),
      order(13, a, parseEther('0.02')),
      order(14, b, 7n, 'x'),
    ];
    const before = { a: await balanceOf(a), b: await balanceOf(b) };
    await mintBatch(shared);
    await mintBatch(mixed);
    await assertAsOrdered([...shared, ...mixed]);
    assert.equal(await balanceOf(a), before.a + 6n);
    assert.equal(await balanceOf(b), before.b + 2n);
    const block = (await t.chain.reader.findMintByChip(uid(12)))!;
    assert.equal(block.metadataUri, mixed[1]!.metadataUri, 'the Minted event carries the URI as ordered');
    assert.equal(block.owner, b);
    assert.equal(block.deposit, 0n);
  });

  test('ids of two batches interleaved (two workers sharing one id sequence) stay apart', async () => {
    const [a, b] = [t.others[2]!.address, t.others[3]!.address];
    const first = [order(21, a, 2n), order(23, a, 2n), order(26, a, 2n)];
    const second = [order(22, b, 3n), order(24, b, 3n), order(25, b, 3n), order(27, b, 3n)];
    await mintBatch(first);
    await mintBatch(second);
    await assertAsOrdered([...first, ...second]);
    await assertReverts(t.chain.reader.ownerOf(20), 'ERC721NonexistentToken', { tokenId: 20n });
    await assertReverts(t.chain.reader.ownerOf(28), 'ERC721NonexistentToken', { tokenId: 28n });
    await assertReverts(t.chain.reader.depositOf(28), 'UnknownToken', { tokenId: 28n });
  });

  test('a token in the middle of a batch is transferred alone; approvals and balances follow', async () => {
    const [owner, buyer, operator] = [t.others[0]!, t.others[4]!, t.others[5]!];
    const orders = [order(31, owner.address, 4n), order(32, owner.address, 4n), order(33, owner.address, 4n)];
    await mintBatch(orders);
    const before = { owner: await balanceOf(owner.address), buyer: await balanceOf(buyer.address) };
    const asOwner = connect(owner.privateKey);
    const asOperator = connect(operator.privateKey);
    // the operator may not move it before it is approved
    const refused = await asOperator
      .getFunction('transferFrom')
      .staticCall(owner.address, buyer.address, 32n)
      .catch((e: unknown) => e);
    assert.equal(decodeRevert(asOperator.interface, refused)?.name, 'ERC721InsufficientApproval');
    await mined(await asOwner.getFunction('approve')(operator.address, 32n));
    assert.equal(await asOwner.getFunction('getApproved')(32n), operator.address);
    await mined(await asOperator.getFunction('transferFrom')(owner.address, buyer.address, 32n));
    assert.equal(
      await asOwner.getFunction('getApproved')(32n),
      ZeroAddress,
      'the transfer cleared the approval',
    );
    await assertAsOrdered(orders, { '32': buyer.address });
    assert.equal(await balanceOf(owner.address), before.owner - 1n);
    assert.equal(await balanceOf(buyer.address), before.buyer + 1n);
    // the previous owner cannot move it any more; the new one can, even back
    const stale = await asOwner
      .getFunction('transferFrom')
      .staticCall(owner.address, buyer.address, 32n)
      .catch((e: unknown) => e);
    assert.equal(decodeRevert(asOwner.interface, stale)?.name, 'ERC721InsufficientApproval');
    await mined(
      await connect(buyer.privateKey).getFunction('transferFrom')(buyer.address, owner.address, 32n),
    );
    await assertAsOrdered(orders);
    assert.equal(await balanceOf(owner.address), before.owner);
    assert.equal(await balanceOf(buyer.address), before.buyer);
  });

  test('a claim in the middle of a batch moves that token only and clears the authorization', async () => {
    const [owner, buyer] = [t.others[0]!.address, t.others[7]!.address];
    const orders = [order(41, owner), order(42, owner), order(43, owner)];
    await mintBatch(orders);
    await mined(await admin.getFunction('authorizeClaim')(42n, buyer));
    assert.equal(await t.chain.reader.claimantOf(42), buyer);
    assert.equal(await t.chain.reader.claimantOf(41), null);
    const receipt = await mined(await admin.getFunction('claimOwnershipFor')(42n, buyer));
    const claimed = receipt.logs
      .map((log) => admin.interface.parseLog(log))
      .find((event) => event?.name === 'OwnershipClaimed');
    assert.deepEqual([...(claimed?.args ?? [])], [42n, owner, buyer]);
    await assertAsOrdered(orders, { '42': buyer });
    assert.equal(await t.chain.reader.claimantOf(42), null);
    assert.equal(await balanceOf(buyer), 1n);
  });

  test('recycling a token of a batch pays exactly its deposit, once; its neighbours keep theirs', async () => {
    const owner = t.others[0]!.address;
    const receiver = Wallet.createRandom().address;
    const shared = [order(51, owner, 6n), order(52, owner, 6n), order(53, owner, 6n)];
    const mixed = [
      order(54, owner, 1n),
      order(55, t.others[1]!.address, parseEther('0.5')),
      order(56, owner, 0n),
    ];
    await mintBatch(shared);
    await mintBatch(mixed);
    const held = await balance(t.contractAddress);
    for (const [tokenId, deposit] of [
      [52n, 6n],
      [55n, parseEther('0.5')],
    ] as const) {
      const paidBefore = await balance(receiver);
      const recycled = await t.chain.writer.recycle({ tokenId, rewardReceiver: receiver });
      assert.equal(recycled.amount, deposit);
      assert.equal(await balance(receiver), paidBefore + deposit);
      assert.equal(await t.chain.reader.isRecycled(tokenId), true);
      assert.equal(await t.chain.reader.depositOf(tokenId), 0n, 'paid out');
      await assertReverts(t.chain.writer.recycle({ tokenId, rewardReceiver: receiver }), 'AlreadyRecycled', {
        tokenId,
      });
      // its URI and chip stay readable; it cannot move any more
      assert.equal(await t.chain.reader.tokenURI(tokenId), cid(Number(tokenId)));
      assert.equal(await t.chain.reader.chipHashOf(tokenId), chipHash(uid(Number(tokenId))));
    }
    assert.equal(await balance(t.contractAddress), held - 6n - parseEther('0.5'));
    await assertAsOrdered([shared[0]!, shared[2]!, mixed[0]!, mixed[2]!]);
    const frozen = await connect(t.others[1]!.privateKey)
      .getFunction('transferFrom')
      .staticCall(t.others[1]!.address, owner, 55n)
      .catch((e: unknown) => e);
    assert.equal(decodeRevert(minter.interface, frozen)?.name, 'TokenIsRecycled');
  });
});

describe('chip uniqueness and limits', () => {
  test('a chip minted alone cannot be in a batch, nor a batched chip minted alone', async () => {
    const owner = t.others[2]!.address;
    await mintOne(order(61, owner, 1n));
    const total = await t.chain.reader.totalMinted();
    await assertReverts(
      mintBatch([order(62, owner), { ...order(63, owner), chipHash: chipHash(uid(61)) }]),
      'ChipAlreadyMinted',
      {
        chipHash: chipHash(uid(61)),
        tokenId: 61n,
      },
    );
    await mintBatch([order(64, owner), order(65, owner)]);
    await assertReverts(mintOne({ ...order(66, owner), chipHash: chipHash(uid(65)) }), 'ChipAlreadyMinted', {
      chipHash: chipHash(uid(65)),
      tokenId: 65n,
    });
    await assertReverts(
      mintBatch([order(67, owner), { ...order(68, owner), chipHash: chipHash(uid(67)) }]),
      'ChipAlreadyMinted',
      { chipHash: chipHash(uid(67)), tokenId: 67n },
    );
    assert.equal(await t.chain.reader.totalMinted(), total + 2n);
    for (const n of [62, 63, 66, 67, 68])
      await assertReverts(t.chain.reader.ownerOf(n), 'ERC721NonexistentToken');
  });

  test('passports that do not fit one record (24,576 bytes) are refused as a whole', async () => {
    const owner = t.others[2]!.address;
    const long = 'ipfs://'.padEnd(12_400, 'q');
    await assertReverts(
      mintBatch([order(71, owner, 0n, long), order(72, owner, 0n, long)]),
      'MintDataTooLarge',
    );
    await assertReverts(t.chain.reader.ownerOf(71), 'ERC721NonexistentToken');
    await mintBatch([order(71, owner, 0n, long)]);
    assert.equal(await t.chain.reader.tokenURI(71), long);
  });
});

describe('gas', () => {
  test('a passport of a 20-passport batch costs at most half of a single mint', async () => {
    const owner = t.others[0]!.address;
    const deposit = parseEther('0.001');
    await mintOne(order(100, owner, deposit)); // not the contract's first mint (no first-write costs)
    const single = (await mintOne(order(102, owner, deposit))).gasUsed;
    // ids interleaved with another batcher's (odd ones), as two workers share the id sequence
    const orders = Array.from({ length: 20 }, (_, i) => order(104 + 2 * i, owner, deposit));
    const batch = (await mintBatch(orders)).gasUsed;
    const ratio = Number(batch) / orders.length / Number(single);
    assert.ok(single < 170_000n, `single mint ${single} gas`);
    assert.ok(ratio <= 0.5, `batch ${batch / 20n} per passport, single ${single}: ratio ${ratio.toFixed(3)}`);
  });
});
