import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { signUserToken } from '../../src/accounts/identity/user-token.ts';
import { userTokenKeysOf } from '../../src/accounts/identity/user-token-keys.ts';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';
import { postStripeEvent } from '../support/stripe.ts';
import { accountUpdated, BERLIN as address, KYB_SUBMISSION } from './fixtures/connect-accounts.ts';

const IBAN = 'DE89 3704 0044 0532 0130 00';
const KYC = {
  individual: {
    firstName: 'Sam',
    lastName: 'Seller',
    email: 'seller@example.com',
    birthdate: '1990-01-31',
    address,
  },
  tosAcceptance: { accepted: true },
};
const PDF = Buffer.from('%PDF-1.7\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);

describe('KYB and KYC through Stripe Connect accounts', () => {
  let api: TestApi;
  let tenant: TestTenant;
  let seller: string;
  const kyb = (method: string, path: string, body?: unknown) =>
    api.call(method, `/v1/kyb/${path}`, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  const kyc = (method: string, path: string, body?: unknown) =>
    api.call(method, `/v1/kyc/${path}`, { key: seller, ...(body === undefined ? {} : { body }) });
  const webhook = (signed: { body: string; headers: Record<string, string> }) => postStripeEvent(api, signed);

  beforeAll(async () => {
    api = await startTestApi();
    tenant = await api.createTenant('Acme Apparel');
    seller = signUserToken(userTokenKeysOf(api.config), {
      userId: 77,
      email: 'seller@example.com',
      companyId: (await api.createTenant('Private seller')).companyId,
      environment: 'test',
    });
  });
  afterAll(() => api.close());

  test('KYB: status before, submit, verification from signed account.updated events (newest wins)', async () => {
    const before = await kyb('GET', 'status');
    assert.deepEqual(before.body, {
      success: true,
      status: 'not_started',
      verified: false,
      requirements: [],
      connectId: null,
    });
    assert.equal(
      (
        await kyb('POST', 'upload-document', {
          documentType: 'registry_extract',
          contentBase64: PDF.toString('base64'),
        })
      ).body.code,
      'no_connect_account',
    );
    const submitted = await kyb('POST', 'submit', {
      ...KYB_SUBMISSION,
      tosAcceptance: { accepted: true, ip: '203.0.113.7' },
    });
    assert.equal(submitted.status, 200, submitted.text);
    assert.match(submitted.body.connectId, /^acct_/);
    const account: string = submitted.body.connectId;
    const now = Math.floor(Date.now() / 1000);
    assert.equal((await webhook(accountUpdated('evt_acct_1', account, false, now))).body.outcome, 'applied');
    const pending = (await kyb('GET', 'status')).body;
    assert.deepEqual(
      {
        status: pending.status,
        verified: pending.verified,
        requirements: pending.requirements,
        connectId: pending.connectId,
      },
      {
        status: 'pending',
        verified: false,
        requirements: ['company.tax_id', 'representative.verification.document'],
        connectId: account,
      },
    );
    await webhook(accountUpdated('evt_acct_2', account, true, now + 5));
    await webhook(accountUpdated('evt_acct_0', account, false, now - 5));
    const verified = (await kyb('GET', 'status')).body;
    assert.equal(verified.status, 'verified', 'an older event does not undo a newer one');
    assert.equal(verified.verified, true);
  });

  test('documents: PDF and PNG by content; anything else 415; over 10 MB 413', async () => {
    const pdf = await kyb('POST', 'upload-document', {
      documentType: 'registry_extract',
      contentBase64: PDF.toString('base64'),
    });
    assert.equal(pdf.status, 201, pdf.text);
    assert.match(pdf.body.fileId, /^file_/);
    const png = await kyb('POST', 'upload-document', {
      documentType: 'identity_document',
      contentBase64: PNG.toString('base64'),
    });
    assert.equal(png.status, 201, png.text);
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(64)]);
    const refused = await kyb('POST', 'upload-document', {
      documentType: 'registry_extract',
      contentBase64: exe.toString('base64'),
    });
    assert.equal(refused.status, 415);
    assert.equal(refused.body.code, 'unsupported_document_type');
    const big = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]);
    const tooLarge = await kyb('POST', 'upload-document', {
      documentType: 'registry_extract',
      contentBase64: big.toString('base64'),
    });
    assert.equal(tooLarge.status, 413);
    assert.equal(tooLarge.body.code, 'document_too_large');
  });

  test('KYC: a person’s account with their payout IBAN, which no answer ever shows; API keys are not people', async () => {
    const submitted = await kyc('POST', 'submit', { ...KYC, payoutIban: IBAN });
    assert.equal(submitted.status, 200, submitted.text);
    assert.match(submitted.body.connectId, /^acct_/);
    const status = await kyc('GET', 'status');
    assert.equal(status.body.connectId, submitted.body.connectId);
    const digits = IBAN.replace(/\s/g, '');
    for (const answer of [submitted, status]) {
      assert.ok(
        !answer.text.includes(digits) && !answer.text.includes(digits.slice(-8)),
        'no part of the IBAN',
      );
    }
    const badIban = await kyc('POST', 'submit', { ...KYC, payoutIban: 'not an iban' });
    assert.equal(badIban.status, 400);
    assert.ok(!badIban.text.includes('not an iban'), 'the refused value is not echoed');
    assert.equal((await api.call('GET', '/v1/kyc/status', { key: tenant.testKey })).status, 401);
  });
});
