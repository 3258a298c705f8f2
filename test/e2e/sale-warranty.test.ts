import assert from 'node:assert/strict';
import { getAddress } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { warrantyEnd } from '../../src/accounts/settings/company-settings.ts';
import { userWalletAddress } from '../../src/accounts/wallets/user-wallet.ts';
import type { TestTenant } from '../support/api.ts';
import { claimWithChallenge } from '../support/fixtures/claim.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN } from '../support/fixtures/products.ts';
import { tapQuery } from '../support/fixtures/sun.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtp-receiver.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { paymentSucceeded, postStripeEvent } from '../support/stripe.ts';
import { type Receiver, specSignature, startReceiver, waitUntil } from '../webhooks/support.ts';
import { personToken } from './fixtures/people.ts';

const BUYER = 'warranty.buyer@example.com';
const HAMBURG = { locationName: 'Port of Hamburg', latitude: 53.546, longitude: 9.9661 };

interface Envelope {
  eventId: string;
  eventType: string;
  timestamp: string;
  data: Record<string, unknown>;
}

// The spec's events table: asset.customs_cleared carries action CUSTOMS_CLEARED, asset.sold action SOLD; a sale
// "starts warranty period", a transfer "updates warranty status" (here: keeps the running warranty).
describe('supply-chain webhooks carry the spec actions; a sale starts the warranty, a transfer keeps it', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let receiver: Receiver;
  let secret: string;
  let smtp: SmtpReceiver;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  /** Every envelope the receiver got, each checked against the endpoint secret as the spec's receiver does. */
  const received = (): Envelope[] =>
    receiver.requests.map((request) => {
      assert.equal(request.headers['service-signature'], specSignature(secret, request.body));
      return JSON.parse(request.body) as Envelope;
    });
  /** The event the receiver got for `eventType` whose data matches `where`, once it arrives. */
  async function delivered(eventType: string, where: Record<string, unknown>): Promise<Envelope> {
    let found: Envelope | undefined;
    await waitUntil(
      async () => {
        found = received().find(
          (e) =>
            e.eventType === eventType && Object.entries(where).every(([key, value]) => e.data[key] === value),
        );
        return found !== undefined;
      },
      30_000,
      `${eventType} ${JSON.stringify(where)}`,
    );
    return found!;
  }
  /** Logs an event; answers it as GET /v1/iaas/events/:id shows it. */
  async function logEvent(tokenId: string, action: string) {
    const logged = await call('POST', '/v1/iaas/log-event', { tokenId, action, ...HAMBURG, metadata: {} });
    assert.equal(logged.status, 201, logged.text);
    return (await call('GET', `/v1/iaas/events/${logged.body.eventId}`)).body.event as {
      timestamp: string;
    };
  }
  const warrantyOf = async (tokenId: string) => {
    const erp = await call('GET', `/01/${GTIN}/21/${tokenId}?format=erp`);
    assert.equal(erp.status, 200, erp.text);
    return erp.body.productData.warrantyExpiry as string | null;
  };

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    stack = await startTestStack({ smartAccounts: true, apiEnv: { SMTP_URL: smtp.url } });
    tenant = await stack.api.createTenant('Acme Apparel');
    receiver = await startReceiver();
    const endpoint = await call('POST', '/v1/webhooks/endpoints', {
      url: receiver.url,
      eventTypes: ['asset.customs_cleared', 'asset.sold', 'asset.transferred'],
    });
    assert.equal(endpoint.status, 201, endpoint.text);
    secret = endpoint.body.secret;
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.close();
    await smtp?.close();
  });

  test('customs: every clearance is announced as CUSTOMS_CLEARED, the logged action kept in loggedAction', async () => {
    const tokenId = await enrollAndMint(call, '04D0E0000000A1');
    for (const action of ['EXPORT_CLEARED', 'IMPORT_CLEARED', 'CUSTOMS_CLEARED'])
      await logEvent(tokenId, action);
    for (const loggedAction of ['EXPORT_CLEARED', 'IMPORT_CLEARED', 'CUSTOMS_CLEARED']) {
      const envelope = await delivered('asset.customs_cleared', { tokenId, loggedAction });
      assert.deepEqual(Object.keys(envelope.data).sort(), [
        'action',
        'actor',
        'latitude',
        'locationName',
        'loggedAction',
        'longitude',
        'tokenId',
        'transactionHash',
      ]);
      assert.equal(envelope.data.action, 'CUSTOMS_CLEARED');
      assert.equal(envelope.data.actor, 'Acme Apparel');
      assert.equal(envelope.data.locationName, HAMBURG.locationName);
      assert.match(String(envelope.data.transactionHash), /^0x[0-9a-f]{64}$/);
    }
    assert.equal(await warrantyOf(tokenId), null, 'no sale, no warranty');
  });

  test('the first sale (INITIAL_SALE or SOLD) starts the warranty: company months, default 24; a later sale keeps it', async () => {
    const tokenId = await enrollAndMint(call, '04D0E0000000B1');
    const sale = await logEvent(tokenId, 'INITIAL_SALE');
    const expiry = warrantyEnd(new Date(sale.timestamp), 24).toISOString();
    assert.equal(await warrantyOf(tokenId), expiry, 'the ERP representation shows it at once');
    const sold = await delivered('asset.sold', { tokenId, loggedAction: 'INITIAL_SALE' });
    assert.equal(sold.data.action, 'SOLD');
    assert.equal(sold.data.warrantyExpiry, expiry);
    assert.deepEqual(Object.keys(sold.data).sort(), [
      'action',
      'actor',
      'latitude',
      'locationName',
      'loggedAction',
      'longitude',
      'tokenId',
      'transactionHash',
      'warrantyExpiry',
    ]);

    // Another sale event of the same item does not restart or extend the running warranty.
    await logEvent(tokenId, 'SOLD');
    const again = await delivered('asset.sold', { tokenId, loggedAction: 'SOLD' });
    assert.equal(again.data.action, 'SOLD');
    assert.equal(again.data.warrantyExpiry, expiry);
    assert.equal(await warrantyOf(tokenId), expiry);

    // The company's own length applies to sales logged afterwards.
    const set = await call('PATCH', '/v1/company/settings', { warrantyMonths: 36 });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.body.settings.warrantyMonths, 36);
    assert.equal((await call('PATCH', '/v1/company/settings', { warrantyMonths: 0 })).status, 400);
    const other = await enrollAndMint(call, '04D0E0000000B2');
    const otherSale = await logEvent(other, 'SOLD');
    const otherExpiry = warrantyEnd(new Date(otherSale.timestamp), 36).toISOString();
    assert.equal((await delivered('asset.sold', { tokenId: other })).data.warrantyExpiry, otherExpiry);
    assert.equal(await warrantyOf(other), otherExpiry);
    assert.equal(await warrantyOf(tokenId), expiry, 'a running warranty is not recomputed');
  });

  test('a resale transfer keeps the running warranty and says so in asset.transferred', async () => {
    const chipUid = '04D0E0000000C1';
    const tokenId = await enrollAndMint(call, chipUid);
    const sale = await logEvent(tokenId, 'SOLD');
    const months = (await call('GET', '/v1/company/settings')).body.settings.warrantyMonths as number;
    const expiry = warrantyEnd(new Date(sale.timestamp), months).toISOString();
    await delivered('asset.sold', { tokenId });

    const buyerToken = await personToken(stack.api, smtp, BUYER);
    const buyerWallet = userWalletAddress(undefined, BUYER);

    const released = await call('POST', '/v1/dpp/release', {
      tokenId,
      price: { amount: 12900, currency: 'EUR' },
      buyerEmail: BUYER,
    });
    assert.equal(released.status, 201, released.text);
    const paid = paymentSucceeded('evt_warranty_paid', {
      tokenId,
      buyerWallet,
      resaleId: released.body.resaleId,
    });
    assert.equal((await postStripeEvent(stack.api, paid)).status, 200);
    await waitUntil(
      async () => (await call('GET', `/v1/dpp/resales/${tokenId}`)).body.status === 'AWAITING_CLAIM',
      30_000,
      'buyer authorized',
    );
    const claimed = await claimWithChallenge(stack.api, buyerToken, tokenId, tapQuery(chipUid, 2));
    assert.equal(claimed.status, 200, claimed.text);
    assert.equal(getAddress(claimed.body.ownerWallet), getAddress(buyerWallet));

    const transferred = await delivered('asset.transferred', { tokenId });
    assert.equal(transferred.data.to, buyerWallet);
    assert.equal(transferred.data.warrantyExpiry, expiry, 'the transfer keeps the running warranty');
    assert.equal(await warrantyOf(tokenId), expiry);
  });
});
