import assert from 'node:assert/strict';
import { Contract, Wallet } from 'ethers';
import { afterAll, beforeAll, test } from 'vitest';
import { accountFactoryArtifact } from '../../src/adapters/bundler/account-contracts.ts';
import { smartAccountAddress } from '../../src/adapters/bundler/smart-account-address.ts';
import { prepareSponsoredOperation } from '../../src/adapters/bundler/smart-account-operation.ts';
import { paymasterDeposit } from '../../src/adapters/bundler/sponsor-paymaster.ts';
import { startTestChain, type TestChain } from '../support/anvil.ts';
import { startTestAccounts, type TestAccounts } from '../support/smart-accounts.ts';

let t: TestChain;
let aa: TestAccounts;
beforeAll(async () => {
  t = await startTestChain();
  aa = await startTestAccounts(t);
}, 120_000);
afterAll(async () => {
  await aa?.stop();
  await t?.stop();
});

async function waitForReceipt(userOpHash: string) {
  for (let i = 0; i < 200; i++) {
    const receipt = await aa.bundler.getUserOperationReceipt(userOpHash);
    if (receipt) return receipt;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no receipt for ${userOpHash}\n${aa.alto.output().join('\n')}`);
}

test('the counterfactual address is the factory getAddress, before the account exists', async () => {
  const owner = Wallet.createRandom().address;
  const expected = smartAccountAddress(aa.entryPoint, owner);
  const factory = new Contract(aa.factory, accountFactoryArtifact.abi, t.chain.provider);
  assert.equal(await factory.getFunction('getAddress(address,uint256)')(owner, 0n), expected);
  assert.equal(await t.chain.provider.getCode(expected), '0x');
});

test('a first sponsored operation deploys the account and claims; the paymaster pays', async () => {
  const buyer = Wallet.createRandom();
  const account = smartAccountAddress(aa.entryPoint, buyer.address);
  const { tokenId } = await t.chain.writer.mint({
    to: t.others[0]!.address,
    metadataUri: 'ipfs://aa',
    chipUid: '04AA0000000001',
  });
  await t.chain.writer.authorizeClaim({ tokenId, account });
  const depositBefore = await paymasterDeposit(t.chain.provider, aa.entryPoint, aa.paymaster);

  const claim = t.chain.reader.abi.interface.encodeFunctionData('claimOwnership', [BigInt(tokenId)]);
  const op = await prepareSponsoredOperation(aa, {
    owner: buyer,
    target: t.contractAddress,
    data: claim,
    idempotencyKey: 'claim-1',
  });
  assert.ok(op.factory, 'the first operation deploys the account');
  const hash = await aa.bundler.sendUserOperation(op);
  const receipt = await waitForReceipt(hash);

  assert.equal(receipt.success, true);
  assert.equal(receipt.paymaster?.toLowerCase(), aa.paymaster.toLowerCase());
  assert.notEqual(await t.chain.provider.getCode(account), '0x');
  assert.equal(await t.chain.reader.ownerOf(tokenId), account);
  assert.equal(await t.chain.provider.getBalance(account), 0n);
  assert.equal(await t.chain.provider.getBalance(buyer.address), 0n);
  const depositAfter = await paymasterDeposit(t.chain.provider, aa.entryPoint, aa.paymaster);
  assert.equal(depositBefore - depositAfter, receipt.actualGasCost);
}, 60_000);
