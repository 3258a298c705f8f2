import assert from 'node:assert/strict';
import { type BaseWallet, Interface, Wallet, zeroPadValue } from 'ethers';
import { afterAll, beforeAll, test } from 'vitest';
import { entryPointArtifact } from '../../src/adapters/bundler/account-contracts.ts';
import { startAlto } from '../../src/adapters/bundler/alto.ts';
import { BundlerClient } from '../../src/adapters/bundler/bundler-client.ts';
import { smartAccountAddress } from '../../src/adapters/bundler/smart-account-address.ts';
import { paymasterDeposit } from '../../src/adapters/bundler/sponsor-paymaster.ts';
import { SponsoredOperations, SponsorshipRefused } from '../../src/adapters/bundler/sponsored-operations.ts';
import { UserOperationStore } from '../../src/adapters/bundler/user-operation-store.ts';
import { loadConfig } from '../../src/platform/config/config.ts';
import { createLogger } from '../../src/platform/logging/logger.ts';
import { PaymasterDeposits } from '../../src/platform/observability/paymaster-deposit.ts';
import { startTestChain, type TestChain } from '../support/anvil.ts';
import { startTestAccounts, type TestAccounts } from '../support/smart-accounts.ts';

let t: TestChain;
let aa: TestAccounts;
let store: UserOperationStore;
let chip = 0;
beforeAll(async () => {
  t = await startTestChain();
  aa = await startTestAccounts(t);
  store = new UserOperationStore(t.orm, aa.chainId);
}, 120_000);
afterAll(async () => {
  await aa?.stop();
  await t?.stop();
});

const operations = (options: Partial<ConstructorParameters<typeof SponsoredOperations>[0]> = {}) =>
  new SponsoredOperations({ ctx: aa, store, pollIntervalMs: 100, timeoutMs: 30_000, ...options });

/** A passport of a seller, authorized for `buyer`'s smart account; the call data of its claim. */
async function passportFor(buyer: BaseWallet) {
  chip++;
  const { tokenId } = await t.chain.writer.mint({
    to: t.others[0]!.address,
    metadataUri: `ipfs://sponsored-${chip}`,
    chipUid: `04BB00000000${String(chip).padStart(2, '0')}`,
  });
  await t.chain.writer.authorizeClaim({
    tokenId,
    account: smartAccountAddress(aa.entryPoint, buyer.address),
  });
  const data = t.chain.reader.abi.interface.encodeFunctionData('claimOwnership', [BigInt(tokenId)]);
  return { tokenId, data };
}

/** A new buyer's claim of a new passport, as the claim activity asks for it. */
async function claimRequest() {
  const buyer = Wallet.createRandom();
  const { tokenId, data } = await passportFor(buyer);
  const request = {
    idempotencyKey: `claim:test:${tokenId}`,
    purpose: 'claim',
    companyId: 'company-a',
    owner: buyer,
    target: t.contractAddress,
    data,
  };
  return { tokenId, request };
}

/** The EntryPoint's UserOperationEvent logs of `sender`: how many operations of that account ran on chain. */
async function userOperationEvents(sender: string) {
  const event = new Interface(entryPointArtifact.abi).getEvent('UserOperationEvent')!;
  const logs = await t.chain.provider.getLogs({
    address: aa.entryPoint,
    topics: [event.topicHash, null, zeroPadValue(sender, 32)],
    fromBlock: 0,
  });
  return logs.length;
}

test('a claim is recorded before it is sent, included once, and a repeat returns the same outcome', async () => {
  const { tokenId, request } = await claimRequest();
  const first = await operations().execute(request);
  const again = await operations().execute(request);
  assert.deepEqual(again, first);
  const record = await store.find(request.idempotencyKey);
  assert.equal(record?.state, 'included');
  assert.equal(record?.sends, 1);
  assert.equal(await t.chain.reader.ownerOf(tokenId), first.sender);
  assert.equal(await userOperationEvents(first.sender), 1);
});

test('the bundler killed between sending and inclusion: a new bundler, the same record, exactly once', async () => {
  const { tokenId, request } = await claimRequest();
  await t.rpc('evm_setAutomine', [false]);
  const interrupted = operations({ timeoutMs: 4_000 })
    .execute(request)
    .catch((error: Error) => error);
  for (let i = 0; i < 100 && (await store.find(request.idempotencyKey))?.state !== 'sent'; i++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  await new Promise((resolve) => setTimeout(resolve, 500)); // let alto hand its bundle to the node, or not
  await aa.alto.kill();
  await t.rpc('evm_setAutomine', [true]);
  await t.rpc('evm_mine', []);
  // The node may already hold alto's bundle (then the first worker sees it mined) or not (it gives up): either way
  // the operation runs once.
  await interrupted;

  const executor = Wallet.createRandom();
  await t.rpc('anvil_setBalance', [executor.address, '0x56BC75E2D63100000']);
  aa.alto = await startAlto({
    rpcUrl: t.anvil.rpcUrl,
    entryPoint: aa.entryPoint,
    executorPrivateKeys: [executor.privateKey],
    utilityPrivateKey: executor.privateKey,
  });
  aa.bundler = new BundlerClient(aa.alto.url, aa.entryPoint);
  const outcome = await operations().execute(request);
  assert.equal(await t.chain.reader.ownerOf(tokenId), outcome.sender);
  const record = await store.find(request.idempotencyKey);
  assert.equal(record?.state, 'included');
  assert.equal(await userOperationEvents(outcome.sender), 1, 'one record, one operation on chain');
}, 90_000);

test('budgets: a person over their daily sponsored operations is refused before anything is signed', async () => {
  const buyer = Wallet.createRandom();
  const { tokenId, data } = await passportFor(buyer);
  const limited = operations({ budget: { companyPerDay: 100, personPerDay: 0 } });
  const before = await paymasterDeposit(t.chain.provider, aa.entryPoint, aa.paymaster);
  await assert.rejects(
    limited.execute({
      idempotencyKey: `claim:test:${tokenId}`,
      purpose: 'claim',
      companyId: 'c',
      owner: buyer,
      target: t.contractAddress,
      data,
    }),
    (error) => error instanceof SponsorshipRefused && error.scope === 'person',
  );
  assert.equal(await store.find(`claim:test:${tokenId}`), undefined);
  assert.equal(await paymasterDeposit(t.chain.provider, aa.entryPoint, aa.paymaster), before);
});

test('the paymaster deposit is watched: its gauge reads the EntryPoint, and below PAYMASTER_MIN_DEPOSIT it warns', async () => {
  const config = (minimum: string) =>
    loadConfig({
      CHAIN_RPC_URL_TEST: t.anvil.rpcUrl,
      CONTRACT_ADDRESS_TEST: t.contractAddress,
      CHAIN_PRIVATE_KEY_TEST: t.platform.privateKey,
      PAYMASTER_ADDRESS_TEST: aa.paymaster,
      PAYMASTER_MIN_DEPOSIT_TEST: minimum,
    });
  const deposit = await paymasterDeposit(t.chain.provider, aa.entryPoint, aa.paymaster);
  const healthy = new PaymasterDeposits(config('0.001'), aa.entryPoint, createLogger('silent'));
  const [reading] = await healthy.read();
  assert.equal(reading?.wei, deposit);
  assert.equal(reading?.low, false);
  assert.deepEqual(await healthy.warnings(), {});
  const low = new PaymasterDeposits(config('1000'), aa.entryPoint, createLogger('silent'));
  const [warning] = Object.values(await low.warnings());
  assert.match(warning ?? '', /below the minimum 1000\.0 \(PAYMASTER_MIN_DEPOSIT_TEST\)/);
});
