import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import { launchChromium } from '../support/browser.ts';
import { addConsoleUser, consoleChecks } from '../support/console-browser.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { FULL_PRODUCT, GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

const OWNER = 'owner@lumen.example';
const VIEWER = 'viewer@lumen.example';
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 40"><rect width="120" height="40" rx="6" fill="#0e3b2e"/><circle cx="20" cy="20" r="11" fill="#e8c547"/></svg>`;

/**
 * Settings › Branding (issue 37): an owner sets the name, colours and logo of the company's verification pages
 * with a live preview; a too-light link colour is refused with a colour that passes; the saved branding is on
 * the passport's page at once; a viewer sees it and cannot change it.
 */
describe('Settings › Branding in the console (Chromium)', () => {
  let stack: TestStack;
  let browser: Browser;
  let origin: string;
  let tokenId: string;
  let companyId: string;
  const checks = consoleChecks(
    () => browser,
    () => origin,
    { shotPrefix: 'branding-' },
  );

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://localhost:${port}`;
    stack = await startTestStack({ apiEnv: { PORT: String(port), PUBLIC_BASE_URL: origin } });
    const tenant = await stack.api.createTenant('Lumen Outdoor');
    companyId = tenant.companyId;
    tokenId = await enrollAndMint(
      (method, path, body) => stack.api.call(method, path, { key: tenant.testKey, body }),
      '04E1D2C3B4A501',
      FULL_PRODUCT,
    );
    await addConsoleUser(stack.api, companyId, OWNER, 'owner');
    await addConsoleUser(stack.api, companyId, VIEWER, 'viewer');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  test('an owner brands the page with a live preview; the passport’s page shows it', async () => {
    const [context, page] = await checks.newContext();
    await checks.signIn(page, OWNER);
    await checks.openPage(page, 'Branding');
    await page.getByRole('heading', { level: 1, name: 'Branding' }).waitFor();

    await page.getByLabel('Name in the page’s header').fill('Lumen');
    await page.getByLabel('Header colour', { exact: true }).fill('#0e3b2e');
    const preview = page.locator('.preview-header');
    await preview.getByText('Lumen', { exact: true }).waitFor();
    assert.equal(
      await preview.evaluate((el: Element) => getComputedStyle(el).backgroundColor),
      'rgb(14, 59, 46)',
      'the preview follows the typing',
    );
    await page.getByLabel('Links and buttons', { exact: true }).fill('#9fd3ff');
    await page.getByLabel('Care instructions (URL)').fill('https://lumen.example/care');
    await page.getByLabel('Your passports’ texts are written in').selectOption('de');
    await page.getByRole('button', { name: 'Save branding' }).click();
    const refusal = await page.getByRole('alert').textContent();
    assert.match(refusal!, /contrast of .* #[0-9a-f]{6} is the nearest darker colour that passes/);
    const suggested = /(#[0-9a-f]{6}) is the nearest/.exec(refusal!)![1]!;
    await page.getByLabel('Links and buttons', { exact: true }).fill(suggested);
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText('Branding saved: your passports’ pages show it now.').waitFor();

    const file = join(tmpdir(), `lumen-logo-${process.pid}.svg`);
    await writeFile(file, LOGO);
    await page.locator('input[type="file"]').setInputFiles(file);
    await page.getByText('Logo lumen-logo').waitFor();
    await page.getByRole('img', { name: 'Current logo of Lumen Outdoor' }).waitFor();
    await checks.checkPage(page, 'settings');

    const passport = await context.newPage();
    await passport.goto(`${origin}/test/verify/01/${GTIN}/21/${tokenId}?lang=en`);
    assert.equal(await passport.textContent('#brand-name'), 'Lumen');
    assert.equal(await passport.getAttribute('#brand-logo', 'alt'), 'Lumen logo');
    assert.equal(await passport.getAttribute('#care-link', 'href'), 'https://lumen.example/care');
    assert.equal(
      await passport.$eval('.masthead', (el: Element) => getComputedStyle(el).backgroundColor),
      'rgb(14, 59, 46)',
    );
    await checks.shoot(passport, 'passport-page');
    await context.close();
  });

  test('a viewer sees the branding and cannot change it', async () => {
    const [context, page] = await checks.newContext();
    await checks.signIn(page, VIEWER);
    await checks.openPage(page, 'Branding');
    await page.locator('p', { hasText: 'Your role is viewer, which cannot change the branding.' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Save branding' }).count(), 0);
    assert.equal(await page.getByLabel('Name in the page’s header').isDisabled(), true);
    await context.close();
    // Refusals the test provoked (the 422) and the sign-in page's session probe (401) are expected failures.
    assert.deepEqual(
      checks.errors.filter((error) => !error.startsWith('Failed to load resource')),
      [],
    );
    assert.deepEqual(checks.foreignRequests, []);
  });
});
