import assert from 'node:assert/strict';
import { type Contract, type ContractTransactionReceipt, ZeroAddress } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { chipHash } from '../../src/adapters/chain/chip-hash.ts';
import { decodeRevert } from '../../src/adapters/chain/errors.ts';
import { assertReverts, startTestChain, type TestChain } from '../support/anvil.ts';
import { mined, rawMinterAndAdmin, rawPassport } from '../support/passport-contract.ts';

// mintRange: passports of one owner under consecutive ids, with one ERC-2309 ConsecutiveTransfer, the owner,
// deposit and base URI written once and no index entry per token. These tests pin that every token of a range
// still behaves as a passport of its own (owner, URI, chip, claim, recycling) and that ids and chips stay unique
// across ranges and the other mints.

let t: TestChain;
/** others[8] with MINTER_ROLE, others[6] with DEFAULT_ADMIN_ROLE (raw sends). */
let minter: Contract;
let admin: Contract;

const BASE = 'https://dpp.example.com/tokens/';
const uid = (n: number) => `04A0E000${n.toString(16).padStart(6, '0').toUpperCase()}`;
const chips = (first: number, count: number) =>
  Array.from({ length: count }, (_, i) => chipHash(uid(first + i)));
const connect = (privateKey: string) => rawPassport(t, privateKey);
const view = (name: string, ...args: unknown[]) => minter.getFunction(name)(...args) as Promise<unknown>;
const balance = (address: string) => t.chain.provider.getBalance(address);

beforeAll(async () => {
  t = await startTestChain();
  ({ minter, admin } = await rawMinterAndAdmin(t));
});
afterAll(() => t.stop());

async function send(
  from: Contract,
  method: string,
  args: unknown[],
  value = 0n,
): Promise<ContractTransactionReceipt> {
  try {
    return mined(await from.getFunction(method)(...args, { value }));
  } catch (error) {
    throw decodeRevert(from.interface, error) ?? error;
  }
}

const mintRange = (to: string, first: number, chipHashes: string[], deposit = 0n, baseUri = BASE) =>
  send(minter, 'mintRange', [to, first, chipHashes, deposit, baseUri], deposit * BigInt(chipHashes.length));

describe('mintRange', () => {
  test('every token of a range is a passport: owner, URI, chip, deposit, block; one ConsecutiveTransfer', async () => {
    const owner = t.others[0]!.address;
    const before = (await view('balanceOf', owner)) as bigint;
    const minted = (await view('totalMinted')) as bigint;
    const receipt = await mintRange(owner, 10, chips(10, 5), 3n);
    const names = receipt.logs.map((log) => minter.interface.parseLog(log)?.name);
    assert.deepEqual(names, ['ConsecutiveTransfer', 'RangeMinted'], 'no Transfer or Minted per token');
    const consecutive = minter.interface.parseLog(receipt.logs[0]!)!;
    assert.deepEqual([...consecutive.args].map(String), ['10', '14', ZeroAddress, owner].map(String));
    for (let id = 10; id <= 14; id++) {
      assert.equal(await t.chain.reader.ownerOf(id), owner);
      assert.equal(await t.chain.reader.tokenURI(id), `${BASE}${id}`);
      assert.equal(await t.chain.reader.chipHashOf(id), chipHash(uid(id)));
      assert.equal(await t.chain.reader.findTokenByChip(uid(id)), String(id));
      assert.equal(await t.chain.reader.depositOf(id), 3n);
      assert.equal(await view('mintBlockOf', id), BigInt(receipt.blockNumber));
    }
    assert.equal(await view('balanceOf', owner), before + 5n);
    assert.equal(await view('totalMinted'), minted + 5n);
    assert.equal(await t.chain.reader.lastTokenId(), '14');
    for (const outside of [9, 15])
      await assertReverts(t.chain.reader.ownerOf(outside), 'ERC721NonexistentToken', {
        tokenId: BigInt(outside),
      });
    // the service's recovery finds a range mint by its chip like any other
    assert.deepEqual(await t.chain.reader.findMintByChip(uid(12)), {
      tokenId: '12',
      chipHash: chipHash(uid(12)),
      owner,
      metadataUri: `${BASE}12`,
      deposit: 3n,
      txHash: receipt.hash,
      blockNumber: receipt.blockNumber,
    });
  });

  test('a token in the middle of a range is transferred, claimed and recycled alone', async () => {
    const [owner, buyer, claimant, receiver] = [t.others[0]!, t.others[4]!, t.others[3]!, t.others[7]!];
    await mintRange(owner.address, 20, chips(20, 5), 7n);
    await send(connect(owner.privateKey), 'transferFrom', [owner.address, buyer.address, 21n]);
    await send(admin, 'authorizeClaim', [22n, claimant.address]);
    await send(admin, 'claimOwnershipFor', [22n, claimant.address]);
    const paidBefore = await balance(receiver.address);
    await send(minter, 'recycle', [23n, receiver.address]);
    assert.equal(await balance(receiver.address), paidBefore + 7n, 'the deposit of that one token');
    const owners = await Promise.all([20, 21, 22, 23, 24].map((id) => t.chain.reader.ownerOf(id)));
    assert.deepEqual(owners, [owner.address, buyer.address, claimant.address, owner.address, owner.address]);
    const recycled = await Promise.all([20, 21, 22, 23, 24].map((id) => t.chain.reader.isRecycled(id)));
    assert.deepEqual(recycled, [false, false, false, true, false]);
    assert.equal(await t.chain.reader.depositOf(23), 0n);
    assert.equal(await t.chain.reader.depositOf(24), 7n);
    await assertReverts(send(minter, 'recycle', [23n, receiver.address]), 'AlreadyRecycled', {
      tokenId: 23n,
    });
    await assertReverts(
      send(connect(owner.privateKey), 'transferFrom', [owner.address, buyer.address, 23n]),
      'TokenIsRecycled',
      { tokenId: 23n },
    );
    // the buyer's token moves on from the buyer; the URI stays the token's own
    await send(connect(buyer.privateKey), 'transferFrom', [buyer.address, owner.address, 21n]);
    assert.equal(await t.chain.reader.ownerOf(21), owner.address);
    assert.equal(await t.chain.reader.tokenURI(21), `${BASE}21`);
  });

  test('a range across a 256-id boundary, and ranges next to each other', async () => {
    const owner = t.others[1]!.address;
    await mintRange(
      owner,
      250,
      chips(250, 11),
      0n,
      'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/',
    );
    await mintRange(owner, 261, chips(261, 2), 0n);
    for (const id of [250, 255, 256, 260])
      assert.equal(
        await t.chain.reader.tokenURI(id),
        `ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/${id}`,
      );
    assert.equal(await t.chain.reader.tokenURI(261), `${BASE}261`);
    assert.equal(await t.chain.reader.chipHashOf(262), chipHash(uid(262)));
    assert.equal(await t.chain.reader.chipHashOf(256), chipHash(uid(256)));
    await assertReverts(t.chain.reader.ownerOf(263), 'ERC721NonexistentToken', { tokenId: 263n });
    await assertReverts(t.chain.reader.ownerOf(249), 'ERC721NonexistentToken', { tokenId: 249n });
  });

  test('a chip is minted once: reused in a range, from an earlier mint or by a later one; nothing is minted', async () => {
    const owner = t.others[0]!.address;
    const last = await t.chain.reader.lastTokenId();
    const twice = [chipHash(uid(300)), chipHash(uid(301)), chipHash(uid(300))];
    await assertReverts(mintRange(owner, 300, twice), 'ChipAlreadyMinted', {
      chipHash: chipHash(uid(300)),
      tokenId: 300n,
    });
    await assertReverts(mintRange(owner, 300, [chipHash(uid(300)), chipHash(uid(12))]), 'ChipAlreadyMinted', {
      chipHash: chipHash(uid(12)),
      tokenId: 12n,
    });
    assert.equal(await t.chain.reader.lastTokenId(), last, 'all or none');
    assert.equal(await t.chain.reader.findTokenByChip(uid(300)), null);
    await assertReverts(
      send(minter, 'mintWithId', [owner, 400n, 'ipfs://x', chipHash(uid(13))]),
      'ChipAlreadyMinted',
      { chipHash: chipHash(uid(13)), tokenId: 13n },
    );
    await assertReverts(
      mintRange(owner, 300, [chipHash(uid(300)), `0x${'00'.repeat(32)}`]),
      'InvalidChipHash',
    );
  });

  test('ids: a range starts above every id minted, holds 1 to 256; no mint reuses an id of a range', async () => {
    const owner = t.others[0]!.address;
    const last = Number(await t.chain.reader.lastTokenId());
    await assertReverts(mintRange(owner, last, chips(500, 1)), 'InvalidRange', {
      firstTokenId: BigInt(last),
      count: 1n,
    });
    await assertReverts(mintRange(owner, last + 1, []), 'InvalidRange', {
      firstTokenId: BigInt(last + 1),
      count: 0n,
    });
    await assertReverts(mintRange(owner, last + 1, chips(500, 257)), 'InvalidRange', {
      firstTokenId: BigInt(last + 1),
      count: 257n,
    });
    // below the highest id a mintWithId may fill a gap, never an id inside a range
    await assertReverts(
      send(minter, 'mintWithId', [owner, 22n, 'ipfs://x', chipHash(uid(600))]),
      'TokenAlreadyMinted',
      {
        tokenId: 22n,
      },
    );
    await send(minter, 'mintWithId', [owner, 17n, 'ipfs://gap', chipHash(uid(600))]);
    assert.equal(await t.chain.reader.tokenURI(17), 'ipfs://gap');
    await assertReverts(
      send(minter, 'mintRange', [owner, last + 1, chips(500, 2), 5n, BASE], 9n),
      'DepositMismatch',
      { ordered: 10n, sent: 9n },
    );
    await assertReverts(mintRange(owner, last + 1, chips(500, 2), 0n, ''), 'EmptyMetadataUri');
  });

  test('a range of 100 costs at most 0.2 of a single mint per passport', async () => {
    const owner = t.others[0]!.address;
    const first = Number(await t.chain.reader.lastTokenId()) + 1;
    // the steady state (the owner already holds passports), five ids in a row: one of them opens an index slot
    let singles = 0;
    for (let i = 0; i < 5; i++) {
      const uri = `ipfs://bafkrei${String(i).repeat(52)}`;
      const receipt = await send(
        minter,
        'mintWithId',
        [owner, BigInt(first + i), uri, chipHash(uid(700 + i))],
        1n,
      );
      singles += Number(receipt.gasUsed);
    }
    const single = singles / 5;
    const range = await mintRange(owner, first + 5, chips(705, 100), 1n);
    const perPassport = Number(range.gasUsed) / 100;
    assert.ok(
      perPassport <= 0.2 * single,
      `${perPassport} gas per passport in a range of 100, single mint ${single}`,
    );
  });
});
