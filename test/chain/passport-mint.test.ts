import assert from 'node:assert/strict';
import { Contract, type JsonFragment, keccak256, toUtf8Bytes, Wallet, ZeroAddress, ZeroHash } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { chipHash } from '../../src/adapters/chain/chip-hash.ts';
import { decodeRevert } from '../../src/adapters/chain/errors.ts';
import { assertReverts, startTestChain, type TestChain } from '../support/anvil.ts';

let t: TestChain;
beforeAll(async () => {
  t = await startTestChain();
});
afterAll(() => t.stop());

const uid = (n: number) => `04A1B2C3D4E5${n.toString(16).padStart(2, '0').toUpperCase()}`;

describe('mint', () => {
  test('mints sequential token ids from 1, binding chip, URI, owner and deposit, with events', async () => {
    const owner = t.others[0]!.address;
    const first = await t.chain.writer.mint({
      to: owner,
      metadataUri: 'ipfs://bafy-one',
      chipUid: uid(1),
      depositWei: 7n,
    });
    const second = await t.chain.writer.mint({ to: owner, metadataUri: 'ipfs://bafy-two', chipUid: uid(2) });
    assert.equal(first.tokenId, '1');
    assert.equal(second.tokenId, '2');
    assert.match(first.txHash, /^0x[0-9a-f]{64}$/);
    assert.ok(second.blockNumber > first.blockNumber);
    assert.equal(first.chipHash, chipHash(uid(1)));
    assert.deepEqual(first.events.find((e) => e.name === 'Minted')?.args, {
      tokenId: 1n,
      owner,
      chipHash: chipHash(uid(1)),
      metadataUri: 'ipfs://bafy-one',
      deposit: 7n,
    });
    assert.deepEqual(first.events.find((e) => e.name === 'Transfer')?.args, {
      from: ZeroAddress,
      to: owner,
      tokenId: 1n,
    });

    assert.equal(await t.chain.reader.ownerOf(1n), owner);
    assert.equal(await t.chain.reader.tokenURI('1'), 'ipfs://bafy-one');
    assert.equal(await t.chain.reader.depositOf(1), 7n);
    assert.equal(await t.chain.reader.depositOf(2), 0n);
    assert.equal(await t.chain.reader.isRecycled(1), false);
    assert.equal(await t.chain.reader.chipHashOf(2), chipHash(uid(2)));
    assert.equal(await t.chain.reader.findTokenByChip(uid(1)), '1');
    assert.equal(await t.chain.reader.findTokenByChip(uid(2).toLowerCase()), '2');
    assert.equal(await t.chain.reader.findTokenByChip(uid(99)), null);
    assert.equal(await t.chain.reader.totalMinted(), 2n);
    assert.equal(await t.chain.reader.hasRole('admin', t.chain.signerAddress), true);
    assert.equal(await t.chain.reader.hasRole('minter', t.chain.signerAddress), true);
    assert.equal(await t.chain.reader.hasRole('minter', owner), false);
  });

  test('a chip can be minted once: ChipAlreadyMinted names the chip hash and the existing token', async () => {
    const { tokenId } = await t.chain.writer.mint({
      to: t.others[0]!.address,
      metadataUri: 'ipfs://x',
      chipUid: uid(3),
    });
    const error = await assertReverts(
      t.chain.writer.mint({
        to: t.others[1]!.address,
        metadataUri: 'ipfs://y',
        chipUid: uid(3).toLowerCase(),
      }),
      'ChipAlreadyMinted',
      { chipHash: chipHash(uid(3)), tokenId: BigInt(tokenId) },
    );
    assert.equal(error.code, 'CHAIN_REVERT');
    assert.match(
      error.message,
      /ChipAlreadyMinted\(chipHash=0x[0-9a-f]{64}, tokenId=\d+\): this chip already has a passport/,
    );
    assert.equal(await t.chain.reader.ownerOf(tokenId), t.others[0]!.address);
  });

  test('refuses an empty URI, the zero owner address and (on the contract) a zero chip hash', async () => {
    const before = await t.chain.reader.totalMinted();
    await assertReverts(
      t.chain.writer.mint({ to: t.others[0]!.address, metadataUri: '', chipUid: uid(4) }),
      'EmptyMetadataUri',
    );
    await assertReverts(
      t.chain.writer.mint({ to: ZeroAddress, metadataUri: 'ipfs://z', chipUid: uid(4) }),
      'ERC721InvalidReceiver',
      { receiver: ZeroAddress },
    );
    const raw = new Contract(t.contractAddress, t.chain.artifact.abi as JsonFragment[], t.chain.provider);
    const signer = new Wallet(t.platform.privateKey, t.chain.provider);
    const error = await raw
      .getFunction('mint')
      .staticCall(t.others[0]!.address, 'ipfs://z', ZeroHash, { from: signer.address })
      .catch((e: unknown) => e);
    assert.equal(decodeRevert(raw.interface, error)?.name, 'InvalidChipHash');
    assert.equal(await t.chain.reader.totalMinted(), before);
  });

  test('reads of an unknown token revert with decoded errors', async () => {
    await assertReverts(t.chain.reader.ownerOf(999), 'ERC721NonexistentToken', { tokenId: 999n });
    await assertReverts(t.chain.reader.depositOf(999), 'UnknownToken', { tokenId: 999n });
    await assertReverts(t.chain.reader.isRecycled(999), 'UnknownToken');
    await assertReverts(t.chain.reader.tokenURI(999), 'ERC721NonexistentToken');
    await assert.rejects(t.chain.reader.ownerOf(0), TypeError);
    await assert.rejects(t.chain.reader.ownerOf('1e3'), TypeError);
  });
});

describe('mint under a reserved token id', () => {
  test('takes the given id; sequential mints continue above the highest id', async () => {
    const owner = t.others[1]!.address;
    const reserved = await t.chain.writer.mint({
      to: owner,
      metadataUri: 'ipfs://r100',
      chipUid: uid(40),
      tokenId: '100',
    });
    assert.equal(reserved.tokenId, '100');
    assert.equal(await t.chain.reader.ownerOf('100'), owner);
    assert.equal(await t.chain.reader.lastTokenId(), '100');
    const next = await t.chain.writer.mint({ to: owner, metadataUri: 'ipfs://next', chipUid: uid(41) });
    assert.equal(next.tokenId, '101');
    const gap = await t.chain.writer.mint({
      to: owner,
      metadataUri: 'ipfs://r50',
      chipUid: uid(42),
      tokenId: 50n,
    });
    assert.equal(
      gap.tokenId,
      '50',
      'an unused id below the highest is fine (reservations mined out of order)',
    );
    assert.equal(await t.chain.reader.lastTokenId(), '101');
  });

  test('an id is used once; 0 and ids beyond 64 bits are refused', async () => {
    const count = await t.chain.reader.totalMinted();
    await assertReverts(
      t.chain.writer.mint({
        to: t.others[1]!.address,
        metadataUri: 'ipfs://again',
        chipUid: uid(43),
        tokenId: 100,
      }),
      'TokenAlreadyMinted',
      { tokenId: 100n },
    );
    await assert.rejects(
      t.chain.writer.mint({
        to: t.others[1]!.address,
        metadataUri: 'ipfs://zero',
        chipUid: uid(43),
        tokenId: 0,
      }),
      TypeError,
    );
    const raw = new Contract(t.contractAddress, t.chain.artifact.abi as JsonFragment[], t.chain.provider);
    const tooLarge = await raw
      .getFunction('mintWithId')
      .staticCall(t.others[1]!.address, 2n ** 64n, 'ipfs://big', chipHash(uid(43)), {
        from: t.platform.address,
      })
      .catch((e: unknown) => e);
    assert.deepEqual(decodeRevert(raw.interface, tooLarge)?.args, { tokenId: 2n ** 64n });
    assert.equal(await t.chain.reader.totalMinted(), count);
  });
});

describe('findMintByChip', () => {
  test('returns the mint with its transaction, read from the mint block', async () => {
    const owner = t.others[2]!.address;
    const minted = await t.chain.writer.mint({
      to: owner,
      metadataUri: 'ipfs://found',
      chipUid: uid(60),
      depositWei: 3n,
    });
    await t.chain.writer.logEvent({ tokenId: minted.tokenId, action: 'QC_PASSED', dataHash: ZeroHash });
    assert.deepEqual(await t.chain.reader.findMintByChip(uid(60).toLowerCase()), {
      tokenId: minted.tokenId,
      chipHash: chipHash(uid(60)),
      owner,
      metadataUri: 'ipfs://found',
      deposit: 3n,
      txHash: minted.txHash,
      blockNumber: minted.blockNumber,
    });
    assert.equal(await t.chain.reader.findMintByChip(uid(61)), null);
  });
});

describe('logEvent', () => {
  test('emits SupplyChainEvent with the action, data hash and acting signer', async () => {
    const { tokenId } = await t.chain.writer.mint({
      to: t.others[0]!.address,
      metadataUri: 'ipfs://e',
      chipUid: uid(10),
    });
    const dataHash = keccak256(
      toUtf8Bytes(JSON.stringify({ locationName: 'Hamburg', temperature_celsius: 4 })),
    );
    const result = await t.chain.writer.logEvent({ tokenId, action: 'QC_PASSED', dataHash });
    assert.deepEqual(result.events, [
      {
        name: 'SupplyChainEvent',
        args: { tokenId: BigInt(tokenId), action: 'QC_PASSED', dataHash, actor: t.platform.address },
      },
    ]);
  });

  test('refuses an unknown token and an empty action', async () => {
    await assertReverts(
      t.chain.writer.logEvent({ tokenId: 4242, action: 'EXPORT_CLEARED', dataHash: ZeroHash }),
      'UnknownToken',
      {
        tokenId: 4242n,
      },
    );
    const { tokenId } = await t.chain.writer.mint({
      to: t.others[0]!.address,
      metadataUri: 'ipfs://e',
      chipUid: uid(11),
    });
    await assertReverts(t.chain.writer.logEvent({ tokenId, action: '', dataHash: ZeroHash }), 'EmptyAction');
  });
});
