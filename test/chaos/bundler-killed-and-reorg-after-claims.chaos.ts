import assert from 'node:assert/strict';
import { getAddress, Interface, Wallet, zeroPadValue } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { entryPointArtifact } from '../../src/adapters/bundler/account-contracts.ts';
import { startAlto } from '../../src/adapters/bundler/alto.ts';
import { BundlerClient } from '../../src/adapters/bundler/bundler-client.ts';
import { verifiedCompanyAccount } from '../e2e/fixtures/connect-accounts.ts';
import { personToken } from '../e2e/fixtures/people.ts';
import type { TestTenant } from '../support/api.ts';
import { sleep, waitUntil } from '../support/chain-load.ts';
import { claimWithChallenge } from '../support/fixtures/claim.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { paidResaleAwaitingClaim } from '../support/fixtures/paid-resale.ts';
import { digitalLinkTap } from '../support/fixtures/sun.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtp-receiver.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { postStripeEvent } from '../support/stripe.ts';

interface OperationRow {
  state: string;
  tx_hash: string | null;
  tx_hashes: string[];
  block_number: string | null;
  reorgs: number;
}

// Issue 40's chaos: a sponsored claim is a user operation of the buyer's smart account through alto. The bundler
// dies between sending and inclusion, and a reorg takes an included claim back: each operation runs exactly once.
describe('sponsored claims: the bundler killed before inclusion, a reorg after inclusion', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let smtp: SmtpReceiver;
  let mail = 0;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    stack = await startTestStack({ smartAccounts: true, apiEnv: { SMTP_URL: smtp.url } });
    tenant = await stack.api.createTenant('Chaos Goods');
    await verifiedCompanyAccount(call, webhook, 'evt_acct_verified_chaos');
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await smtp?.close();
  });

  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  const webhook = (signed: { body: string; headers: Record<string, string> }) =>
    postStripeEvent(stack.api, signed);
  const db = () => stack.api.db.orm.em.fork();
  const rpc = (method: string, params: unknown[] = []) => stack.chain.rpc(method, params);

  /** A new passport sold to a new person, paid and awaiting their claim; their smart account's address. */
  async function soldAwaitingClaim(chipUid: string) {
    const tokenId = await enrollAndMint(call, chipUid);
    const email = `buyer-${++mail}@example.com`;
    const token = await personToken(stack.api, smtp, email);
    const { resaleId, buyerWallet: account } = await paidResaleAwaitingClaim(stack.api, {
      tokenId,
      sellerKey: tenant.testKey,
      readerKey: tenant.testKey,
      buyerEmail: email,
      buyerToken: token,
      eventId: `evt_paid_chaos_${mail}`,
    });
    const claim = () => claimWithChallenge(stack.api, token, tokenId, digitalLinkTap(chipUid, 2));
    return { tokenId, account, resaleId, claim };
  }

  const operationOf = async (resaleId: string) => {
    const rows = await db().execute<OperationRow[]>(
      'select state, tx_hash, tx_hashes, block_number, reorgs from user_operations where idempotency_key like ?',
      [`claim:%:${resaleId}`],
    );
    assert.equal(rows.length, 1, 'one record of the claim’s operation');
    return rows[0]!;
  };

  /** The EntryPoint's UserOperationEvents of `sender` on the canonical chain. */
  async function operationsOnChain(sender: string) {
    const entryPoint = new Interface(entryPointArtifact.abi);
    const logs = await stack.chain.chain.provider.getLogs({
      address: stack.accounts!.entryPoint,
      topics: [entryPoint.getEvent('UserOperationEvent')!.topicHash, null, zeroPadValue(sender, 32)],
      fromBlock: 0,
    });
    return logs.map((log) => log.transactionHash);
  }

  test('alto killed after it took the claim, before the chain included it: a new bundler, one operation', async () => {
    const sale = await soldAwaitingClaim('04CB0000000001');
    await rpc('evm_setAutomine', [false]);
    const claiming = sale.claim();
    await waitUntil(
      async () => (await operationOf(sale.resaleId).catch(() => undefined))?.state === 'sent',
      20_000,
      'sent',
    );
    await sleep(300); // alto may or may not have handed its bundle to the node
    await stack.accounts!.alto.kill();
    await rpc('evm_setAutomine', [true]);
    await rpc('evm_mine');

    const executor = Wallet.createRandom();
    await rpc('anvil_setBalance', [executor.address, '0x56BC75E2D63100000']);
    const accounts = stack.accounts!;
    accounts.alto = await startAlto({
      rpcUrl: stack.chain.anvil.rpcUrl,
      entryPoint: accounts.entryPoint,
      executorPrivateKeys: [executor.privateKey],
      utilityPrivateKey: executor.privateKey,
    });
    accounts.bundler = new BundlerClient(accounts.alto.url, accounts.entryPoint);

    const claimed = await claiming;
    assert.equal(claimed.status, 200, claimed.text);
    assert.equal(getAddress(await stack.chain.chain.reader.ownerOf(sale.tokenId)), sale.account);
    assert.deepEqual(await operationsOnChain(sale.account), [claimed.body.txHash], 'one operation on chain');
    const row = await operationOf(sale.resaleId);
    assert.equal(row.state, 'included');
    assert.equal(row.tx_hash, claimed.body.txHash);
  });

  test('a reorg takes the included claim back: tracked as reorged, included again once, the records follow', async () => {
    const sale = await soldAwaitingClaim('04CB0000000002');
    const claimed = await sale.claim();
    assert.equal(claimed.status, 200, claimed.text);
    const first = await operationOf(sale.resaleId);
    assert.equal(first.state, 'included');
    const firstTx = first.tx_hash!;

    const head = Number(BigInt((await rpc('eth_blockNumber')) as string));
    await rpc('anvil_reorg', [head - Number(first.block_number) + 1, []]);
    assert.deepEqual(await operationsOnChain(sale.account), [], 'the reorg took the operation back');

    // The monitor sees the block gone, marks the operation reorged, sends it again; alto includes it again.
    let row = first;
    await waitUntil(
      async () => {
        row = await operationOf(sale.resaleId);
        return row.state === 'included' && row.tx_hash !== firstTx;
      },
      20_000,
      'the operation included again',
    );
    assert.equal(row.reorgs, 1, 'tracked as reorged once');
    assert.deepEqual(row.tx_hashes, [firstTx, row.tx_hash]);
    assert.deepEqual(await operationsOnChain(sale.account), [row.tx_hash], 'one operation on chain');
    assert.equal(getAddress(await stack.chain.chain.reader.ownerOf(sale.tokenId)), sale.account);
    const claims = await stack.chain.chain.reader.tokenEvents('OwnershipClaimed', sale.tokenId, 0);
    assert.deepEqual(
      claims.map((event) => [event.transactionHash, getAddress(event.args.to as string)]),
      [[row.tx_hash, sale.account]],
      'one claim on chain, by the buyer’s account',
    );

    // The records that named the reorged transaction name the canonical one.
    const [resale] = await db().execute<{ claim_tx_hash: string; status: string }[]>(
      'select claim_tx_hash, status from resales where id = ?',
      [sale.resaleId],
    );
    assert.deepEqual(resale, { claim_tx_hash: row.tx_hash, status: 'CLAIMED' });
    const events = await db().execute<{ transaction_hash: string }[]>(
      'select transaction_hash from supply_chain_events where transaction_hash in (?, ?)',
      [firstTx, row.tx_hash],
    );
    assert.ok(events.length > 0, 'the transfer event was recorded');
    assert.ok(
      events.every((event) => event.transaction_hash === row.tx_hash),
      'no event names the reorged transaction',
    );
  });
});
