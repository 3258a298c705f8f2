import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import type { TestTenant } from '../support/api.ts';
import { launchChromium } from '../support/browser.ts';
import { addConsoleUser, consoleChecks } from '../support/console-browser.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN } from '../support/fixtures/products.ts';
import { tapQuery } from '../support/fixtures/sun.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

const OWNER = 'owner@signals.example';
const VIEWER = 'viewer@signals.example';
const CHIP = '04B1C0DE000001';

/**
 * The console's Signals page in headless Chromium: a copied tag link opened five times shows as a signal with its
 * evidence; "Mark resolved" moves it to the resolved ones; the thresholds are edited there; a viewer only reads.
 */
describe('console: Signals page in Chromium', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let browser: Browser;
  let origin: string;
  let page: Page;
  let tokenId: string;

  beforeAll(async () => {
    const port = await freePort();
    stack = await startTestStack({ apiEnv: { PORT: String(port) } });
    origin = `http://localhost:${port}`;
    tenant = await stack.api.createTenant('Signals & Co');
    await addConsoleUser(stack.api, tenant.companyId, OWNER, 'owner');
    await addConsoleUser(stack.api, tenant.companyId, VIEWER, 'viewer');
    tokenId = await enrollAndMint(
      (method, path, body) => stack.api.call(method, path, { key: tenant.testKey, body }),
      CHIP,
    );
    const copied = tapQuery(CHIP, 2);
    for (let i = 0; i < 5; i++) {
      const opened = await stack.api.call('GET', `/01/${GTIN}/21/${tokenId}?${copied}`);
      assert.equal(opened.status, 307, opened.text);
    }
    browser = await launchChromium();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const checks = consoleChecks(
    () => browser,
    () => origin,
    { shotPrefix: 'signals-', viewport: { width: 1280, height: 900 }, contextOptions: { timezoneId: 'UTC' } },
  );
  const { newContext, checkPage, openPage, signInToOverview } = checks;

  test('the signal with its evidence, marked resolved; the thresholds saved', async () => {
    [, page] = await newContext();
    await signInToOverview(page, OWNER);
    await openPage(page, 'Signals', { exact: true });
    const list = page.getByRole('list', { name: 'Signals in test' });
    const item = list.getByRole('listitem').filter({ hasText: 'Copied tag link opened again' });
    await item.waitFor();
    const text = (await item.textContent()) ?? '';
    assert.match(text, new RegExp(`Chip ${CHIP}, passport ${tokenId}`));
    assert.match(text, /Times the link was opened\s*5/);
    assert.match(text, /Different devices\s*1/);
    await checkPage(page, 'open');

    await item.getByRole('button', { name: 'Mark resolved' }).click();
    await page.getByText(`Copied tag link opened again on chip ${CHIP} marked resolved.`).waitFor();
    await page.getByText('No open signals in test.').waitFor();
    await page.getByLabel('Show').selectOption('resolved');
    const resolved = page.getByRole('list', { name: 'Signals in test' }).getByRole('listitem');
    await resolved.filter({ hasText: `resolved by ${OWNER}` }).waitFor();
    assert.equal(await resolved.getByRole('button', { name: 'Mark resolved' }).count(), 0);

    await page.getByLabel('Openings of one used tag link').fill('3');
    await page.getByRole('button', { name: 'Save thresholds' }).click();
    await page.getByText('Thresholds saved: they apply to the next taps.').waitFor();
    const saved = await stack.api.call('GET', '/v1/dpp/signal-settings', { key: tenant.testKey });
    assert.equal(saved.body.reopenThreshold, 3);
    await checkPage(page, 'resolved');
  }, 120_000);

  test('a viewer reads the signals but cannot resolve them or change the thresholds', async () => {
    [, page] = await newContext();
    await signInToOverview(page, VIEWER);
    // The open signals' answer comes late, after the viewer already chose "All": the late, empty answer of the
    // filter left behind must not replace the list asked for (CI once showed "No signals" that way).
    await page.route(/\/signals\?status=open/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await openPage(page, 'Signals', { exact: true });
    await page.getByLabel('Show').selectOption('all');
    await page.getByRole('listitem').filter({ hasText: 'Copied tag link opened again' }).waitFor();
    await page.waitForTimeout(2000);
    assert.ok(
      await page.getByRole('listitem').filter({ hasText: 'Copied tag link opened again' }).isVisible(),
      'the list of all signals is still shown after the late answer',
    );
    assert.equal(await page.getByRole('button', { name: 'Mark resolved' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Save thresholds' }).count(), 0);
    assert.ok(await page.getByLabel('Openings of one used tag link').isDisabled());
  }, 60_000);
});
