import assert from 'node:assert/strict';
import { type Contract, parseEther, Wallet, ZeroAddress, ZeroHash } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { chipHash } from '../../src/adapters/chain/chip-hash.ts';
import { assertReverts, startTestChain, type TestChain } from '../support/anvil.ts';
import {
  ADMIN_ROLE,
  depositsOf,
  grantRole,
  MINTER_ROLE,
  type MintOrder,
  mined,
  rawPassport,
  sendMintBatch,
} from '../support/passport-contract.ts';

let t: TestChain;
/**
 * Raw contract for a separate account (others[8]) granted MINTER_ROLE: the platform account is
 * driven by the adapter `t.chain` and its transaction manager, so raw sends never share its nonces.
 */
let batcher: Contract;
/** others[7]: no role at all. */
let outsider: Contract;
/** others[6]: DEFAULT_ADMIN_ROLE only (no MINTER_ROLE). */
let adminOnly: Contract;

const connectRaw = (privateKey: string) => rawPassport(t, privateKey);

beforeAll(async () => {
  t = await startTestChain();
  // every raw send of the platform (admin) account happens here, before the adapter sends anything
  await grantRole(t, MINTER_ROLE, t.others[8]!.address);
  await grantRole(t, ADMIN_ROLE, t.others[6]!.address);
  batcher = connectRaw(t.others[8]!.privateKey);
  outsider = connectRaw(t.others[7]!.privateKey);
  adminOnly = connectRaw(t.others[6]!.privateKey);
});
afterAll(() => t.stop());

const uid = (n: number) => `04BA7C0000${n.toString(16).padStart(4, '0').toUpperCase()}`;
const balance = (address: string) => t.chain.provider.getBalance(address);
const sum = depositsOf;

/** The order of chip `n` under token id `n` (unless given), URI ipfs://batch-n. */
function order(n: number, to: string, deposit = 0n, tokenId: bigint = BigInt(n)): MintOrder {
  return { to, tokenId, metadataUri: `ipfs://batch-${n}`, chipHash: chipHash(uid(n)), deposit };
}

/** Sends mintBatch (from the batcher unless `from`) and waits for it; a revert becomes a ChainRevert. */
const mintBatch = (orders: readonly MintOrder[], value = sum(orders), from = batcher) =>
  sendMintBatch(from, orders, value);

/**
 * Sends mintBatch with a fixed gas limit (no estimate), so that a failing batch is mined as a
 * reverted transaction; returns its hash once mined, whatever its status.
 */
async function mintBatchMined(orders: readonly MintOrder[], value = sum(orders)) {
  const tx = await batcher.getFunction('mintBatch')(orders, { value, gasLimit: 5_000_000n });
  await mined(tx).catch(() => undefined);
  const receipt = await t.chain.provider.getTransactionReceipt(tx.hash);
  assert.ok(receipt, 'the batch transaction was mined');
  return receipt;
}

/** What a user sees of a set of orders: contract balance, counters, owner balances, chips. */
async function snapshot(orders: readonly MintOrder[]) {
  const balanceOf = batcher.getFunction('balanceOf');
  return {
    contractBalance: await balance(t.contractAddress),
    totalMinted: await t.chain.reader.totalMinted(),
    lastTokenId: await t.chain.reader.lastTokenId(),
    owners: await Promise.all(orders.map((o) => (o.to === ZeroAddress ? 0n : balanceOf(o.to)))),
  };
}

/** None of the orders' tokens exist (unless listed in `existing`), nor do their chips resolve. */
async function assertNotMinted(orders: readonly MintOrder[], existing: ReadonlySet<bigint> = new Set()) {
  for (const o of orders) {
    if (existing.has(o.tokenId)) continue;
    if (o.tokenId !== 0n && o.tokenId < 2n ** 64n) {
      await assertReverts(t.chain.reader.ownerOf(o.tokenId), 'ERC721NonexistentToken', {
        tokenId: o.tokenId,
      });
      await assertReverts(t.chain.reader.depositOf(o.tokenId), 'UnknownToken', { tokenId: o.tokenId });
    }
  }
}

describe('mintBatch', () => {
  test('mints every order under its id, owner, URI, chip and deposit in one transaction', async () => {
    const [a, b, c] = [t.others[0]!.address, t.others[1]!.address, t.others[2]!.address];
    // ids out of order and with gaps (reserved ids), deposits differ, one without deposit
    const orders = [order(5, a, parseEther('0.1')), order(9, b, 0n), order(7, c, parseEther('0.25'))];
    const before = await snapshot(orders);
    assert.equal(before.totalMinted, 0n);

    const receipt = await mintBatch(orders);
    assert.equal(receipt.status, 1);

    for (const o of orders) {
      assert.equal(await t.chain.reader.ownerOf(o.tokenId), o.to);
      assert.equal(await t.chain.reader.tokenURI(o.tokenId), o.metadataUri);
      assert.equal(await t.chain.reader.depositOf(o.tokenId), o.deposit);
      assert.equal(await t.chain.reader.chipHashOf(o.tokenId), o.chipHash);
      assert.equal(await t.chain.reader.isRecycled(o.tokenId), false);
      assert.equal(await t.chain.reader.claimantOf(o.tokenId), null);
      assert.equal(await batcher.getFunction('mintBlockOf')(o.tokenId), BigInt(receipt.blockNumber));
    }
    assert.equal(await t.chain.reader.findTokenByChip(uid(5)), '5');
    assert.equal(await t.chain.reader.findTokenByChip(uid(9).toLowerCase()), '9');
    assert.equal(await t.chain.reader.findTokenByChip(uid(7)), '7');

    const events = receipt.logs.map((log) => batcher.interface.parseLog(log)).filter((e) => e !== null);
    const argsOf = (name: string) =>
      events
        .filter((e) => e.name === name)
        .map((e) => Object.fromEntries(e.fragment.inputs.map((input, i) => [input.name, e.args[i]])));
    assert.deepEqual(
      argsOf('Minted'),
      orders.map((o) => ({
        tokenId: o.tokenId,
        owner: o.to,
        chipHash: o.chipHash,
        metadataUri: o.metadataUri,
        deposit: o.deposit,
      })),
      'one Minted per order, in the order of the batch',
    );
    assert.deepEqual(
      argsOf('Transfer'),
      orders.map((o) => ({ from: ZeroAddress, to: o.to, tokenId: o.tokenId })),
    );

    const after = await snapshot(orders);
    assert.equal(after.contractBalance - before.contractBalance, parseEther('0.35'));
    assert.equal(after.totalMinted, 3n);
    assert.equal(after.lastTokenId, '9', 'the highest id of the batch, not the last order');
    assert.deepEqual(
      after.owners,
      before.owners.map((n) => n + 1n),
    );

    // the adapter finds a batch-minted passport with the batch transaction, like a single mint
    assert.deepEqual(await t.chain.reader.findMintByChip(uid(9)), {
      tokenId: '9',
      chipHash: chipHash(uid(9)),
      owner: b,
      metadataUri: 'ipfs://batch-9',
      deposit: 0n,
      txHash: receipt.hash,
      blockNumber: receipt.blockNumber,
    });
    // a sequential mint continues above the batch's highest id; gaps below stay free for the batch
    const next = await t.chain.writer.mint({ to: a, metadataUri: 'ipfs://next', chipUid: uid(10) });
    assert.equal(next.tokenId, '10');
    assert.equal((await mintBatch([order(6, a)])).status, 1);
    assert.equal(await t.chain.reader.ownerOf(6), a);
    assert.equal(await t.chain.reader.lastTokenId(), '10');
  });

  test('a batch of one behaves like mintWithId', async () => {
    const owner = t.others[3]!.address;
    const receipt = await mintBatch([order(20, owner, 11n)]);
    assert.equal(await t.chain.reader.ownerOf(20), owner);
    assert.equal(await t.chain.reader.depositOf(20), 11n);
    assert.equal(receipt.logs.filter((log) => batcher.interface.parseLog(log)?.name === 'Minted').length, 1);
  });
});

describe('mintBatch is all or nothing', () => {
  test('a chip minted before fails the batch with ChipAlreadyMinted; the other orders are not minted', async () => {
    const owner = t.others[0]!.address;
    const existing = await t.chain.writer.mint({
      to: t.others[4]!.address,
      metadataUri: 'ipfs://single',
      chipUid: uid(31),
      tokenId: 35,
    });
    // the 2nd order carries the already minted chip, under a fresh id
    const orders = [
      order(30, owner, 5n),
      { ...order(31, owner, 6n), tokenId: 31n },
      order(32, t.others[1]!.address, 7n),
    ];
    const before = await snapshot(orders);
    const expected = { chipHash: chipHash(uid(31)), tokenId: 35n };

    // refused before sending (gas estimate) ...
    await assertReverts(mintBatch(orders), 'ChipAlreadyMinted', expected);
    // ... and, when sent anyway, mined as a reverted transaction that changed nothing
    const senderBefore = await balance(t.others[8]!.address);
    const receipt = await mintBatchMined(orders);
    assert.equal(receipt.status, 0);
    await assertReverts(t.chain.writer.waitForTransaction(receipt.hash), 'ChipAlreadyMinted', expected);
    assert.equal(
      await balance(t.others[8]!.address),
      senderBefore - receipt.fee,
      'the sender only paid gas: the deposits came back',
    );

    assert.deepEqual(await snapshot(orders), before);
    await assertNotMinted(orders);
    assert.equal(await t.chain.reader.findTokenByChip(uid(30)), null);
    assert.equal(await t.chain.reader.findTokenByChip(uid(32)), null);
    assert.equal(
      await t.chain.reader.findTokenByChip(uid(31)),
      existing.tokenId,
      'the earlier mint is untouched',
    );
    assert.equal(await t.chain.reader.ownerOf(35), t.others[4]!.address);
  });

  test('two orders with the same chip: ChipAlreadyMinted names the first order, which is undone', async () => {
    const owner = t.others[1]!.address;
    const orders = [order(40, owner, 1n), { ...order(40, owner, 2n), tokenId: 41n }, order(42, owner)];
    const before = await snapshot(orders);
    const receipt = await mintBatchMined(orders);
    assert.equal(receipt.status, 0);
    await assertReverts(t.chain.writer.waitForTransaction(receipt.hash), 'ChipAlreadyMinted', {
      chipHash: chipHash(uid(40)),
      tokenId: 40n,
    });
    assert.deepEqual(await snapshot(orders), before);
    await assertNotMinted(orders);
    assert.equal(await t.chain.reader.findTokenByChip(uid(40)), null);
  });

  test('a token id taken before, or twice in the batch, fails it with TokenAlreadyMinted', async () => {
    const owner = t.others[2]!.address;
    // id 5 was minted by the first batch
    const taken = [order(50, owner, 3n), { ...order(51, owner), tokenId: 5n }];
    const before = await snapshot(taken);
    await assertReverts(mintBatch(taken), 'TokenAlreadyMinted', { tokenId: 5n });
    const receipt = await mintBatchMined(taken);
    assert.equal(receipt.status, 0);
    assert.deepEqual(await snapshot(taken), before);
    await assertNotMinted(taken, new Set([5n]));
    assert.equal(await t.chain.reader.ownerOf(5), t.others[0]!.address, 'the owner of id 5 keeps it');
    assert.equal(await t.chain.reader.chipHashOf(5), chipHash(uid(5)));

    const twice = [order(52, owner), order(53, owner, 0n, 52n)];
    await assertReverts(mintBatch(twice), 'TokenAlreadyMinted', { tokenId: 52n });
    await assertNotMinted(twice);
    assert.equal(await t.chain.reader.findTokenByChip(uid(52)), null);
  });

  test('every per-order check of mintWithId fails the whole batch, even in its last order', async () => {
    const owner = t.others[3]!.address;
    const good = [order(60, owner, 4n), order(61, t.others[4]!.address, 5n)];
    const cases: Array<[string, MintOrder, string, Record<string, unknown>?]> = [
      ['token id 0', order(62, owner, 1n, 0n), 'InvalidTokenId', { tokenId: 0n }],
      ['token id beyond 64 bits', order(62, owner, 1n, 2n ** 64n), 'InvalidTokenId', { tokenId: 2n ** 64n }],
      ['zero chip hash', { ...order(62, owner, 1n), chipHash: ZeroHash }, 'InvalidChipHash', {}],
      ['empty URI', { ...order(62, owner, 1n), metadataUri: '' }, 'EmptyMetadataUri', {}],
      ['zero owner', order(62, ZeroAddress, 1n), 'ERC721InvalidReceiver', { receiver: ZeroAddress }],
    ];
    for (const [label, bad, name, args] of cases) {
      const orders = [...good, bad];
      const before = await snapshot(orders);
      await assertReverts(mintBatch(orders), name, args);
      const receipt = await mintBatchMined(orders);
      assert.equal(receipt.status, 0, label);
      await assertReverts(t.chain.writer.waitForTransaction(receipt.hash), name, args);
      assert.deepEqual(await snapshot(orders), before, label);
      await assertNotMinted(orders);
      assert.equal(await t.chain.reader.findTokenByChip(uid(60)), null, label);
    }
  });
});

describe('mintBatch deposits', () => {
  test('msg.value must be the sum of the deposits: DepositMismatch(ordered, sent) otherwise', async () => {
    const owner = t.others[0]!.address;
    const orders = [order(70, owner, 3n), order(71, owner, 4n)];
    const before = await snapshot(orders);
    await assertReverts(mintBatch(orders, 6n), 'DepositMismatch', { ordered: 7n, sent: 6n });
    await assertReverts(mintBatch(orders, 8n), 'DepositMismatch', { ordered: 7n, sent: 8n });
    await assertReverts(mintBatch(orders, 0n), 'DepositMismatch', { ordered: 7n, sent: 0n });
    await assertReverts(mintBatch(orders, parseEther('1')), 'DepositMismatch', {
      ordered: 7n,
      sent: parseEther('1'),
    });
    const free = [order(72, owner), order(73, owner)];
    await assertReverts(mintBatch(free, 1n), 'DepositMismatch', { ordered: 0n, sent: 1n });

    // overpaying, sent anyway: reverted, the contract keeps nothing, the sender only paid gas
    const senderBefore = await balance(t.others[8]!.address);
    const receipt = await mintBatchMined(orders, parseEther('1'));
    assert.equal(receipt.status, 0);
    await assertReverts(t.chain.writer.waitForTransaction(receipt.hash), 'DepositMismatch', {
      ordered: 7n,
      sent: parseEther('1'),
    });
    assert.equal(await balance(t.others[8]!.address), senderBefore - receipt.fee);
    assert.deepEqual(await snapshot(orders), before);
    await assertNotMinted([...orders, ...free]);

    // the exact sum goes through
    await mintBatch(orders, 7n);
    assert.equal(await balance(t.contractAddress), before.contractBalance + 7n);
    assert.equal(await t.chain.reader.depositOf(70), 3n);
    assert.equal(await t.chain.reader.depositOf(71), 4n);
  });

  test('deposits locked by a batch are released per token by recycle, like single mints', async () => {
    const orders = [
      order(80, t.others[0]!.address, parseEther('0.3')),
      order(81, t.others[1]!.address, parseEther('0.05')),
      order(82, t.others[2]!.address, 0n),
    ];
    await mintBatch(orders);
    const receiver = Wallet.createRandom().address;
    const contractBefore = await balance(t.contractAddress);

    const result = await t.chain.writer.recycle({ tokenId: 81, rewardReceiver: receiver });
    assert.equal(result.amount, parseEther('0.05'));
    assert.deepEqual(result.events, [
      { name: 'Recycled', args: { tokenId: 81n, rewardReceiver: receiver, amount: parseEther('0.05') } },
    ]);
    assert.equal(await balance(receiver), parseEther('0.05'), 'exactly that order’s deposit');
    assert.equal(await balance(t.contractAddress), contractBefore - parseEther('0.05'));
    assert.equal(await t.chain.reader.isRecycled(81), true);
    assert.equal(await t.chain.reader.depositOf(81), 0n);
    // the other passports of the batch keep their deposits
    assert.equal(await t.chain.reader.isRecycled(80), false);
    assert.equal(await t.chain.reader.depositOf(80), parseEther('0.3'));
    await assertReverts(
      t.chain.writer.recycle({ tokenId: 81, rewardReceiver: receiver }),
      'AlreadyRecycled',
      {
        tokenId: 81n,
      },
    );
    assert.equal(await balance(receiver), parseEther('0.05'));

    const second = Wallet.createRandom().address;
    assert.equal(
      (await t.chain.writer.recycle({ tokenId: 80, rewardReceiver: second })).amount,
      parseEther('0.3'),
    );
    assert.equal(await balance(second), parseEther('0.3'));
    assert.equal((await t.chain.writer.recycle({ tokenId: 82, rewardReceiver: second })).amount, 0n);
    assert.equal(await balance(t.contractAddress), contractBefore - parseEther('0.35'));
  });

  test('the contract holds exactly the deposits of the passports not yet recycled', async () => {
    let locked = 0n;
    let count = 0n;
    for (let tokenId = 1n; tokenId <= BigInt(await t.chain.reader.lastTokenId()); tokenId++) {
      const deposit = await t.chain.reader.depositOf(tokenId).catch(() => undefined);
      if (deposit === undefined) continue;
      locked += deposit;
      count++;
    }
    assert.equal(count, await t.chain.reader.totalMinted());
    assert.equal(await balance(t.contractAddress), locked);
  });
});

describe('mintBatch input and access', () => {
  test('an empty batch is refused with EmptyBatch, with or without value', async () => {
    await assertReverts(mintBatch([]), 'EmptyBatch', {});
    await assertReverts(mintBatch([], 5n), 'EmptyBatch', {});
    const receipt = await mintBatchMined([]);
    assert.equal(receipt.status, 0);
    await assertReverts(t.chain.writer.waitForTransaction(receipt.hash), 'EmptyBatch');
  });

  test('only MINTER_ROLE mints batches: no role, or the admin role alone, is refused', async () => {
    const orders = [order(90, t.others[0]!.address, 2n), order(91, t.others[1]!.address)];
    const before = await snapshot(orders);
    for (const [label, contract, account] of [
      ['outsider', outsider, t.others[7]!.address],
      ['admin without minter role', adminOnly, t.others[6]!.address],
    ] as const) {
      const error = await assertReverts(mintBatch(orders, 2n, contract), 'AccessControlUnauthorizedAccount', {
        account,
        neededRole: MINTER_ROLE,
      });
      assert.match(error.message, /lacks the required role/, label);
    }
    assert.deepEqual(await snapshot(orders), before);
    await assertNotMinted(orders);
    assert.equal(await adminOnly.getFunction('hasRole')(ADMIN_ROLE, t.others[6]!.address), true);
    assert.equal(await batcher.getFunction('hasRole')(MINTER_ROLE, t.others[8]!.address), true);
  });
});
