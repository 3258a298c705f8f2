import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import type { TestTenant } from '../support/api.ts';
import { launchChromium } from '../support/browser.ts';
import { addConsoleUser, consoleChecks, PHONE } from '../support/console-browser.ts';
import { enrollAndMint, mintBody } from '../support/fixtures/mint.ts';
import { CONFORMITY_URL, GTIN, TRAIL_JACKET } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

const OWNER = 'owner@find.example';
const EXPLORER = 'https://explorer.example/tx/{tx}';

/**
 * Find and act (issue 36): the Passports list searched by a fragment of a product name, a bad value refused at
 * its field (never above "No passport matches"), a row that opens its passport by click and by keyboard, copy
 * buttons that put the value on the clipboard, and the mint transaction linked to the configured explorer.
 * axe on each state; screenshots at 1280 and 390 px in test-artifacts/console/find-*.png.
 */
describe('console: find and act on passports', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let browser: Browser;
  let origin: string;
  let jacket: string;
  let raincoat: string;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    const port = await freePort();
    stack = await startTestStack({
      mintWaitMs: 2000,
      apiEnv: { PORT: String(port), CHAIN_EXPLORER_URL_TEST: EXPLORER },
    });
    origin = `http://localhost:${port}`;
    tenant = await stack.api.createTenant('Find Brand');
    jacket = await enrollAndMint(call, '04F1D000000001', { batch_number: 'LOT-J' });
    assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: '04F1D000000002' })).status, 201);
    const minted = await call(
      'POST',
      '/v1/dpp/mint',
      mintBody({
        chipUid: '04F1D000000002',
        ...TRAIL_JACKET,
        name: 'Harbour Raincoat',
        custom_dpp_data: { gtin: GTIN, conformity_url: CONFORMITY_URL, batch_number: 'LOT-R' },
      }),
    );
    assert.equal(minted.status, 201, minted.text);
    raincoat = minted.body.blockchain.tokenId;
    await addConsoleUser(stack.api, tenant.companyId, OWNER, 'owner');
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const { newContext, accessible, fitsWidth, shoot, signIn } = consoleChecks(
    () => browser,
    () => origin,
    { shotPrefix: 'find-' },
  );

  test('the search API matches fragments of name, batch and chip UID, and names a bad field with its rule', async () => {
    const tokens = async (q: string) =>
      (await call('GET', `/v1/dpp/passports?q=${encodeURIComponent(q)}`)).body.passports.map(
        (p: { tokenId: string }) => p.tokenId,
      );
    assert.deepEqual(await tokens('raincoat'), [raincoat], 'any case, part of the name');
    assert.deepEqual(await tokens('lot-j'), [jacket], 'part of the batch');
    assert.deepEqual(await tokens('f1d000000002'), [raincoat], 'part of the chip UID');
    assert.deepEqual(await tokens('100%'), [], 'LIKE wildcards are taken literally');
    const bad = await call('GET', '/v1/dpp/passports?q=ab');
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.errors, [
      {
        path: 'query.q',
        message: 'Search text must be at least 3 characters',
        code: bad.body.errors[0].code,
      },
    ]);
    const row = (await call('GET', `/v1/dpp/passports?q=raincoat`)).body.passports[0];
    assert.equal(row.transactionUrl, EXPLORER.replace('{tx}', row.transactionHash));
  });

  test('a staff member searches by a name fragment, sees a bad value at its field, opens a row, copies ids', async () => {
    const [context, page] = await newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await signIn(page, OWNER);
    await page.goto(`${origin}/console/passports`);
    await page.locator('table.passports').waitFor();
    await page.getByRole('link', { name: 'Add passports' }).waitFor();
    await accessible(page, 'passports list');
    await shoot(page, 'list');

    await page.getByLabel('Search', { exact: true }).fill('Raincoa');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForFunction(() => document.querySelectorAll('table.passports tbody tr').length === 1);
    assert.equal(await page.locator('table.passports tbody tr td:first-child a').textContent(), raincoat);

    // The explorer link of the mint transaction.
    const facts = (await call('GET', `/v1/dpp/passports/${raincoat}`)).body.passport;
    const explorer = page.getByRole('link', { name: /on the block explorer/ });
    assert.equal(await explorer.getAttribute('href'), EXPLORER.replace('{tx}', facts.transactionHash));
    assert.equal(await explorer.getAttribute('target'), '_blank');

    // Copy buttons put the value on the clipboard.
    await page.getByRole('button', { name: 'Copy 04F1D000000002' }).click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), '04F1D000000002');
    await page.getByRole('button', { name: `Copy ${facts.transactionHash}` }).click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), facts.transactionHash);
    assert.match(page.url(), /\/console\/passports\?q=Raincoa$/, 'a copy does not open the row');
    await accessible(page, 'passports found');
    await shoot(page, 'search');

    // Too short: the field says why; no "No passport matches" under it.
    await page.getByLabel('Search', { exact: true }).fill('Ra');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const field = page.getByLabel('Search', { exact: true });
    await page.getByText('Search text must be at least 3 characters').waitFor();
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByText('No passport matches').count(), 0);
    await accessible(page, 'passports bad value');
    await shoot(page, 'bad-value');
    await page.setViewportSize(PHONE);
    await fitsWidth(page, 'bad value (phone)');
    await shoot(page, 'bad-value-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // A whole row opens its passport: by click on its product name, and by keyboard.
    await page.getByLabel('Search', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForFunction(() => document.querySelectorAll('table.passports tbody tr').length === 2);
    await page.getByRole('cell', { name: 'Harbour Raincoat' }).click();
    await page.waitForURL(new RegExp(`/console/passports/${raincoat}$`));
    await page.goBack();
    await page.locator('table.passports tbody tr').nth(1).waitFor();
    await page.setViewportSize(PHONE);
    await fitsWidth(page, 'list (phone)');
    await accessible(page, 'passports list (phone)');
    await shoot(page, 'list-phone');
    await page.locator(`tr[aria-label^="Passport ${jacket}"]`).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/console/passports/${jacket}$`));
    await context.close();
  });
});
