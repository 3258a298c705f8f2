import assert from 'node:assert/strict';
import { Contract, type JsonFragment, Wallet } from 'ethers';
import { afterAll, beforeAll, test } from 'vitest';
import { createChainProvider } from '../../src/adapters/chain/passport-chain.ts';
import { assertReverts, startTestChain, type TestChain } from '../support/anvil.ts';
import { mined } from '../support/passport-contract.ts';

let t: TestChain;
let chip = 0;
beforeAll(async () => {
  t = await startTestChain();
});
afterAll(() => t.stop());

async function mintTo(owner: string): Promise<string> {
  chip++;
  const chipUid = `04C1A100000${chip.toString().padStart(3, '0')}`;
  return (await t.chain.writer.mint({ to: owner, metadataUri: `ipfs://claim-${chip}`, chipUid })).tokenId;
}

/** The contract as seen by a wallet that pays its own gas (anvil dev account). */
function asWallet(privateKey: string): Contract {
  const provider = createChainProvider(t.anvil.rpcUrl, 50);
  afterAll(() => provider.destroy());
  return new Contract(
    t.contractAddress,
    t.chain.artifact.abi as JsonFragment[],
    new Wallet(privateKey, provider),
  );
}

test('resale: admin authorizes, then relays the claim of a buyer without gas', async () => {
  const seller = t.others[0]!.address;
  const buyer = Wallet.createRandom().address;
  assert.equal(await t.chain.provider.getBalance(buyer), 0n);
  const tokenId = await mintTo(seller);

  const authorized = await t.chain.writer.authorizeClaim({ tokenId, account: buyer });
  assert.deepEqual(authorized.events, [
    { name: 'ClaimAuthorized', args: { tokenId: BigInt(tokenId), account: buyer, currentOwner: seller } },
  ]);
  assert.equal(await t.chain.reader.claimantOf(tokenId), buyer);

  const claimed = await t.chain.writer.claimOwnershipFor({ tokenId, account: buyer });
  assert.equal(claimed.from, seller);
  assert.equal(claimed.to, buyer);
  assert.deepEqual(
    claimed.events.map((e) => e.name),
    ['Transfer', 'OwnershipClaimed'],
  );
  assert.equal(await t.chain.reader.ownerOf(tokenId), buyer);
  assert.equal(await t.chain.reader.claimantOf(tokenId), null, 'authorization is used up');
  await assertReverts(t.chain.writer.claimOwnershipFor({ tokenId, account: buyer }), 'NoClaimAuthorized', {
    tokenId: BigInt(tokenId),
  });
});

test('the relay can only deliver to the authorized account', async () => {
  const tokenId = await mintTo(t.others[0]!.address);
  await assertReverts(
    t.chain.writer.claimOwnershipFor({ tokenId, account: t.others[1]!.address }),
    'NoClaimAuthorized',
    { tokenId: BigInt(tokenId) },
  );
  await t.chain.writer.authorizeClaim({ tokenId, account: t.others[1]!.address });
  await assertReverts(
    t.chain.writer.claimOwnershipFor({ tokenId, account: t.others[2]!.address }),
    'NotAuthorizedClaimant',
    { tokenId: BigInt(tokenId), account: t.others[2]!.address },
  );
  assert.equal(await t.chain.reader.ownerOf(tokenId), t.others[0]!.address);
});

test('an authorized account with gas may claim itself; others may not', async () => {
  const tokenId = await mintTo(t.others[0]!.address);
  await t.chain.writer.authorizeClaim({ tokenId, account: t.others[1]!.address });
  const stranger = asWallet(t.others[2]!.privateKey);
  const refused = await stranger
    .getFunction('claimOwnership')
    .staticCall(tokenId)
    .catch((e: unknown) => e);
  assert.equal((refused as { revert?: { name: string } }).revert?.name, 'NotAuthorizedClaimant');

  const buyer = asWallet(t.others[1]!.privateKey);
  await mined(await buyer.getFunction('claimOwnership')(tokenId));
  assert.equal(await t.chain.reader.ownerOf(tokenId), t.others[1]!.address);
});

test('a new authorization replaces the old one; revokeClaim withdraws it', async () => {
  const tokenId = await mintTo(t.others[0]!.address);
  await t.chain.writer.authorizeClaim({ tokenId, account: t.others[1]!.address });
  await t.chain.writer.authorizeClaim({ tokenId, account: t.others[2]!.address });
  assert.equal(await t.chain.reader.claimantOf(tokenId), t.others[2]!.address);
  const revoked = await t.chain.writer.revokeClaim(tokenId);
  assert.deepEqual(revoked.events, [
    { name: 'ClaimRevoked', args: { tokenId: BigInt(tokenId), account: t.others[2]!.address } },
  ]);
  await assertReverts(t.chain.writer.revokeClaim(tokenId), 'NoClaimAuthorized');
  await assertReverts(
    t.chain.writer.claimOwnershipFor({ tokenId, account: t.others[2]!.address }),
    'NoClaimAuthorized',
  );
});

test('a transfer by the owner clears a pending authorization', async () => {
  const tokenId = await mintTo(t.others[0]!.address);
  await t.chain.writer.authorizeClaim({ tokenId, account: t.others[1]!.address });
  const owner = asWallet(t.others[0]!.privateKey);
  await mined(await owner.getFunction('transferFrom')(t.others[0]!.address, t.others[3]!.address, tokenId));
  assert.equal(await t.chain.reader.claimantOf(tokenId), null);
  await assertReverts(
    t.chain.writer.claimOwnershipFor({ tokenId, account: t.others[1]!.address }),
    'NoClaimAuthorized',
  );
});

test('claims are refused for unknown and recycled tokens, and the zero address', async () => {
  await assertReverts(
    t.chain.writer.authorizeClaim({ tokenId: 777, account: t.others[1]!.address }),
    'UnknownToken',
  );
  const tokenId = await mintTo(t.others[0]!.address);
  await assertReverts(
    t.chain.writer.authorizeClaim({ tokenId, account: '0x0000000000000000000000000000000000000000' }),
    'ZeroAddress',
  );
  await t.chain.writer.authorizeClaim({ tokenId, account: t.others[1]!.address });
  await t.chain.writer.recycle({ tokenId, rewardReceiver: t.others[0]!.address });
  assert.equal(await t.chain.reader.claimantOf(tokenId), null, 'recycling drops the authorization');
  await assertReverts(
    t.chain.writer.authorizeClaim({ tokenId, account: t.others[1]!.address }),
    'TokenIsRecycled',
    {
      tokenId: BigInt(tokenId),
    },
  );
  await assertReverts(
    t.chain.writer.claimOwnershipFor({ tokenId, account: t.others[1]!.address }),
    'TokenIsRecycled',
  );
});
