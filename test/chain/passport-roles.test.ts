import assert from 'node:assert/strict';
import { id, ZeroHash } from 'ethers';
import { afterAll, beforeAll, test } from 'vitest';
import type { PassportChain } from '../../src/adapters/chain/passport-chain.ts';
import { assertReverts, startTestChain, type TestChain } from '../support/anvil.ts';

const ADMIN_ROLE = ZeroHash;
const MINTER_ROLE = id('MINTER_ROLE');

let t: TestChain;
let admin: PassportChain;
let minter: PassportChain;
let outsider: PassportChain;
let tokenId: string;

beforeAll(async () => {
  // separate keys for the two roles: account 0 admin, account 1 minter, account 2 nobody
  t = await startTestChain({
    roles: (accounts) => ({ admin: accounts[0]!.address, minter: accounts[1]!.address }),
  });
  admin = t.chain;
  minter = t.connect(t.others[0]!.privateKey);
  outsider = t.connect(t.others[1]!.privateKey);
  ({ tokenId } = await minter.writer.mint({
    to: t.others[2]!.address,
    metadataUri: 'ipfs://r',
    chipUid: '04000000000001',
    depositWei: 5n,
  }));
});
afterAll(() => t.stop());

test('roles are granted as deployed', async () => {
  assert.equal(await admin.reader.hasRole('admin', admin.signerAddress), true);
  assert.equal(await admin.reader.hasRole('minter', admin.signerAddress), false);
  assert.equal(await minter.reader.hasRole('minter', minter.signerAddress), true);
  assert.equal(await minter.reader.hasRole('admin', minter.signerAddress), false);
});

test('only the minter mints', async () => {
  const request = { to: t.others[2]!.address, metadataUri: 'ipfs://r2', chipUid: '04000000000002' };
  await assertReverts(admin.writer.mint(request), 'AccessControlUnauthorizedAccount', {
    account: admin.signerAddress,
    neededRole: MINTER_ROLE,
  });
  await assertReverts(outsider.writer.mint(request), 'AccessControlUnauthorizedAccount', {
    account: outsider.signerAddress,
    neededRole: MINTER_ROLE,
  });
});

test('minter and admin log events; anybody else gets NotMinterOrAdmin', async () => {
  const event = { tokenId, action: 'SHIPPED', dataHash: ZeroHash };
  assert.equal((await minter.writer.logEvent(event)).events[0]?.args.actor, minter.signerAddress);
  assert.equal((await admin.writer.logEvent(event)).events[0]?.args.actor, admin.signerAddress);
  await assertReverts(outsider.writer.logEvent(event), 'NotMinterOrAdmin', {
    account: outsider.signerAddress,
  });
});

test('minter and admin anchor versions of token-less passports; anybody else gets NotMinterOrAdmin', async () => {
  const version = { subject: id('urn:uuid:model/versions/1'), dataHash: id('a'), publicDataHash: id('b') };
  const anchored = await minter.writer.anchorVersion(version);
  assert.equal(anchored.events[0]?.name, 'VersionAnchored');
  assert.deepEqual(
    [
      anchored.events[0]?.args.subject,
      anchored.events[0]?.args.dataHash,
      anchored.events[0]?.args.publicDataHash,
    ],
    [version.subject, version.dataHash, version.publicDataHash],
  );
  assert.equal((await admin.writer.anchorVersion(version)).events[0]?.name, 'VersionAnchored');
  await assertReverts(outsider.writer.anchorVersion(version), 'NotMinterOrAdmin', {
    account: outsider.signerAddress,
  });
  await assertReverts(minter.writer.anchorVersion({ ...version, subject: ZeroHash }), 'EmptySubject', {});
});

test('only the admin authorizes, revokes and relays claims', async () => {
  const claim = { tokenId, account: t.others[3]!.address };
  const needsAdmin = (chain: PassportChain) => ({ account: chain.signerAddress, neededRole: ADMIN_ROLE });
  await assertReverts(
    minter.writer.authorizeClaim(claim),
    'AccessControlUnauthorizedAccount',
    needsAdmin(minter),
  );
  await assertReverts(
    outsider.writer.authorizeClaim(claim),
    'AccessControlUnauthorizedAccount',
    needsAdmin(outsider),
  );
  await admin.writer.authorizeClaim(claim);
  await assertReverts(
    minter.writer.claimOwnershipFor(claim),
    'AccessControlUnauthorizedAccount',
    needsAdmin(minter),
  );
  await assertReverts(
    minter.writer.revokeClaim(tokenId),
    'AccessControlUnauthorizedAccount',
    needsAdmin(minter),
  );
  await admin.writer.revokeClaim(tokenId);
});

test('recycling is for the minter or the admin only', async () => {
  await assertReverts(
    outsider.writer.recycle({ tokenId, rewardReceiver: outsider.signerAddress }),
    'NotMinterOrAdmin',
  );
  const viaMinter = await minter.writer.mint({
    to: t.others[2]!.address,
    metadataUri: 'ipfs://r3',
    chipUid: '04000000000003',
  });
  assert.equal(
    (await minter.writer.recycle({ tokenId: viaMinter.tokenId, rewardReceiver: t.others[4]!.address }))
      .amount,
    0n,
  );
  assert.equal((await admin.writer.recycle({ tokenId, rewardReceiver: t.others[4]!.address })).amount, 5n);
});
