import assert from 'node:assert/strict';
import { getAddress } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { userWalletAddress } from '../../src/accounts/wallets/user-wallet.ts';
import { StripeGateway } from '../../src/adapters/payments/stripe-gateway.ts';
import type { TestTenant } from '../support/api.ts';
import { claimWithChallenge } from '../support/fixtures/claim.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { digitalLinkTap } from '../support/fixtures/sun.ts';
import { LIVE_TEST_SECRETS } from '../support/secrets.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtp-receiver.ts';
import { type RunningWorker, startTestStack, type TestStack } from '../support/stack.ts';
import { postStripeEvent, signedStripeEvent } from '../support/stripe.ts';
import { waitFor } from '../support/wait-for.ts';
import { personToken } from './fixtures/people.ts';

const BUYER = 'Env.Buyer@Example.com';
const buyerWallet = userWalletAddress(LIVE_TEST_SECRETS.WALLET_MASTER_SECRET, BUYER);
/** The live environment's Stripe settings (the live chain is not part of this stack; its database rows are). */
const LIVE_WEBHOOK_SECRET = 'whsec_dppServiceLiveSigningSecret0123456789';
const LIVE_OWNER = '0x00000000000000000000000000000000000011fe';
/**
 * A secret key stripe-mock refuses (an underscore after the prefix is not "valid looking"); it answers 401
 * with a message that quotes the Authorization header, key included.
 */
const REFUSED_KEY = 'sk_test_Qz_9f8e7d6c5b4a3210KqWv';

/** The spec's payment_intent.succeeded, exactly its data.object: {id, amount, currency, metadata {tokenId, buyerWallet}}. */
function specPayment(
  id: string,
  object: { amount: number; currency: string; tokenId: string; buyerWallet: string },
  live = false,
) {
  return signedStripeEvent(
    {
      id,
      type: 'payment_intent.succeeded',
      livemode: live,
      data: {
        object: {
          id: `pi_${id}`,
          amount: object.amount,
          currency: object.currency,
          metadata: { tokenId: object.tokenId, buyerWallet: object.buyerWallet },
        },
      },
    },
    live ? { secret: LIVE_WEBHOOK_SECRET } : {},
  );
}

describe('resale across environments, with the spec’s payment event, and a refusing payment provider', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let smtp: SmtpReceiver;
  let worker: RunningWorker;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  const sql = <T>(query: string, params: unknown[] = []) =>
    stack.api.db.orm.em.fork().execute<T[]>(query, params);
  const userToken = (email: string) => personToken(stack.api, smtp, email);

  /** Restarts the worker with other Stripe settings (the activities read them when the worker starts). */
  const restartWorker = async (payments: StripeGateway) => {
    await worker.stop();
    stack.deps.payments = payments;
    worker = await stack.startWorker();
  };

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    stack = await startTestStack({
      smartAccounts: true,
      startWorker: false,
      apiEnv: {
        SMTP_URL: smtp.url,
        ...LIVE_TEST_SECRETS,
        STRIPE_SECRET_KEY_LIVE: 'sk_live_DppServiceLiveKey0123456789',
        STRIPE_WEBHOOK_SECRET_LIVE: LIVE_WEBHOOK_SECRET,
      },
    });
    worker = await stack.startWorker();
    tenant = await stack.api.createTenant('Acme Apparel');
  });
  afterAll(async () => {
    await stack?.close();
    await smtp?.close();
  });

  test('a live passport with the same token id is untouched by a test resale paid with the spec’s event and claimed', async () => {
    // The company's live passport 1 (test and live token ids both count from 1), older than the test one.
    const [chip] = await sql<{ id: number }>(
      `insert into chips (company_id, environment, chip_uid, status) values (?, 'live', '04AAAAAA0000AA', 'ACTIVE')
       returning id`,
      [tenant.companyId],
    );
    await sql(
      `insert into passports (company_id, environment, token_id, chip_id, chip_uid, owner_wallet, metadata_url,
         service_uid, transaction_hash, mint_block, mint_timestamp, locked_deposit_wei, metadata_cache,
         contract_address)
       values (?, 'live', '1', ?, '04AAAAAA0000AA', ?, 'ipfs://live', gen_random_uuid(), ?, 1, now(), 0, '{}', ?)`,
      [tenant.companyId, chip!.id, LIVE_OWNER, `0x${'ab'.repeat(32)}`, `0x${'11'.repeat(20)}`],
    );
    const chipUid = '04ABCDEF0000E1';
    const tokenId = await enrollAndMint(call, chipUid);
    assert.equal(tokenId, '1', 'the test passport has the live one’s token id');
    const buyer = await userToken(BUYER);

    const released = await call('POST', '/v1/dpp/release', {
      tokenId,
      price: { amount: 12900, currency: 'EUR' },
      buyerEmail: BUYER,
    });
    assert.equal(released.status, 201, released.text);
    const status = () => call('GET', `/v1/dpp/resales/${tokenId}`).then((answer) => answer.body.status);

    // The spec's event signed with the live secret: no live resale of token 1 for this buyer, so nothing.
    const livePayment = await postStripeEvent(
      stack.api,
      specPayment('evt_spec_live', { amount: 12900, currency: 'eur', tokenId, buyerWallet }, true),
    );
    assert.equal(livePayment.status, 200, livePayment.text);
    assert.equal(livePayment.body.outcome, 'ignored');
    // Another buyer's wallet names no open resale either.
    const otherBuyer = await postStripeEvent(
      stack.api,
      specPayment('evt_spec_other', {
        amount: 12900,
        currency: 'eur',
        tokenId,
        buyerWallet: userWalletAddress(LIVE_TEST_SECRETS.WALLET_MASTER_SECRET, 'someone.else@example.com'),
      }),
    );
    assert.equal(otherBuyer.body.outcome, 'ignored');
    assert.equal(await status(), 'AWAITING_PAYMENT');

    // The spec's event (no resale id in its metadata), signed with the test secret: the test resale is paid.
    const paid = await postStripeEvent(
      stack.api,
      specPayment('evt_spec_paid', { amount: 12900, currency: 'eur', tokenId, buyerWallet }),
    );
    assert.equal(paid.status, 200, paid.text);
    assert.equal(paid.body.outcome, 'applied');
    await waitFor('buyer authorized', status, (s) => s === 'AWAITING_CLAIM');
    assert.equal(await stack.chain.chain.reader.claimantOf(tokenId), buyerWallet);

    const claimed = await claimWithChallenge(stack.api, buyer, tokenId, digitalLinkTap(chipUid, 2));
    assert.equal(claimed.status, 200, claimed.text);
    assert.equal(getAddress(await stack.chain.chain.reader.ownerOf(tokenId)), buyerWallet);

    const passports = await sql<{ environment: string; owner_wallet: string }>(
      `select environment, owner_wallet from passports where token_id = '1' order by environment`,
    );
    assert.deepEqual(passports, [
      { environment: 'live', owner_wallet: LIVE_OWNER },
      { environment: 'test', owner_wallet: buyerWallet },
    ]);
    const liveEvents = await sql<{ action: string }>(
      `select action from supply_chain_events where environment = 'live'`,
    );
    assert.deepEqual(liveEvents, [], 'nothing recorded in the live passport’s history');
  });

  test('a release the payment provider refuses touches no chain and echoes nothing of the provider', async () => {
    const tokenId = await enrollAndMint(call, '04ABCDEF0000E2');
    const chain = stack.chain.chain;
    const good = stack.deps.payments;
    const { config } = stack.api;
    await restartWorker(
      new StripeGateway({
        ...config.payments,
        stripe: {
          ...config.payments.stripe,
          test: { ...config.payments.stripe.test!, secretKey: REFUSED_KEY },
        },
      }),
    );
    try {
      const nonce = await chain.provider.getTransactionCount(chain.signerAddress, 'latest');
      const block = await chain.provider.getBlockNumber();
      const refused = await call('POST', '/v1/dpp/release', {
        tokenId,
        price: { amount: 5000, currency: 'eur' },
        buyerEmail: BUYER,
      });
      assert.equal(refused.status, 503, refused.text);
      assert.equal(refused.body.code, 'payments_misconfigured');
      assert.equal(refused.headers.get('content-type'), 'application/problem+json');
      // Nothing of the key, nothing of Stripe's message (which quotes our Authorization header).
      const secretPart = REFUSED_KEY.slice('sk_test_'.length);
      for (let i = 0; i + 6 <= secretPart.length; i++) {
        assert.ok(!refused.text.includes(secretPart.slice(i, i + 6)), `key fragment in ${refused.text}`);
      }
      for (const raw of ['sk_test', 'Authorization', 'Bearer', 'authenticate', 'valid looking']) {
        assert.ok(!refused.text.includes(raw), `"${raw}" in ${refused.text}`);
      }
      // No transaction at all: neither authorizeClaim nor its undo.
      assert.equal(await chain.provider.getTransactionCount(chain.signerAddress, 'latest'), nonce);
      assert.equal(await chain.provider.getBlockNumber(), block);
      assert.equal(await chain.reader.claimantOf(tokenId), null);
      assert.equal(await call('GET', `/v1/dpp/resales/${tokenId}`).then((a) => a.body.status), 'FAILED');
      // The workflow's history (what operators see) does not hold the key either.
      const history = await stack.temporal.client.workflow.getHandle(`resale:test:${tokenId}`).fetchHistory();
      assert.ok(!JSON.stringify(history).includes(secretPart));
    } finally {
      await restartWorker(good);
    }
    // With a provider that accepts, the same passport is released as usual.
    const released = await call('POST', '/v1/dpp/release', {
      tokenId,
      price: { amount: 5000, currency: 'eur' },
      buyerEmail: BUYER,
    });
    assert.equal(released.status, 201, released.text);
    assert.equal(await chain.reader.claimantOf(tokenId), chain.signerAddress);
  });
});
