import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import type { TestTenant } from '../support/api.ts';
import { launchChromium } from '../support/browser.ts';
import { addConsoleUser, consoleChecks } from '../support/console-browser.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

const OWNER = 'owner@settings.example';
const DEVELOPER = 'developer@settings.example';
const EORI = 'DE123456789012345';
const FACILITY = 'urn:example:site:hamburg-1';
const CONFORMITY = 'https://brand.example/declarations/trail-jacket.pdf';

/**
 * Settings › Company (issue 36): a brand's staff see and change the product settings only the API could change
 * before, per environment; a wrong value is named at its field with the API's rule; a save says so; a form
 * opened before someone else's save is refused instead of writing over it; the header of a passport minted
 * before the change shows the new economic operator at once (what the page says). Screenshots at 1280 and
 * 390 px in test-artifacts/console/company-settings-*.png.
 */
describe('console company settings (Chromium)', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let browser: Browser;
  let origin: string;
  let tokenId: string;
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    stack.api.call(method, path, { key: tenant.testKey, headers, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    const port = await freePort();
    stack = await startTestStack({ apiEnv: { PORT: String(port) } });
    origin = `http://localhost:${port}`;
    tenant = await stack.api.createTenant('Settings Brand');
    tokenId = await enrollAndMint(call, '04C5E7711E0001');
    await addConsoleUser(stack.api, tenant.companyId, OWNER, 'owner');
    await addConsoleUser(stack.api, tenant.companyId, DEVELOPER, 'developer');
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const checks = consoleChecks(
    () => browser,
    () => origin,
    { shotPrefix: 'company-settings-' },
  );
  const { newContext, checkPage, openPage } = checks;
  const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
  const openSettings = async (page: Page, email: string) => {
    await checks.signInToOverview(page, email);
    await openPage(page, 'Company');
    await page.getByRole('heading', { level: 1, name: 'Company settings' }).waitFor();
    await field(page, 'Warranty (months)').waitFor();
  };
  const header = async () =>
    (await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, { env: null, key: null }))
      .body.dppHeader as Record<string, unknown>;

  test('an owner sees what each setting does, is told which rule a value breaks, and saves', async () => {
    const [context, page] = await newContext();
    await openSettings(page, OWNER);
    // The defaults, and where each setting shows, in words.
    assert.equal(await field(page, 'Economic operator ID').inputValue(), '');
    assert.equal(await field(page, 'Warranty (months)').inputValue(), '24');
    await page
      .getByText(/in the EN 18223 header \(economicOperatorId\) of every test passport, at once/)
      .waitFor();
    await page.getByText(/on test passports minted from now on whose mint or factory bind brings/).waitFor();
    await page.getByText(/as the warranty end date of test passports sold from now on/).waitFor();
    await page.getByText(/Test and live have their own/).waitFor();
    await checkPage(page, 'defaults');

    // Two wrong values: nothing is saved, each field says the rule it broke.
    await field(page, 'Economic operator ID').fill('4012345000017');
    await field(page, 'Warranty (months)').fill('0');
    await page.getByRole('button', { name: 'Save the test settings' }).click();
    const summary = page.getByRole('alert').filter({ hasText: 'Not saved: 2 fields need a change' });
    await summary.waitFor();
    await summary
      .getByRole('link', {
        name: /^Economic operator ID: Expected a GLN \(13 digits with a valid GS1 check digit\)/,
      })
      .waitFor();
    await summary.getByRole('link', { name: 'Warranty (months): Expected at least 1 month.' }).waitFor();
    assert.equal(await field(page, 'Economic operator ID').getAttribute('aria-invalid'), 'true');
    assert.equal(await field(page, 'Facility ID').getAttribute('aria-invalid'), null);
    assert.equal((await call('GET', '/v1/company/settings')).body.settings.warrantyMonths, 24);
    await checkPage(page, 'errors');

    await field(page, 'Economic operator ID').fill(EORI);
    await field(page, 'Facility ID').fill(FACILITY);
    await field(page, 'Default declaration of conformity (URL)').fill(CONFORMITY);
    await field(page, 'Warranty (months)').fill('36');
    await page.getByRole('button', { name: 'Save the test settings' }).click();
    await page.getByText('Saved: the test settings are changed.').waitFor();
    assert.equal(await page.getByText(/fields? needs? a change/).count(), 0);
    assert.deepEqual((await call('GET', '/v1/company/settings')).body.settings, {
      defaultConformityUrl: CONFORMITY,
      warrantyMonths: 36,
      economicOperatorId: EORI,
      facilityId: FACILITY,
    });
    // What the page promised: the passport minted before the change carries the new header at once.
    const now = await header();
    assert.equal(now.economicOperatorId, EORI);
    assert.equal(now.facilityId, FACILITY);
    await checkPage(page, 'saved');

    // Live mode has its own settings, still the defaults.
    await page.getByRole('button', { name: 'Switch to live' }).click();
    await page.getByRole('button', { name: 'Save the live settings' }).waitFor();
    assert.equal(await field(page, 'Economic operator ID').inputValue(), '');
    assert.equal(await field(page, 'Warranty (months)').inputValue(), '24');
    await page
      .getByText(/of every live passport, at once/)
      .first()
      .waitFor();
    await checkPage(page, 'live');
    await page.getByRole('button', { name: 'Switch to test' }).click();
    await page.getByRole('button', { name: 'Save the test settings' }).waitFor();
    assert.equal(await field(page, 'Economic operator ID').inputValue(), EORI);
    await context.close();
  });

  test('a form opened before someone else saved is refused, shows their values, and keeps its own', async () => {
    const [ownerContext, owner] = await newContext();
    const [developerContext, developer] = await newContext();
    await openSettings(owner, OWNER);
    await openSettings(developer, DEVELOPER);

    await developer.getByLabel('Warranty (months)', { exact: true }).fill('48');
    await developer.getByRole('button', { name: 'Save the test settings' }).click();
    await developer.getByText('Saved: the test settings are changed.').waitFor();

    await field(owner, 'Facility ID').fill('https://brand.example/sites/porto');
    await owner.getByRole('button', { name: 'Save the test settings' }).click();
    const refusal = owner
      .getByRole('alert')
      .filter({ hasText: 'Not saved: someone changed these settings after you opened this page' });
    await refusal.waitFor();
    await refusal.getByText('Warranty (months): 48').waitFor();
    assert.equal(await field(owner, 'Facility ID').inputValue(), 'https://brand.example/sites/porto');
    assert.equal(await field(owner, 'Warranty (months)').inputValue(), '36', 'the form keeps what it had');
    const stored = (await call('GET', '/v1/company/settings')).body.settings;
    assert.equal(stored.warrantyMonths, 48, 'the other save stands');
    assert.equal(stored.facilityId, FACILITY, 'nothing of the stale form was written');
    await checkPage(owner, 'stale');

    await refusal.getByRole('button', { name: 'Take their values' }).click();
    assert.equal(await field(owner, 'Warranty (months)').inputValue(), '48');
    assert.equal(await field(owner, 'Facility ID').inputValue(), FACILITY);
    await field(owner, 'Facility ID').fill('https://brand.example/sites/porto');
    await owner.getByRole('button', { name: 'Save the test settings' }).click();
    await owner.getByText('Saved: the test settings are changed.').waitFor();
    const after = (await call('GET', '/v1/company/settings')).body.settings;
    assert.equal(after.facilityId, 'https://brand.example/sites/porto');
    assert.equal(after.warrantyMonths, 48);
    await ownerContext.close();
    await developerContext.close();
  });

  test('the API: ETag on every answer, If-Match honoured, a stale one refused with what is current', async () => {
    const read = await call('GET', '/v1/company/settings');
    const etag = read.headers.get('etag');
    assert.match(String(etag), /^"[\w-]{27}"$/);
    const changed = await call(
      'PATCH',
      '/v1/company/settings',
      { warrantyMonths: 30 },
      { 'If-Match': etag! },
    );
    assert.equal(changed.status, 200, changed.text);
    assert.notEqual(changed.headers.get('etag'), etag);
    const stale = await call('PATCH', '/v1/company/settings', { warrantyMonths: 12 }, { 'If-Match': etag! });
    assert.equal(stale.status, 412, stale.text);
    assert.equal(stale.body.code, 'precondition_failed');
    assert.equal(stale.body.currentETag, changed.headers.get('etag'));
    assert.equal(stale.body.settings.warrantyMonths, 30);
    // Without If-Match a write goes through, as it always did.
    const blind = await call('PATCH', '/v1/company/settings', { warrantyMonths: 12 });
    assert.equal(blind.status, 200, blind.text);
    assert.equal(blind.body.settings.warrantyMonths, 12);
    assert.deepEqual(
      checks.errors.filter((error) => !error.startsWith('Failed to load resource')),
      [],
    );
  });
});
