import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { cliTap, http, mailTo, ok, postProviderEvent, stack, waitFor } from './client.ts';
import { JOURNEY_GTIN, recall } from './shared.ts';

type Passports = { tokenId: string; chipUid: string }[];
const PASSWORD = 'a buyer’s long password';

/** A person's account: registered, confirmed from the mail, logged in; their user token. */
async function person(email: string): Promise<string> {
  await ok(
    http('POST', '/v1/auth/register', { body: { email, password: PASSWORD, companyName: 'Private' } }),
    'register',
  );
  const link = /^(http\S+\/v1\/auth\/confirm\?token=\S+)$/m.exec(await mailTo(email))?.[1];
  assert.ok(link);
  assert.ok((await http('GET', link, { env: null })).status < 400);
  return (await ok(http('POST', '/v1/auth/login', { body: { email, password: PASSWORD } }), 'login')).token;
}

// A resale from release to payout, as the brand, the payment provider and the buyer each act: the brand
// releases, the provider's signed payment_intent.succeeded arrives in the spec's shape, the buyer taps the chip
// and claims, and the buyer's wallet owns the passport.
describe('a product is resold', () => {
  test('release → spec-shaped payment event → buyer taps and claims → buyer owns it → payout', async () => {
    const passports = await recall<Passports>('passports');
    const passport = passports[3]!;
    const brand = stack().demoKey;
    const buyerEmail = `buyer.${Date.now()}@example.com`;
    const buyer = await person(buyerEmail);
    const buyerWallet = (await ok(http('GET', '/v1/auth/wallet', { key: buyer }), 'wallet'))
      .address as string;
    assert.match(buyerWallet, /^0x[0-9a-fA-F]{40}$/);

    // The brand's payouts need a verified account: KYB, then the provider reports it verified.
    const kyb = await ok(
      http('POST', '/v1/kyb/submit', {
        key: brand,
        body: {
          company: { name: 'Demo Company GmbH', taxId: 'DE123456789', address: BERLIN },
          representative: {
            firstName: 'Jane',
            lastName: 'Doe',
            email: 'jane@demo.example',
            birthdate: '1980-04-02',
            address: BERLIN,
          },
          tosAcceptance: { accepted: true },
        },
      }),
      'KYB submit',
    );
    const verified = await postProviderEvent({
      id: `evt_acct_${Date.now()}`,
      type: 'account.updated',
      data: {
        object: {
          id: kyb.connectId,
          object: 'account',
          payouts_enabled: true,
          requirements: { currently_due: [], past_due: [], disabled_reason: null },
        },
      },
    });
    assert.equal(verified.status, 200, verified.text);

    const released = await ok(
      http('POST', '/v1/dpp/release', {
        key: brand,
        body: { tokenId: passport.tokenId, price: { amount: 12900, currency: 'EUR' }, buyerEmail },
      }),
      'release',
    );
    assert.match(released.txHash, /^0x[0-9a-f]{64}$/);
    assert.match(released.paymentCheckoutUrl, /^https:\/\//);

    const challenge = async () =>
      (await http('POST', '/v1/dpp/claim/challenge', { key: buyer, body: { tokenId: passport.tokenId } }))
        .body.challengeId as string;
    const unpaid = await http('POST', '/v1/dpp/claim', {
      key: buyer,
      body: {
        tokenId: passport.tokenId,
        nfcData: (await cliTap(passport.chipUid)).nfcData,
        challengeId: await challenge(),
      },
    });
    assert.equal(unpaid.status, 409, 'no claim before the payment');

    // The payment provider's event exactly as the spec shows it: metadata {tokenId, buyerWallet}.
    const paid = await postProviderEvent({
      id: `evt_paid_${Date.now()}`,
      type: 'payment_intent.succeeded',
      data: {
        object: {
          id: `pi_${Date.now()}`,
          object: 'payment_intent',
          amount: 12900,
          amount_received: 12900,
          currency: 'eur',
          latest_charge: `ch_${Date.now()}`,
          metadata: { tokenId: passport.tokenId, buyerWallet },
        },
      },
    });
    assert.equal(paid.status, 200, paid.text);
    assert.equal(paid.body.outcome, 'applied', paid.text);

    await waitFor(
      'buyer authorized on chain',
      async () => (await http('GET', `/v1/dpp/resales/${passport.tokenId}`, { key: brand })).body,
      (body) => body?.status === 'AWAITING_CLAIM',
    );
    const challengeId = await challenge();
    const { nfcData } = await cliTap(passport.chipUid);
    const claimed = await ok(
      http('POST', '/v1/dpp/claim', {
        key: buyer,
        body: { tokenId: passport.tokenId, nfcData, challengeId },
      }),
      'claim',
    );
    assert.equal(claimed.ownerWallet.toLowerCase(), buyerWallet.toLowerCase());

    const erp = await ok(
      http('GET', `/01/${JOURNEY_GTIN}/21/${passport.tokenId}?format=erp`, { key: brand }),
      'ERP view',
    );
    assert.equal(
      JSON.stringify(erp).toLowerCase().includes(buyerWallet.toLowerCase()),
      true,
      'the buyer owns it',
    );

    const resale = await ok(http('GET', `/v1/dpp/resales/${passport.tokenId}`, { key: brand }), 'resale');
    assert.equal(resale.status, 'CLAIMED');

    // The payout runs on: an operator sees it complete in the Temporal UI (its HTTP API, as the UI's pages).
    const payoutId = encodeURIComponent(`resale-payout:test:${resale.resaleId}`);
    const payout = await waitFor(
      'payout workflow completed',
      async () => {
        const answer = await fetch(
          `${stack().temporalUiUrl}/api/v1/namespaces/default/workflows/${payoutId}`,
        );
        return answer.ok
          ? ((await answer.json()) as { workflowExecutionInfo?: { status?: string } })
          : undefined;
      },
      (body) => body?.workflowExecutionInfo?.status === 'WORKFLOW_EXECUTION_STATUS_COMPLETED',
      120,
    );
    assert.ok(payout);
  });
});

const BERLIN = { line1: 'Hauptstraße 1', city: 'Berlin', postalCode: '10115', country: 'DE' };
