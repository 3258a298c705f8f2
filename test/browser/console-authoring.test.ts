import assert from 'node:assert/strict';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import type { TestTenant } from '../support/api.ts';
import { launchChromium } from '../support/browser.ts';
import { addConsoleUser, CONSOLE_SHOTS, consoleChecks } from '../support/console-browser.ts';
import { BATTERY_DATA, BATTERY_MAKER, contentPath } from '../support/fixtures/battery.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { OTHER_GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

const OWNER = 'owner@authoring.example';
// biome-ignore lint/suspicious/noExplicitAny: JSON as stored
type Json = any;
const textOf = async (locator: Locator) => (await locator.textContent()) ?? '';
const fieldId = (pointer: string) => `field${pointer.replace(/[^A-Za-z0-9]+/g, '-')}`;

/**
 * Authoring in the console (issue 36 item 2) in headless Chromium: a staff member fills a battery passport's
 * form (generated from the specification's JSON Schema) from empty to complete while the completeness panel goes
 * to all done; a wrong value is named at its field; a form opened before someone else's change is refused with a
 * clear message; a model passport is created and authored, and an item shows what it inherits. axe on every page;
 * screenshots at 1280 and 390 px in test-artifacts/console/authoring-*.png.
 */
describe('console authoring in Chromium', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let browser: Browser;
  let origin: string;
  let tokenId: string;
  let dppId: string;
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    stack.api.call(method, path, { key: tenant.testKey, headers, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    const port = await freePort();
    stack = await startTestStack({ apiEnv: { PORT: String(port) } });
    origin = `http://localhost:${port}`;
    tenant = await stack.api.createTenant('Voltaic Cells');
    const settings = await call('PATCH', '/v1/company/settings', {
      economicOperatorId: 'DE123456789',
      facilityId: '4012345000016',
    });
    assert.equal(settings.status, 200, settings.text);
    tokenId = await enrollAndMint(call, '04A0700C000001', {
      ...BATTERY_MAKER,
      hsCode: '850760',
      originCountry: 'DE',
    });
    await addConsoleUser(stack.api, tenant.companyId, OWNER, 'owner');
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const checks = consoleChecks(
    () => browser,
    () => origin,
    { shotPrefix: 'authoring-' },
  );
  const { newContext, signIn } = checks;
  /** axe and full-page screenshots at 1280 and 390 px, and the first screen as a person sees it (`-top`). */
  const checkPage = async (page: Page, name: string) => {
    await checks.checkPage(page, name);
    await page.screenshot({ path: `${CONSOLE_SHOTS}authoring-${name}-top.png` });
  };

  /** Fills the generated form with `data`, adding list items as it goes. */
  async function fill(page: Page, data: unknown, pointer = ''): Promise<void> {
    if (Array.isArray(data)) {
      for (let index = 0; index < data.length; index++) {
        await page.locator(`#${fieldId(pointer)} > button.add`).click();
        await fill(page, data[index], `${pointer}/${index}`);
      }
    } else if (typeof data === 'object' && data !== null) {
      for (const [key, value] of Object.entries(data)) await fill(page, value, `${pointer}/${key}`);
    } else {
      const field = page.locator(`#${fieldId(pointer)}`);
      if ((await field.evaluate((element) => element.tagName)) === 'SELECT')
        await field.selectOption(String(data));
      else await field.fill(String(data));
    }
  }

  let ownerPage: Page;

  test('the passport page shows what the passport holds, and what it still lacks', async () => {
    const [, page] = await newContext();
    ownerPage = page;
    await signIn(page, OWNER);
    await page.goto(`${origin}/console/passports/${tokenId}`);
    await page.getByRole('heading', { level: 1, name: `Passport ${tokenId}` }).waitFor();
    const facts = page.locator('dl.facts');
    await facts.getByText('Voltaic Cells SE').waitFor();
    assert.ok(!(await textOf(facts)).includes('Manufacturer—'), 'no empty manufacturer');
    const panel = page.getByRole('region', { name: 'Completeness' });
    await panel.getByText('7 facts still missing.').waitFor();
    assert.match(await textOf(panel), /UNTP Digital Product Passport credential: done/);
    assert.match(await textOf(panel), /EN 18223 passport header: done/);
    dppId = (await page.locator('dl.facts a', { hasText: 'Edit product data' }).getAttribute('href'))!.slice(
      '/console/authoring/'.length,
    );
    await checkPage(page, 'passport');
  });

  test('a staff member authors the battery passport from an empty form to a complete one', async () => {
    const page = ownerPage;
    await page.getByRole('link', { name: 'Fill it in' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Edit product data' }).waitFor();
    await page.getByLabel('Battery mass in kilograms (required)').waitFor();
    await checkPage(page, 'empty-form');

    // A wrong value is named at its field, before anything is sent.
    await page.getByLabel('Battery mass in kilograms (required)').fill('-5');
    await page.getByRole('button', { name: 'Save product data' }).click();
    const summary = page.getByRole('alert').filter({ hasText: 'need attention' });
    await summary.waitFor();
    const mass = fieldId('/generalProductInformation/batteryMassKg');
    assert.equal(await textOf(page.locator(`#${mass}-error`)), 'must be > 0');
    assert.equal(await page.locator(`#${mass}`).getAttribute('aria-invalid'), 'true');
    assert.match(await textOf(summary), /Battery mass in kilograms: must be > 0/);
    await checkPage(page, 'field-error');

    await page.locator(`#${mass}`).fill('');
    await fill(page, BATTERY_DATA);
    await page.getByRole('button', { name: 'Save product data' }).click();
    await page.getByText(/Saved: the passport is now at version \d+\./).waitFor();
    const panel = page.getByRole('region', { name: 'Completeness' });
    await panel.getByText(/^All done/).waitFor();
    const stored = await call('GET', contentPath(dppId));
    // An empty list (accidentReports: none) is left unstated by the form, as an empty field is.
    const entered = structuredClone(BATTERY_DATA) as { performanceAndDurability: { batteryCondition: Json } };
    delete entered.performanceAndDurability.batteryCondition.accidentReports;
    assert.deepEqual(stored.body.data, entered, 'the form wrote exactly the data entered');
    await checkPage(page, 'complete');
  });

  test('a form opened before someone else’s change is refused with a clear message, not saved over it', async () => {
    const [, stale] = await newContext();
    await signIn(stale, OWNER);
    await stale.goto(`${origin}/console/authoring/${dppId}`);
    const name = stale.getByLabel('Manufacturer’s registered name (required)');
    await name.waitFor();
    const current = await call('GET', contentPath(dppId));
    const changed = structuredClone(BATTERY_DATA) as Record<string, Record<string, unknown>>;
    changed.generalProductInformation!.manufacturerName = 'Voltaic Cells AG';
    const meanwhile = await call('PUT', contentPath(dppId), changed, {
      'If-Match': current.headers.get('etag')!,
    });
    assert.equal(meanwhile.status, 200, meanwhile.text);

    await name.fill('Voltaic Cells Ltd');
    await stale.getByRole('button', { name: 'Save product data' }).click();
    const alert = stale
      .getByRole('alert')
      .filter({ hasText: 'changed this passport’s data since you opened' });
    await alert.waitFor();
    assert.match(await textOf(alert), /nothing was saved/);
    const after = await call('GET', contentPath(dppId));
    assert.equal(after.body.data.generalProductInformation.manufacturerName, 'Voltaic Cells AG');
    await checkPage(stale, 'stale');
  });

  test('the battery status rule is shown as the API answers it', async () => {
    const current = await call('GET', contentPath(dppId));
    const waste = structuredClone(current.body.data);
    waste.generalProductInformation.batteryStatus = 'waste';
    const declared = await call('PUT', contentPath(dppId), waste, {
      'If-Match': current.headers.get('etag')!,
    });
    assert.equal(declared.status, 200, declared.text);
    const page = ownerPage;
    await page.goto(`${origin}/console/authoring/${dppId}`);
    const status = page.getByLabel(/^Battery status .*\(required\)$/);
    await status.waitFor();
    await status.selectOption('repurposed');
    await page.getByRole('button', { name: 'Save product data' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The battery is waste: its status no longer changes.' })
      .waitFor();
    const after = await call('GET', contentPath(dppId));
    assert.equal(after.body.data.generalProductInformation.batteryStatus, 'waste');
  });

  test('a model passport is created and authored; an item of its GTIN shows what it inherits', async () => {
    const page = ownerPage;
    await page.goto(`${origin}/console/authoring/new`);
    await page.getByRole('heading', { level: 1, name: 'New model or batch passport' }).waitFor();
    await checkPage(page, 'new-model');
    await page.getByLabel('GTIN (8, 12, 13 or 14 digits, check digit included)').fill(OTHER_GTIN);
    await page.getByRole('button', { name: 'Create the model passport' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit product data' }).waitFor();
    await page.getByText(/model passport ·/).waitFor();
    await page.getByLabel('Manufacturer’s registered name (required)').fill('Voltaic Model Works');
    await page.getByLabel(/^Country of the place of manufacture/).fill('de');
    await page.getByRole('button', { name: 'Save product data' }).click();
    const country = fieldId('/generalProductInformation/countryOfProduction');
    assert.match(await textOf(page.locator(`#${country}-error`)), /must match pattern/);
    await page.getByLabel(/^Country of the place of manufacture/).fill('DE');
    await page.getByRole('button', { name: 'Save product data' }).click();
    await page.getByText(/^Saved/).waitFor();
    const panel = page.getByRole('region', { name: 'Completeness' });
    await panel.getByText(/UNTP Digital Product Passport credential: done/).waitFor();
    await checkPage(page, 'model');

    const item = await enrollAndMint(call, '04A0700C000002', { gtin: OTHER_GTIN });
    await page.goto(`${origin}/console/passports/${item}`);
    await page.locator('dl.facts').getByText('Voltaic Model Works (from the model passport)').waitFor();
    await checkPage(page, 'inheriting-item');
    // The refusals the pages show (404 no data yet, 412 stale) are logged by the browser; nothing else is.
    assert.deepEqual(
      checks.errors.filter((error) => !error.startsWith('Failed to load resource')),
      [],
    );
  });
});
