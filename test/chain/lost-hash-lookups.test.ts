import assert from 'node:assert/strict';
import { keccak256, parseEther, toUtf8Bytes } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { findRecycle } from '../../src/lifecycle/recycling/find-recycle.ts';
import { findClaim } from '../../src/lifecycle/resale/find-claim.ts';
import { findLoggedEvent } from '../../src/lifecycle/supply-chain/find-anchor.ts';
import { startTestChain, type TestChain } from '../support/anvil.ts';

// How a retried activity learns what an earlier attempt did on chain when it lost the transaction hash.
describe('finding an earlier attempt’s transaction from the contract’s logs', () => {
  let t: TestChain;
  let tokenId: string;
  let mintBlock: number;
  beforeAll(async () => {
    t = await startTestChain();
    const minted = await t.chain.writer.mint({
      to: t.platform.address,
      metadataUri: 'ipfs://lookup',
      chipUid: '04A1B2C3D4E5F6',
      depositWei: parseEther('0.01'),
    });
    tokenId = minted.tokenId;
    mintBlock = minted.blockNumber;
  });
  afterAll(() => t.stop());

  test('a logged supply-chain event is found by its data hash, another hash is not', async () => {
    const dataHash = keccak256(toUtf8Bytes('shipped'));
    assert.equal(await findLoggedEvent(t.chain.reader, { tokenId, dataHash, fromBlock: mintBlock }), null);
    const logged = await t.chain.writer.logEvent({ tokenId, action: 'SHIPPED', dataHash });
    assert.deepEqual(await findLoggedEvent(t.chain.reader, { tokenId, dataHash, fromBlock: mintBlock }), {
      transactionHash: logged.txHash,
      blockNumber: logged.blockNumber,
    });
    const other = keccak256(toUtf8Bytes('received'));
    assert.equal(
      await findLoggedEvent(t.chain.reader, { tokenId, dataHash: other, fromBlock: mintBlock }),
      null,
    );
  });

  test('the claim that moved the token to a wallet is found; none for another wallet', async () => {
    const buyer = t.others[2]!.address;
    assert.equal(await findClaim(t.chain.reader, tokenId, buyer, mintBlock), null);
    await t.chain.writer.authorizeClaim({ tokenId, account: buyer });
    const claimed = await t.chain.writer.claimOwnershipFor({ tokenId, account: buyer });
    const found = await findClaim(t.chain.reader, tokenId, buyer, mintBlock);
    assert.equal(found?.transactionHash, claimed.txHash);
    assert.equal(found?.to, buyer);
    assert.equal(found?.from, t.platform.address);
    assert.equal(await findClaim(t.chain.reader, tokenId, t.others[3]!.address, mintBlock), null);
  });

  test('the recycle is found with its reward receiver and released deposit', async () => {
    const receiver = t.others[4]!.address;
    assert.equal(await findRecycle(t.chain.reader, tokenId, mintBlock), null);
    const recycled = await t.chain.writer.recycle({ tokenId, rewardReceiver: receiver });
    assert.deepEqual(await findRecycle(t.chain.reader, tokenId, mintBlock), {
      transactionHash: recycled.txHash,
      blockNumber: recycled.blockNumber,
      rewardReceiver: receiver,
      amountWei: parseEther('0.01'),
    });
  });
});
