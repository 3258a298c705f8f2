import assert from 'node:assert/strict';
import { getAddress, Interface, zeroPadValue } from 'ethers';
import { afterAll, beforeAll, test } from 'vitest';
import { entryPointArtifact } from '../../src/adapters/bundler/account-contracts.ts';
import { paymasterDeposit } from '../../src/adapters/bundler/sponsor-paymaster.ts';
import type { TestTenant } from '../support/api.ts';
import { claimWithChallenge } from '../support/fixtures/claim.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { paidResaleAwaitingClaim } from '../support/fixtures/paid-resale.ts';
import { digitalLinkTap } from '../support/fixtures/sun.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtp-receiver.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { postStripeEvent } from '../support/stripe.ts';
import { verifiedCompanyAccount } from './fixtures/connect-accounts.ts';
import { personToken } from './fixtures/people.ts';

// Issue 40: the people's wallets are ERC-4337 smart accounts; their claims are their own sponsored operations
// through a real bundler (alto), paid for by our paymaster.
let stack: TestStack;
let tenant: TestTenant;
let smtp: SmtpReceiver;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
  stack = await startTestStack({ smartAccounts: true, apiEnv: { SMTP_URL: smtp.url } });
  tenant = await stack.api.createTenant('Smart Goods');
}, 180_000);
afterAll(async () => {
  await stack?.close();
  await smtp?.close();
});

const call = (method: string, path: string, body?: unknown) =>
  stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
const webhook = (signed: { body: string; headers: Record<string, string> }) =>
  postStripeEvent(stack.api, signed);

async function walletOf(token: string): Promise<{ address: string; ownerAddress: string }> {
  const answer = await stack.api.call('GET', '/v1/auth/wallet', { key: token });
  assert.equal(answer.status, 200, answer.text);
  return answer.body;
}

/** The seller (the brand, or the owner's user token) releases the passport; the buyer pays and claims with a tap. */
async function sell(
  tokenId: string,
  chipUid: string,
  buyer: { email: string; token: string },
  payment: { tap: number; event: string; sellerKey?: string },
) {
  const { email, token } = buyer;
  // An owner releases with a tap made now (the tap before the buyer's); the brand from its custody.
  await paidResaleAwaitingClaim(stack.api, {
    tokenId,
    sellerKey: payment.sellerKey ?? tenant.testKey,
    ...(payment.sellerKey ? { sellerTap: digitalLinkTap(chipUid, payment.tap - 1) } : {}),
    readerKey: tenant.testKey,
    buyerEmail: email,
    buyerToken: token,
    eventId: payment.event,
  });
  // The page's order (docs/resale.md, "A tap made now"): a challenge, then the tap read after it.
  const claimed = await claimWithChallenge(stack.api, token, tokenId, digitalLinkTap(chipUid, payment.tap));
  assert.equal(claimed.status, 200, claimed.text);
  return claimed.body as { txHash: string; ownerWallet: string };
}

async function userOperationsOf(sender: string) {
  const entryPoint = new Interface(entryPointArtifact.abi);
  const logs = await stack.chain.chain.provider.getLogs({
    address: stack.accounts!.entryPoint,
    topics: [entryPoint.getEvent('UserOperationEvent')!.topicHash, null, zeroPadValue(sender, 32)],
    fromBlock: 0,
  });
  return logs.map((log) => ({ tx: log.transactionHash, event: entryPoint.parseLog(log)! }));
}

test('a first claim deploys the smart account in one sponsored operation; a resale moves the token between two', async () => {
  const accounts = stack.accounts!;
  const provider = stack.chain.chain.provider;
  const reader = stack.chain.chain.reader;
  const chipUid = '04AC0000000001';
  const tokenId = await enrollAndMint(call, chipUid);
  await verifiedCompanyAccount(call, webhook, 'evt_acct_verified_aa');

  const alice = await personToken(stack.api, smtp, 'alice@example.com');
  const aliceWallet = await walletOf(alice);
  assert.notEqual(aliceWallet.address, aliceWallet.ownerAddress);
  assert.equal(await provider.getCode(aliceWallet.address), '0x', 'shown before it exists');

  const depositBefore = await paymasterDeposit(provider, accounts.entryPoint, accounts.paymaster);
  const first = await sell(
    tokenId,
    chipUid,
    { email: 'alice@example.com', token: alice },
    { tap: 2, event: 'evt_paid_alice' },
  );
  assert.equal(first.ownerWallet, aliceWallet.address);
  assert.notEqual(await provider.getCode(aliceWallet.address), '0x', 'deployed by its first operation');
  assert.equal(getAddress(await reader.ownerOf(tokenId)), aliceWallet.address);
  const [aliceOp, ...more] = await userOperationsOf(aliceWallet.address);
  assert.equal(more.length, 0, 'one operation');
  assert.equal(aliceOp!.tx, first.txHash, 'the claim is the operation’s transaction');
  assert.equal(aliceOp!.event.args.success, true);
  assert.equal(getAddress(aliceOp!.event.args.paymaster as string), accounts.paymaster);
  const receipt = await provider.getTransactionReceipt(first.txHash);
  assert.notEqual(
    getAddress(receipt!.from),
    getAddress(stack.chain.chain.signerAddress),
    'not the platform relay',
  );
  const depositAfter = await paymasterDeposit(provider, accounts.entryPoint, accounts.paymaster);
  assert.equal(depositBefore - depositAfter, aliceOp!.event.args.actualGasCost, 'the paymaster paid');
  for (const address of [aliceWallet.address, aliceWallet.ownerAddress])
    assert.equal(await provider.getBalance(address), 0n, 'the person paid nothing');

  // Resale to a second person: from Alice's smart account to Bob's.
  const bob = await personToken(stack.api, smtp, 'bob@example.com');
  const bobWallet = await walletOf(bob);
  const second = await sell(
    tokenId,
    chipUid,
    { email: 'bob@example.com', token: bob },
    { tap: 4, event: 'evt_paid_bob', sellerKey: alice },
  );
  assert.equal(getAddress(await reader.ownerOf(tokenId)), bobWallet.address);
  const claim = (await reader.tokenEvents('OwnershipClaimed', tokenId, 0)).at(-1)!;
  assert.equal(getAddress(claim.args.from as string), aliceWallet.address);
  assert.equal(getAddress(claim.args.to as string), bobWallet.address);
  assert.equal(claim.transactionHash, second.txHash);
  assert.equal((await userOperationsOf(bobWallet.address)).length, 1);
  const [row] = await stack.api.db.orm.em
    .fork()
    .execute<{ n: string }[]>(`select count(*) as n from user_operations where state = 'included'`);
  assert.equal(Number(row?.n), 2, 'each claim recorded once');
}, 180_000);
