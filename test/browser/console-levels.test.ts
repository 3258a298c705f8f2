import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import type { TestTenant } from '../support/api.ts';
import { launchChromium } from '../support/browser.ts';
import { addConsoleUser, consoleChecks, PHONE } from '../support/console-browser.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { OTHER_GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

const OWNER = 'owner@levels.example';
const LOT = 'LOT-7';

/**
 * Model and batch passports in the console (issue 36): the Passports list's Models and Batches, each with its
 * Add; a model and a batch passport created and authored from the console; each one's page (product data,
 * versions, the items that inherit from it, registry/backup/evidence); an item minted afterwards links its batch
 * and model and shows what it inherits. Screenshots test-artifacts/console/levels-*.png.
 */
describe('model and batch passports in the console', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let browser: Browser;
  let origin: string;
  let page: Page;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    const port = await freePort();
    stack = await startTestStack({ apiEnv: { PORT: String(port) } });
    origin = `http://localhost:${port}`;
    tenant = await stack.api.createTenant('Voltaic Cells');
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
    { shotPrefix: 'levels-' },
  );
  const { newContext, signIn, checkPage, openPage } = checks;
  const tab = (name: string) =>
    page.getByRole('navigation', { name: 'Kinds of passport' }).getByRole('link', { name });

  /** Fills the manufacturer (and the country) on the authoring form and saves. */
  async function author(manufacturer: string, country?: string) {
    await page.getByRole('heading', { level: 1, name: 'Edit product data' }).waitFor();
    await page.getByLabel('Manufacturer’s registered name (required)').fill(manufacturer);
    if (country) await page.getByLabel(/^Country of the place of manufacture/).fill(country);
    await page.getByRole('button', { name: 'Save product data' }).click();
    await page.getByText(/^Saved/).waitFor();
  }

  test('Models: empty at first; "Add a model passport" creates one, authored, with its own page', async () => {
    [, page] = await newContext();
    await signIn(page, OWNER);
    await openPage(page, 'Passports');
    await tab('Models').click();
    await page.getByText(`No test model passports yet.`, { exact: false }).waitFor();
    assert.equal(await tab('Models').getAttribute('aria-current'), 'page');
    await checkPage(page, 'models-empty');
    // On a phone the menu folds away; the kinds of passport stay on the page.
    await page.setViewportSize(PHONE);
    assert.ok(await tab('Batches').isVisible(), 'the tabs are visible at 390 px');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('link', { name: 'Add a model passport' }).click();
    await page.getByRole('heading', { level: 1, name: 'New model or batch passport' }).waitFor();
    assert.ok(await page.getByRole('radio', { name: 'Model (one per GTIN)' }).isChecked());
    await page.getByLabel('GTIN (8, 12, 13 or 14 digits, check digit included)').fill(OTHER_GTIN);
    await page.getByRole('button', { name: 'Create the model passport' }).click();
    await author('Voltaic Model Works', 'DE');

    await page.getByRole('link', { name: '← The model passport' }).click();
    await page.getByRole('heading', { level: 1, name: `Model ${OTHER_GTIN}` }).waitFor();
    await page.getByText('Voltaic Model Works', { exact: true }).waitFor();
    await page.getByText('No item passport of GTIN', { exact: false }).waitFor();
    const dppId = new URL(page.url()).pathname.slice('/console/levels/'.length);
    const versions = (await call('GET', `/v1/dpps/${dppId}/versions`)).body.items as unknown[];
    const rows = page.getByRole('table', { name: 'Versions, oldest first' }).getByRole('row');
    assert.equal(await rows.count(), versions.length + 1, 'one row per version, under the header');
    await page.getByRole('region', { name: 'Registry, backup and evidence' }).waitFor();
    await checkPage(page, 'model');

    await page.getByRole('link', { name: '← All model passports' }).click();
    await page.getByRole('link', { name: `Model ${OTHER_GTIN}` }).waitFor();
    await checkPage(page, 'models');
  });

  test('Batches: "Add a batch passport" creates one; an item of its GTIN and lot inherits from batch and model', async () => {
    await tab('Batches').click();
    await page.getByText('No test batch passports yet.', { exact: false }).waitFor();
    await page.getByRole('link', { name: 'Add a batch passport' }).click();
    await page.getByRole('heading', { level: 1, name: 'New model or batch passport' }).waitFor();
    assert.ok(await page.getByRole('radio', { name: 'Batch (one per GTIN and lot)' }).isChecked());
    await page.getByLabel('GTIN (8, 12, 13 or 14 digits, check digit included)').fill(OTHER_GTIN);
    await page.getByLabel('Batch / lot number').fill(LOT);
    await page.getByRole('button', { name: 'Create the batch passport' }).click();
    await author('Voltaic Lot Seven Works');

    const item = await enrollAndMint(call, '04E1F2A3000001', { gtin: OTHER_GTIN, batch_number: LOT });
    await page.goto(`${origin}/console/passports/${item}`);
    const facts = page.locator('dl.facts');
    await facts.getByText('Voltaic Lot Seven Works (from the batch passport)').waitFor();
    await facts.getByRole('link', { name: `Model ${OTHER_GTIN}` }).waitFor();
    await checkPage(page, 'inheriting-item');

    await facts.getByRole('link', { name: `Batch ${LOT} of ${OTHER_GTIN}` }).click();
    await page.getByRole('heading', { level: 1, name: `Batch ${LOT} of ${OTHER_GTIN}` }).waitFor();
    const items = page.getByRole('list', { name: 'Item passports' });
    await items.getByRole('link', { name: `Passport ${item}` }).waitFor();
    await checkPage(page, 'batch');

    await page.getByRole('link', { name: '← All batch passports' }).click();
    const row = page.getByRole('row').filter({ hasText: `Batch ${LOT} of ${OTHER_GTIN}` });
    await row.getByText('Active').waitFor();
    await checkPage(page, 'batches');
    // The same list through the API the console reads.
    const listed = await call('GET', '/v1/dpp/levels?granularity=batch');
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(
      listed.body.levels.map((level: { lot: string }) => level.lot),
      [LOT],
    );
    assert.equal((await call('GET', '/v1/dpp/levels')).body.levels.length, 2);
    assert.deepEqual(
      checks.errors.filter((e) => !e.startsWith('Failed to load resource')),
      [],
    );
  });
});
