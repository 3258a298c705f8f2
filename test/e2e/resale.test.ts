import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { getAddress } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { userWalletAddress } from '../../src/accounts/wallets/user-wallet.ts';
import { RESALE_PROGRESS_QUERY } from '../../src/processes/resale.ts';
import type { TestTenant } from '../support/api.ts';
import { claimWithChallenge, releaseWithChallenge } from '../support/fixtures/claim.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN } from '../support/fixtures/products.ts';
import { digitalLinkTap, tapQuery } from '../support/fixtures/sun.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtp-receiver.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { paymentSucceeded, postStripeEvent, signedStripeEvent } from '../support/stripe.ts';
import { waitFor } from '../support/wait-for.ts';
import { type Receiver, specSignature, startReceiver } from '../webhooks/support.ts';
import { verifiedCompanyAccount } from './fixtures/connect-accounts.ts';
import { personToken } from './fixtures/people.ts';

const BUYER = 'Buyer.One@Example.com';
const buyerWallet = userWalletAddress(undefined, BUYER);

describe('resale: release → signed payment → buyer authorized on chain → claim', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let receiver: Receiver;
  let webhookSecret: string;
  let smtp: SmtpReceiver;
  const userToken = (email: string) => personToken(stack.api, smtp, email);

  const claim = (token: string, tokenId: string, nfcData: string) =>
    claimWithChallenge(stack.api, token, tokenId, nfcData);
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  const webhook = (signed: { body: string; headers: Record<string, string> }) =>
    postStripeEvent(stack.api, signed);

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    stack = await startTestStack({ smartAccounts: true, apiEnv: { SMTP_URL: smtp.url } });
    tenant = await stack.api.createTenant('Acme Apparel');
    receiver = await startReceiver();
    const endpoint = await call('POST', '/v1/webhooks/endpoints', {
      url: receiver.url,
      eventTypes: ['asset.transferred'],
    });
    assert.equal(endpoint.status, 201, endpoint.text);
    webhookSecret = endpoint.body.secret;
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.close();
    await smtp?.close();
  });

  test('the whole sale, each payment event applied once, a wrong amount refused (and refunded)', async () => {
    const chipUid = '04ABCDEF000001';
    const tokenId = await enrollAndMint(call, chipUid);
    const buyer = await userToken(BUYER);
    const stranger = await userToken('someone.else@example.com');
    const chain = stack.chain.chain;

    const released = await call('POST', '/v1/dpp/release', {
      tokenId,
      price: { amount: 12900, currency: 'EUR' },
      buyerEmail: BUYER,
    });
    assert.equal(released.status, 201, released.text);
    assert.equal(released.body.success, true);
    assert.match(released.body.txHash, /^0x[0-9a-f]{64}$/);
    assert.match(released.body.paymentCheckoutUrl, /^https:\/\//);
    assert.equal(released.body.status, 'AWAITING_PAYMENT');
    const resaleId: string = released.body.resaleId;
    assert.equal(
      await chain.reader.claimantOf(tokenId),
      chain.signerAddress,
      'delegated to the platform admin',
    );

    const again = await call('POST', '/v1/dpp/release', {
      tokenId,
      price: { amount: 10000, currency: 'eur' },
      buyerEmail: 'someone@example.com',
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'resale_in_progress');

    // A payment that does not match the release changes nothing.
    const wrong = await webhook(paymentSucceeded('evt_wrong', { tokenId, buyerWallet, resaleId }, 100));
    assert.equal(wrong.status, 200, wrong.text);
    const handle = stack.temporal.client.workflow.getHandle(`resale:test:${tokenId}`);
    const refused = await waitFor(
      'refused payment',
      () => handle.query<{ refusedPayments?: unknown[]; state: string }>(RESALE_PROGRESS_QUERY),
      (p) => (p.refusedPayments?.length ?? 0) > 0,
    );
    assert.equal(refused.state, 'AWAITING_PAYMENT');
    const unpaid = await claim(buyer, tokenId, digitalLinkTap(chipUid, 2));
    assert.equal(unpaid.status, 409, unpaid.text);
    assert.equal(unpaid.body.code, 'payment_pending');

    const paid = paymentSucceeded('evt_paid', { tokenId, buyerWallet, resaleId });
    assert.equal((await webhook(paid)).body.outcome, 'applied');
    assert.equal((await webhook(paid)).body.outcome, 'duplicate', 'Stripe retries change nothing');
    const status = await waitFor(
      'buyer authorized',
      async () => (await call('GET', `/v1/dpp/resales/${tokenId}`)).body,
      (body) => body.status === 'AWAITING_CLAIM',
    );
    assert.deepEqual(status.price, { amount: 12900, currency: 'eur', decimal: '129.00' });
    assert.equal(await chain.reader.claimantOf(tokenId), buyerWallet, 'the buyer may now claim');
    const [authorized] = await stack.api.db.orm.em
      .fork()
      .execute<{ action: string; metadata: { authorizedAccount: string } }[]>(
        `select action, metadata from supply_chain_events where token_id = ? and action = 'AUTHORIZE_CLAIM'`,
        [tokenId],
      );
    assert.equal(authorized?.metadata.authorizedAccount, buyerWallet);

    // The brand (the seller here) is a verified Connect account, so the payout can go out after the claim.
    await verifiedCompanyAccount(call, webhook, 'evt_acct_verified');

    // The buyer claims by tapping the chip. Refused, with nothing on chain: another person, a replayed tap, a
    // tap of another chip.
    const seller = getAddress(await chain.reader.ownerOf(tokenId));
    const notTheBuyer = await claim(stranger, tokenId, digitalLinkTap(chipUid, 3));
    assert.equal(notTheBuyer.status, 404, notTheBuyer.text);
    assert.equal(notTheBuyer.body.code, 'resale_not_found');
    const replayed = await claim(buyer, tokenId, digitalLinkTap(chipUid, 1)); // the mint's tap, seen before
    assert.equal(replayed.status, 422, replayed.text);
    assert.equal(replayed.body.code, 'tap_before_challenge', 'a reading older than the claim’s challenge');
    const foreign = await claim(buyer, tokenId, digitalLinkTap('04ABCDEF0000FF', 50));
    assert.equal(foreign.status, 422, foreign.text);
    assert.equal(foreign.body.code, 'tap_not_authentic');
    // A tag URL opened before the claim started (captured, or the seller's last tap) cannot claim, even posted
    // right after a new challenge.
    const opened = (counter: number) =>
      stack.api.call('GET', `/01/${GTIN}/21/${tokenId}?${tapQuery(chipUid, counter)}`);
    assert.equal((await opened(4)).status, 307);
    const captured = await claim(buyer, tokenId, digitalLinkTap(chipUid, 4));
    assert.equal(captured.status, 422, captured.text);
    assert.equal(captured.body.code, 'tap_before_challenge');
    assert.match(captured.text, /before your claim started/);
    assert.equal(getAddress(await chain.reader.ownerOf(tokenId)), seller, 'nothing moved on chain');
    // A phone without Web NFC: challenge, then the tag's URL opened on the phone (the resolver accepts the
    // counter), then that URL posted within the window: it claims.
    const challenge = await stack.api.call('POST', '/v1/dpp/claim/challenge', {
      key: buyer,
      body: { tokenId },
    });
    assert.equal(challenge.status, 201, challenge.text);
    assert.equal((await opened(5)).status, 307);
    const answer = await stack.api.call('POST', '/v1/dpp/claim', {
      key: buyer,
      body: { tokenId, nfcData: digitalLinkTap(chipUid, 5), challengeId: challenge.body.challengeId },
    });
    assert.equal(answer.status, 200, answer.text);
    const twice = await stack.api.call('POST', '/v1/dpp/claim', {
      key: buyer,
      body: { tokenId, nfcData: digitalLinkTap(chipUid, 6), challengeId: challenge.body.challengeId },
    });
    assert.notEqual(twice.status, 200, 'a challenge claims once');
    const claimed = answer.body as { txHash: string; ownerWallet: string };
    assert.equal(claimed.ownerWallet, buyerWallet);
    assert.equal(
      getAddress(await chain.reader.ownerOf(tokenId)),
      buyerWallet,
      'the buyer owns the token on chain',
    );
    assert.equal(await chain.reader.claimantOf(tokenId), null);
    const events = await stack.api.db.orm.em
      .fork()
      .execute<{ event_type: string; data: Record<string, string> }[]>(
        `select event_type, data from outbox_events where event_type in ('asset.transferred', 'asset.resold')
         order by event_type`,
      );
    const expected = {
      tokenId,
      from: seller,
      to: buyerWallet,
      salePrice: '129.00',
      currency: 'EUR',
      transactionHash: claimed.txHash,
      warrantyExpiry: null, // never sold at a point of sale, so no warranty runs
    };
    assert.deepEqual(events, [
      { event_type: 'asset.resold', data: expected },
      { event_type: 'asset.transferred', data: expected },
    ]);
    // The payout: the brand sold its own passport, so 99 % (94 + 5) of the charge net of Stripe's fee goes to
    // its account in one transfer. stripe-mock answers every charge with one fixed balance transaction (100 usd,
    // fee 0), so that is what is split here; test/unit/resale-money.test.ts covers the arithmetic.
    const payout = await stack.temporal.client.workflow.getHandle(`resale-payout:test:${resaleId}`).result();
    assert.equal(payout.status, 'PAID', JSON.stringify(payout));
    assert.deepEqual(
      payout.transfers.map((t: { party: string; amount: number }) => [t.party, t.amount]),
      [['seller_and_brand', 99]],
    );

    // The brand's subscriber hears of it: the spec's envelope and fields, signed with the endpoint's secret.
    await receiver.waitFor(1);
    const [delivered] = receiver.requests;
    assert.equal(delivered!.headers['service-signature'], specSignature(webhookSecret, delivered!.body));
    const envelope = JSON.parse(delivered!.body);
    assert.equal(envelope.eventType, 'asset.transferred');
    assert.deepEqual(envelope.data, expected);
    const [passport] = await stack.api.db.orm.em
      .fork()
      .execute<{ owner_wallet: string }[]>('select owner_wallet from passports where token_id = ?', [
        tokenId,
      ]);
    assert.equal(passport?.owner_wallet, buyerWallet);
    assert.equal((await call('GET', `/v1/dpp/resales/${tokenId}`)).body.status, 'CLAIMED');

    // The buyer's authorization and the claim each made a new passport version (docs/passport-versions.md).
    type OperatorSection = { ownerWallet: string; events: { action: string }[] };
    const operator = 'urn:dpp-service:content-specification:product-operator:1.0';
    const versions = await stack.api.db.orm.em
      .fork()
      .execute<{ number: number; content: Record<string, OperatorSection> }[]>(
        `select v.number, v.content from passport_versions v join passports p on p.id = v.passport_id
       where p.token_id = ? and p.environment = 'test' order by v.number`,
        [tokenId],
      );
    assert.deepEqual(
      versions.map((v) => v.number),
      versions.map((_, index) => index + 1),
    );
    const [claimedVersion, authorizedVersion] = [versions.at(-1)!, versions.at(-2)!];
    assert.equal(claimedVersion.content[operator]!.ownerWallet, buyerWallet);
    assert.deepEqual(
      claimedVersion.content[operator]!.events.slice(-2).map((e) => e.action),
      ['AUTHORIZE_CLAIM', 'CLAIM_OWNERSHIP'],
    );
    assert.notEqual(authorizedVersion.content[operator]!.ownerWallet, buyerWallet, 'before the claim');
    assert.equal(authorizedVersion.content[operator]!.events.at(-1)!.action, 'AUTHORIZE_CLAIM');

    // Sold: the brand's custodial wallet no longer holds it, so the brand cannot release it again.
    const resell = await call('POST', '/v1/dpp/release', {
      tokenId,
      price: { amount: 12900, currency: 'eur' },
      buyerEmail: 'next@example.com',
    });
    assert.equal(resell.status, 422);
    assert.equal(resell.body.code, 'not_token_owner');

    // The new owner resells it with their own credential (their invisible wallet holds it) and, as a claim, a
    // tap made after a challenge; nobody else can.
    const terms = { tokenId, price: { amount: 9900, currency: 'eur' }, buyerEmail: 'next@example.com' };
    const byStranger = await stack.api.call('POST', '/v1/dpp/release', { key: stranger, body: terms });
    assert.equal(byStranger.status, 404, byStranger.text);
    const strangerChallenge = await stack.api.call('POST', '/v1/dpp/release/challenge', {
      key: stranger,
      body: { tokenId },
    });
    assert.equal(strangerChallenge.status, 404, strangerChallenge.text);
    const noTap = await stack.api.call('POST', '/v1/dpp/release', { key: buyer, body: terms });
    assert.equal(noTap.status, 400, noTap.text);
    assert.equal(noTap.body.code, 'tap_required');
    // The claim's own tag URL (read before this release started) cannot release, nor an unknown challenge.
    const stale = await releaseWithChallenge(stack.api, buyer, terms, digitalLinkTap(chipUid, 5));
    assert.equal(stale.status, 422, stale.text);
    assert.equal(stale.body.code, 'tap_before_challenge');
    assert.match(stale.text, /before your release started/);
    const unknown = await stack.api.call('POST', '/v1/dpp/release', {
      key: buyer,
      body: { ...terms, nfcData: digitalLinkTap(chipUid, 7), challengeId: randomUUID() },
    });
    assert.equal(unknown.status, 422, unknown.text);
    assert.equal(unknown.body.code, 'challenge_expired');
    assert.equal(await chain.reader.claimantOf(tokenId), null, 'nothing delegated');
    const byOwner = await releaseWithChallenge(stack.api, buyer, terms, digitalLinkTap(chipUid, 7));
    assert.equal(byOwner.status, 201, byOwner.text);
    assert.match(byOwner.body.paymentCheckoutUrl, /^https:\/\//);
    assert.equal(
      await chain.reader.claimantOf(tokenId),
      chain.signerAddress,
      'delegated to the platform admin again',
    );
    const [resale] = await stack.api.db.orm.em
      .fork()
      .execute<{ seller_kind: string; seller_wallet: string }[]>(
        `select seller_kind, seller_wallet from resales where id = ?`,
        [byOwner.body.resaleId],
      );
    assert.deepEqual(resale, { seller_kind: 'user', seller_wallet: buyerWallet });
  });
});

describe('resale windows (time-skipping Temporal)', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    stack = await startTestStack({ temporal: 'time-skipping' });
    tenant = await stack.api.createTenant('Acme Apparel');
  });
  afterAll(() => stack.close());

  test('not paid within 24 hours: checkout expired, delegation revoked, the passport can be released again', async () => {
    const tokenId = await enrollAndMint(call, '04ABCDEF000002');
    const released = await call('POST', '/v1/dpp/release', {
      tokenId,
      price: { amount: 5000, currency: 'eur' },
      buyerEmail: BUYER,
    });
    assert.equal(released.status, 201, released.text);
    const result = await stack.temporal.client.workflow.getHandle(`resale:test:${tokenId}`).result();
    assert.equal(result.state, 'EXPIRED');
    assert.match(String(result.revokeTxHash), /^0x[0-9a-f]{64}$/);
    assert.equal(await stack.chain.chain.reader.claimantOf(tokenId), null, 'delegation revoked');
    assert.equal((await call('GET', `/v1/dpp/resales/${tokenId}`)).body.status, 'EXPIRED');
    const again = await call('POST', '/v1/dpp/release', {
      tokenId,
      price: { amount: 4500, currency: 'eur' },
      buyerEmail: BUYER,
    });
    assert.equal(again.status, 201, again.text);
  });

  test('paid but not claimed within 30 days: the payment is refunded and the authorization revoked', async () => {
    const tokenId = await enrollAndMint(call, '04ABCDEF000003');
    const released = await call('POST', '/v1/dpp/release', {
      tokenId,
      price: { amount: 7900, currency: 'eur' },
      buyerEmail: BUYER,
    });
    assert.equal(released.status, 201, released.text);
    const paid = signedStripeEvent({
      id: 'evt_unclaimed',
      type: 'payment_intent.succeeded',
      data: {
        object: {
          id: 'pi_unclaimed',
          object: 'payment_intent',
          amount: 7900,
          amount_received: 7900,
          currency: 'eur',
          metadata: { tokenId, buyerWallet, resaleId: released.body.resaleId },
        },
      },
    });
    const answer = await stack.api.call('POST', '/v1/public/webhook/checkout', {
      env: null,
      rawBody: paid.body,
      headers: paid.headers,
    });
    assert.equal(answer.body.outcome, 'applied');
    const handle = stack.temporal.client.workflow.getHandle(`resale:test:${tokenId}`);
    const result = await handle.result();
    assert.equal(result.state, 'CLAIM_EXPIRED');
    assert.equal(await stack.chain.chain.reader.claimantOf(tokenId), null, 'the buyer can no longer claim');
    const history = await handle.fetchHistory();
    const activities = (history.events ?? [])
      .map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name)
      .filter(Boolean);
    assert.ok(activities.includes('refundResalePayment'), `refunded: ${activities.join(', ')}`);
    assert.equal((await call('GET', `/v1/dpp/resales/${tokenId}`)).body.status, 'CLAIM_EXPIRED');
  });
});
