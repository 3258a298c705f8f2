import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import type { TestTenant } from '../support/api.ts';
import { ARTIFACTS_DIR, launchChromium } from '../support/browser.ts';
import { BATTERY_V1 as V1 } from '../support/fixtures/battery.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

const LOT = 'LOT-7';

/** The pages of a model and a batch passport as a phone opens their Digital Links; an item's links to them. */
describe('model and batch passport pages in Chromium: readable, accessible, linked', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let browser: Browser;
  let context: BrowserContext;
  let tokenId: string;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  const problems: string[] = [];

  async function openPage(path: string): Promise<Page> {
    const page = await context.newPage();
    page.on('request', (request) => {
      if (!request.url().startsWith(stack.api.baseUrl)) problems.push(`off origin: ${request.url()}`);
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto(`${stack.api.baseUrl}${path}`);
    return page;
  }

  async function accessible(page: Page, name: string) {
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(
      bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      [],
      `${name}: accessibility violations`,
    );
    assert.ok(results.passes.length > 10, `${name}: axe ran its rules`);
  }

  beforeAll(async () => {
    const port = await freePort();
    stack = await startTestStack({
      apiEnv: { PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` },
    });
    tenant = await stack.api.createTenant('Voltaic Cells');
    const model = await call('POST', '/v1/dpps', {
      granularity: 'Model',
      gtin: GTIN,
      [V1]: {
        generalProductInformation: { manufacturerName: 'Voltaic Model Works', warrantyPeriod: 'P8Y' },
      },
    });
    assert.equal(model.status, 201, model.text);
    const batch = await call('POST', '/v1/dpps', {
      granularity: 'Batch',
      gtin: GTIN,
      lot: LOT,
      [V1]: { generalProductInformation: { warrantyPeriod: 'P10Y' } },
    });
    assert.equal(batch.status, 201, batch.text);
    tokenId = await enrollAndMint(call, '04D1C2B3A4E577', { batch_number: LOT });
    browser = await launchChromium();
    context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      extraHTTPHeaders: { 'x-service-env': 'test' },
    });
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  test('a batch’s Digital Link opens its page; it links to its model’s page; both pass axe', async () => {
    const page = await openPage(`/01/${GTIN}/10/${LOT}`);
    assert.equal(new URL(page.url()).pathname, `/test/verify/01/${GTIN}/10/${LOT}`);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.equal(await page.locator('h1').count(), 1);
    assert.match(
      (await page.textContent('#granularity'))!,
      /Batch passport — shared by every item of batch LOT-7/,
    );
    const facts = (await page.textContent('.facts'))!;
    for (const fact of [GTIN, LOT, 'Active']) assert.ok(facts.includes(fact), `facts show ${fact}`);
    assert.match((await page.textContent('main'))!, /P10Y/);
    await accessible(page, 'batch page');
    await page.screenshot({ path: new URL('level-page-batch.png', ARTIFACTS_DIR).pathname, fullPage: true });

    await page.click('#model-link');
    await page.waitForURL(/\/verify\/01\/\d{14}$/);
    assert.match(
      (await page.textContent('#granularity'))!,
      /Model passport — shared by every item of this product/,
    );
    assert.match((await page.textContent('#product-title'))!, /Voltaic Model Works/);
    await accessible(page, 'model page');
    await page.screenshot({ path: new URL('level-page-model.png', ARTIFACTS_DIR).pathname, fullPage: true });
    assert.deepEqual(problems, [], 'no script errors, nothing loaded from elsewhere');
  });

  test('in the buyer’s language: a German browser reads the batch, its battery card and its model in German', async () => {
    const german = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      locale: 'de-DE',
      extraHTTPHeaders: { 'x-service-env': 'test' },
    });
    try {
      const page = await german.newPage();
      page.on('request', (request) => {
        if (!request.url().startsWith(stack.api.baseUrl)) problems.push(`off origin: ${request.url()}`);
      });
      await page.goto(`${stack.api.baseUrl}/01/${GTIN}/10/${LOT}`);
      assert.equal(await page.getAttribute('html', 'lang'), 'de');
      assert.match(
        (await page.textContent('#granularity'))!,
        /Chargenpass — gilt für jedes Exemplar der Charge LOT-7/,
      );
      assert.equal(await page.textContent('#product-title'), `Produkt ${GTIN}, Charge ${LOT}`);
      assert.equal(await page.textContent('#product-group-0-title'), 'EU-Batteriepass');
      const terms = await page.locator('#product-group-0 dt').allTextContents();
      assert.ok(terms.includes('Allgemeine Produktinformationen'), terms.join(' | '));
      assert.ok(terms.includes('Garantiezeit'), terms.join(' | '));
      assert.ok(
        !terms.some((term) => /[a-z][A-Z]/.test(term)),
        `no camelCase key shown: ${terms.join(' | ')}`,
      );
      assert.match((await page.textContent('.facts'))!, /Aktiv/);
      await accessible(page, 'batch page in German');
      await page.screenshot({
        path: new URL('level-page-batch-de.png', ARTIFACTS_DIR).pathname,
        fullPage: true,
      });

      // The switch: Polish chosen, the link to the model keeps it.
      await page.click('#lang-switch summary');
      await page.click('#lang-switch a[lang="pl"]');
      await page.waitForURL(/lang=pl/);
      assert.equal(await page.getAttribute('html', 'lang'), 'pl');
      await page.click('#model-link');
      await page.waitForURL(new RegExp(`/verify/01/${GTIN}\\?lang=pl$`));
      assert.match((await page.textContent('#granularity'))!, /Paszport modelu/);
      assert.equal(await page.textContent('#product-group-0-title'), 'Paszport baterii UE');
      await accessible(page, 'model page in Polish');
      await page.screenshot({
        path: new URL('level-page-model-pl.png', ARTIFACTS_DIR).pathname,
        fullPage: true,
      });

      // The item's page: its battery data in German too, each inherited value saying where it comes from.
      await page.goto(`${stack.api.baseUrl}/01/${GTIN}/21/${tokenId}`);
      assert.equal(await page.getAttribute('html', 'lang'), 'de');
      const row = page
        .locator('.source[data-pointer="/generalProductInformation/warrantyPeriod"]')
        .locator('xpath=../..');
      assert.match((await row.textContent())!, /^Garantiezeit\s*P10Y\s+aus dem Chargenpass$/);
      // The same batch page on a desktop: one readable column.
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${stack.api.baseUrl}/01/${GTIN}/10/${LOT}`);
      await accessible(page, 'batch page in German, desktop');
      await page.screenshot({
        path: new URL('level-page-batch-de-desktop.png', ARTIFACTS_DIR).pathname,
        fullPage: true,
      });
      assert.deepEqual(problems, []);
    } finally {
      await german.close();
    }
  });

  test('an item’s page says which batch and model it is part of and where each value comes from, with links', async () => {
    const page = await openPage(`/01/${GTIN}/21/${tokenId}`);
    assert.match((await page.textContent('#part-of'))!, /Part of batch LOT-7 .*and model/);
    // Its battery data is its levels': each value says which passport it comes from (docs/granularity.md).
    const shownValue = (field: string) =>
      page
        .locator(`.source[data-pointer="/generalProductInformation/${field}"]`)
        .locator('xpath=..')
        .textContent();
    assert.match((await shownValue('manufacturerName'))!, /^Voltaic Model Works\s+from the model passport$/);
    assert.match((await shownValue('warrantyPeriod'))!, /^P10Y\s+from the batch passport$/);
    await accessible(page, 'item page under a model and batch');
    await page.screenshot({ path: new URL('level-page-item.png', ARTIFACTS_DIR).pathname, fullPage: true });
    await page.click('#part-of-batch');
    await page.waitForURL(new RegExp(`/verify/01/${GTIN}/10/${LOT}$`));
    assert.equal(await page.locator('#model-link').count(), 1);
    assert.deepEqual(problems, []);
  });
});
