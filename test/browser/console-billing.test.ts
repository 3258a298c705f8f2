import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import { accountUpdated } from '../e2e/fixtures/connect-accounts.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { launchChromium } from '../support/browser.ts';
import { addConsoleUser, consoleChecks } from '../support/console-browser.ts';
import { postStripeEvent, signedStripeEvent, TEST_STRIPE } from '../support/stripe.ts';

const OWNER = 'owner@billing.example';
const VIEWER = 'viewer@billing.example';
const PDF = Buffer.from('%PDF-1.7\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PERIOD_START = Math.floor(Date.now() / 1000) - 86_400;

/**
 * Settings › Billing and Settings › Compliance in Chromium against stripe-mock behind the real Stripe SDK: the
 * owner sees plan and usage, gets a Checkout link, then (after Stripe's signed event) the plan and a portal
 * link; submits the business verification and uploads a document; a viewer reads both pages without forms.
 */
/** A price as stripe-mock (Stripe's API description) answers it, asked directly, not through the service. */
async function stripePriceOf(id: string) {
  const response = await fetch(`${process.env.STRIPE_API_BASE}/v1/prices/${id}`, {
    headers: { authorization: `Bearer ${TEST_STRIPE.secretKey}` },
  });
  assert.equal(response.status, 200);
  return (await response.json()) as {
    unit_amount: number;
    currency: string;
    recurring: { interval: string; usage_type: string } | null;
  };
}

describe('console billing and compliance (Chromium, stripe-mock)', () => {
  let api: TestApi;
  let browser: Browser;
  let origin: string;
  let companyId: string;
  const checks = consoleChecks(
    () => browser,
    () => origin,
  );

  const { signIn } = checks;
  /** A value of the page's fact list (dt → dd). */
  const fact = (page: Page, term: string) =>
    page
      .locator('dl.account-facts dt', { hasText: new RegExp(`^${term}$`) })
      .locator('xpath=following-sibling::dd[1]');

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://localhost:${port}`;
    api = await startTestApi({ PORT: String(port) });
    companyId = (await api.createTenant('Billing Brand')).companyId;
    await addConsoleUser(api, companyId, OWNER, 'owner');
    await addConsoleUser(api, companyId, VIEWER, 'viewer');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  test('billing: plan and usage; a Checkout link; the plan Stripe confirms; the portal link', async () => {
    const [context, page] = await checks.newContext();
    await signIn(page, OWNER);
    await page.getByRole('link', { name: 'Billing' }).click();
    await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Usage this period' }).waitFor();
    assert.equal(await fact(page, 'Plan').textContent(), 'No plan');
    assert.equal(await fact(page, 'Status').textContent(), 'none');
    assert.equal(await fact(page, 'Passports minted').textContent(), '0');
    assert.match((await fact(page, 'Period').textContent()) ?? '', /\d{4} – .*\d{4}/);
    assert.equal(await page.getByRole('button', { name: 'Manage billing' }).count(), 0, 'no customer yet');
    // Each plan's price is the one Stripe holds for its configured price (what Checkout charges).
    for (const [plan, name] of [
      ['pro', 'Pro'],
      ['essential', 'Essential'],
    ] as const) {
      const stripePrice = await stripePriceOf(TEST_STRIPE.prices[plan]);
      const offer = page.locator('.plan-offer', { has: page.getByRole('heading', { level: 3, name }) });
      const amount = new Intl.NumberFormat('en', {
        style: 'currency',
        currency: stripePrice.currency.toUpperCase(),
      }).format(stripePrice.unit_amount / 100);
      const per = stripePrice.recurring?.usage_type === 'metered' ? 'mint' : stripePrice.recurring?.interval;
      assert.equal(await offer.locator('.plan-price').textContent(), `${amount} per ${per}`);
      await offer.getByRole('button', { name: `Subscribe to ${name}` }).waitFor();
    }
    const included = page.getByRole('list', { name: 'Every plan includes' });
    await included.getByText(/^Live passports: live mints/).waitFor();
    await included.getByText(/^The test environment, free/).waitFor();
    await checks.checkPage(page, 'billing-none');

    await page.getByRole('button', { name: 'Subscribe to Pro' }).click();
    const checkout = page.getByRole('link', { name: 'Continue to Stripe Checkout for Pro' });
    await checkout.waitFor();
    const href = (await checkout.getAttribute('href')) ?? '';
    assert.match(href, /^https:\/\/\S+/, 'a Stripe Checkout URL (stripe-mock’s)');
    await checks.shoot(page, 'billing-checkout');
    const [row] = await api.db.orm.em
      .fork()
      .execute<{ customer_id: string }[]>(
        `select stripe_customer_id as customer_id from billing_accounts where company_id = ? and environment = 'test'`,
        [companyId],
      );
    assert.match(row!.customer_id, /^cus_/);

    // Stripe confirms the subscription with its signed event; the page shows it.
    const now = Math.floor(Date.now() / 1000);
    const event = signedStripeEvent({
      id: 'evt_console_sub',
      type: 'customer.subscription.created',
      created: now,
      livemode: false,
      data: {
        object: {
          id: 'sub_console',
          object: 'subscription',
          customer: row!.customer_id,
          status: 'active',
          metadata: {},
          items: {
            object: 'list',
            data: [
              {
                id: 'si_console',
                object: 'subscription_item',
                price: { id: TEST_STRIPE.prices.pro, object: 'price' },
                current_period_start: PERIOD_START,
                current_period_end: PERIOD_START + 30 * 86_400,
              },
            ],
          },
        },
      },
    });
    assert.equal((await postStripeEvent(api, event)).body.outcome, 'applied');
    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'Plan' }).waitFor();
    assert.equal(await fact(page, 'Plan').textContent(), 'Pro');
    assert.equal(await fact(page, 'Status').textContent(), 'active');
    assert.equal(
      await page.getByRole('button', { name: /^Subscribe to/ }).count(),
      0,
      'a running plan changes in the portal, not by a second checkout',
    );
    await page.getByRole('button', { name: 'Manage billing' }).click();
    const portal = page.getByRole('link', { name: 'Continue to the Stripe billing portal' });
    await portal.waitFor();
    assert.match((await portal.getAttribute('href')) ?? '', /^https:\/\/\S+/);
    await checks.checkPage(page, 'billing-pro');
    await context.close();
  });

  test('compliance: status, submission, requirements from Stripe, a document uploaded; a wrong file refused', async () => {
    const [context, page] = await checks.newContext();
    await signIn(page, OWNER);
    await page.getByRole('link', { name: 'Compliance' }).click();
    await page.getByRole('heading', { level: 1, name: 'Compliance' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Status' }).waitFor();
    assert.equal(await fact(page, 'Verification').textContent(), 'Not started');
    assert.ok(await page.getByRole('button', { name: 'Upload' }).isDisabled(), 'nothing to upload to yet');
    await checks.checkPage(page, 'compliance-empty');

    await page.getByLabel('Legal name').fill('Billing Brand GmbH');
    await page.getByLabel('Tax or VAT id').fill('DE123456789');
    await page.getByLabel('Street and number').fill('Hauptstraße 1');
    await page.getByLabel('Postal code').fill('10115');
    await page.getByLabel('City').fill('Berlin');
    await page.getByLabel(/^Country/).fill('de');
    await page.getByLabel('First name').fill('Jane');
    await page.getByLabel('Last name').fill('Doe');
    await page.getByLabel('E-mail', { exact: true }).fill('jane@billing.example');
    await page.getByLabel('Date of birth').fill('1980-04-02');
    await page.getByLabel('We accept Stripe’s Connected Account Agreement.').check();
    await page.getByRole('button', { name: 'Submit for verification' }).click();
    await page.getByText('Submitted to Stripe for verification.', { exact: false }).waitFor();
    await page.locator('dl.account-facts code', { hasText: /^acct_/ }).waitFor();
    const account = (await page.locator('dl.account-facts code', { hasText: /^acct_/ }).textContent()) ?? '';

    // Stripe's signed account.updated: two requirements outstanding; the page lists them.
    assert.equal(
      (await postStripeEvent(api, accountUpdated('evt_console_acct', account, false))).body.outcome,
      'applied',
    );
    await page.reload();
    await page.getByText('representative.verification.document').waitFor();
    await page.getByText('company.tax_id').waitFor();
    assert.match((await fact(page, 'Verification').textContent()) ?? '', /^(Pending|Restricted)/);
    await checks.checkPage(page, 'compliance-submitted');

    await page.getByLabel('Document', { exact: true }).selectOption('registry_extract');
    await page
      .getByLabel(/^File/)
      .setInputFiles({ name: 'extract.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByText(/^extract\.pdf: Uploaded \(application\/pdf, \d+ bytes\)/).waitFor();
    await checks.shoot(page, 'compliance-uploaded');
    // A text file named .pdf: judged by its content and refused.
    await page.getByLabel(/^File/).setInputFiles({
      name: 'fake.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('not a pdf at all'),
    });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('alert').waitFor();
    assert.match((await page.getByRole('alert').textContent()) ?? '', /PDF, JPEG or PNG/i);
    await checks.shoot(page, 'compliance-refused');
    await context.close();
  });

  test('a viewer reads billing and compliance but gets no buttons to change them', async () => {
    const [context, page] = await checks.newContext();
    await signIn(page, VIEWER);
    await page.getByRole('link', { name: 'Billing' }).click();
    await page.getByText('Only owners change the plan; your role is viewer.').waitFor();
    assert.equal(await fact(page, 'Plan').textContent(), 'Pro');
    assert.equal(await page.getByRole('button', { name: /Subscribe|Manage billing/ }).count(), 0);
    await checks.checkPage(page, 'billing-viewer');
    await page.getByRole('link', { name: 'Compliance' }).click();
    await page.getByText('Only owners submit the verification; your role is viewer.').waitFor();
    await page.getByText('company.tax_id').waitFor();
    assert.equal(await page.getByRole('button', { name: /Submit|Upload/ }).count(), 0);
    await checks.checkPage(page, 'compliance-viewer');
    // The API refuses a viewer's write whatever the page shows.
    const forced = await page.evaluate(async () => {
      const response = await fetch('/v1/billing/checkout', {
        method: 'POST',
        headers: { 'x-service-env': 'test', 'content-type': 'application/json' },
        body: JSON.stringify({ plan: 'essential' }),
      });
      return { status: response.status, body: await response.json() };
    });
    assert.equal(forced.status, 403);
    assert.equal(forced.body.code, 'role_forbidden');
    await context.close();
  });

  test('no script error, no unexpected failed response, nothing loaded from another origin', () => {
    // Expected: the signed-out session check (401), the refused fake PDF (415), the viewer's forced checkout (403).
    const expected =
      /^(401 .*\/v1\/console\/session|415 .*\/v1\/kyb\/upload-document|403 .*\/v1\/billing\/checkout)$/;
    assert.deepEqual(
      checks.failedResponses.filter((line) => !expected.test(line)),
      [],
    );
    assert.deepEqual(
      checks.errors.filter(
        (text) => !/^Failed to load resource: the server responded with a status of 4\d\d/.test(text),
      ),
      [],
    );
    assert.deepEqual(checks.foreignRequests, []);
  });
});
