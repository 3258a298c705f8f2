import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import { verifiedCompanyAccount } from '../e2e/fixtures/connect-accounts.ts';
import { personToken } from '../e2e/fixtures/people.ts';
import type { TestTenant } from '../support/api.ts';
import { launchChromium } from '../support/browser.ts';
import { addConsoleUser, consoleChecks } from '../support/console-browser.ts';
import { claimWithChallenge } from '../support/fixtures/claim.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { paidResaleAwaitingClaim } from '../support/fixtures/paid-resale.ts';
import { digitalLinkTap } from '../support/fixtures/sun.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtp-receiver.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { postStripeEvent } from '../support/stripe.ts';

const OWNER = 'owner@holders.example';
const UNSOLD_CHIP = '04D0000000A001';
const SOLD_CHIP = '04D0000000A002';

/**
 * Who holds a passport, on the console's passport page (issue 40): an unsold passport is the company's (its
 * custody wallet), a sold one the buyer's, in their smart account (created on chain by their claim). In words
 * first, the address below; axe-clean and fitting at 1280 and 390 px; screenshots in
 * test-artifacts/console/holder-*.png.
 */
describe('console: who holds a passport', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let smtp: SmtpReceiver;
  let browser: Browser;
  let origin: string;
  const tokens: Record<string, string> = {};
  let buyerAccount = '';
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    const port = await freePort();
    smtp = await startSmtpReceiver();
    stack = await startTestStack({ smartAccounts: true, apiEnv: { PORT: String(port), SMTP_URL: smtp.url } });
    origin = `http://localhost:${port}`;
    tenant = await stack.api.createTenant('Holder Brand');
    await verifiedCompanyAccount(call, (signed) => postStripeEvent(stack.api, signed), 'evt_acct_holder');
    tokens.unsold = await enrollAndMint(call, UNSOLD_CHIP);
    tokens.sold = await enrollAndMint(call, SOLD_CHIP);
    // The sold one: released to a person, paid, claimed with a tap (their account's first operation).
    const token = await personToken(stack.api, smtp, 'ada@holders.example');
    ({ buyerWallet: buyerAccount } = await paidResaleAwaitingClaim(stack.api, {
      tokenId: tokens.sold,
      sellerKey: tenant.testKey,
      readerKey: tenant.testKey,
      buyerEmail: 'ada@holders.example',
      buyerToken: token,
      eventId: 'evt_paid_holder',
    }));
    const claimed = await claimWithChallenge(stack.api, token, tokens.sold!, digitalLinkTap(SOLD_CHIP, 2));
    assert.equal(claimed.status, 200, claimed.text);
    await addConsoleUser(stack.api, tenant.companyId, OWNER, 'owner');
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await smtp?.close();
  });

  const checks = consoleChecks(
    () => browser,
    () => origin,
    { shotPrefix: 'holder-' },
  );
  const heldBy = (page: Page) => page.locator('dt:text-is("Held by") + dd');

  async function openPassport(page: Page, tokenId: string) {
    await page.goto(`${origin}/console/passports/${tokenId}`);
    await page.getByRole('heading', { level: 1, name: `Passport ${tokenId}` }).waitFor();
    await heldBy(page).waitFor();
  }

  test('an unsold passport is held by the company, a sold one by the buyer’s smart account, in words', async () => {
    const [, page] = await checks.newContext();
    await checks.signIn(page, OWNER);

    await openPassport(page, tokens.unsold!);
    assert.equal(await heldBy(page).locator('strong').textContent(), 'Your company');
    const unsold = (await heldBy(page).textContent()) ?? '';
    assert.match(unsold, /Not sold yet/);
    const custody = (await call('GET', `/v1/dpp/passports/${tokens.unsold}`)).body.passport;
    assert.deepEqual(custody.owner, {
      address: custody.ownerWallet,
      kind: 'company-custody',
      deployed: null,
    });
    assert.match(unsold, new RegExp(`Wallet address ${custody.ownerWallet}`));
    await checks.checkPage(page, 'unsold');

    await openPassport(page, tokens.sold!);
    assert.equal(await heldBy(page).locator('strong').textContent(), 'The buyer');
    const sold = (await heldBy(page).textContent()) ?? '';
    assert.match(sold, /smart account, which the service keeps for them/);
    assert.match(sold, new RegExp(`Smart account address ${buyerAccount}`));
    const facts = (await call('GET', `/v1/dpp/passports/${tokens.sold}`)).body.passport;
    assert.deepEqual(facts.owner, { address: buyerAccount, kind: 'smart-account', deployed: true });
    await checks.checkPage(page, 'sold');
    // The sign-in page's session probe answers 401 before signing in.
    const errors = checks.errors.filter((text) => !/^Failed to load resource: .* 401/.test(text));
    assert.deepEqual([errors, checks.foreignRequests], [[], []]);
  });
});
