import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import { launchChromium } from '../support/browser.ts';
import { addConsoleUser, consoleChecks, PHONE } from '../support/console-browser.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

const OWNER = 'owner@overview.example';

/**
 * The Overview, the console's landing page, for a brand that starts with nothing: the checklist ticks as a key
 * (made in the console), passports (minted through the API with that key) and a webhook endpoint appear; the
 * passport counts match what was made; the Live badge; the phone layout with its folded navigation.
 */
describe('console overview (Chromium, API + worker + chain)', () => {
  let stack: TestStack;
  let browser: Browser;
  let origin: string;
  let companyId: string;
  let key = '';
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    const port = await freePort();
    stack = await startTestStack({ mintWaitMs: 2000, dispatcher: false, apiEnv: { PORT: String(port) } });
    origin = `http://localhost:${port}`;
    // A company as registration leaves it: one owner, no key, no passport, no endpoint.
    const [company] = await stack.api.db.orm.em
      .fork()
      .execute<{ id: string }[]>(
        `insert into companies (id, name, created_at) values (gen_random_uuid(), 'Overview Brand', now()) returning id`,
      );
    companyId = company!.id;
    await addConsoleUser(stack.api, companyId, OWNER, 'owner');
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const checks = consoleChecks(
    () => browser,
    () => origin,
    { shotPrefix: 'overview-' },
  );
  const { newContext, accessible, shoot, checkPage, openPage } = checks;

  /** The checklist's steps as "title: done|to do", top to bottom. */
  const checklist = async (page: Page) =>
    (await page.locator('.checklist li').all()).map(async (item) => {
      const title = (await item.locator('strong').textContent()) ?? '';
      return `${title}: ${(await item.getAttribute('class')) === 'done' ? 'done' : 'to do'}`;
    });
  const steps = async (page: Page) => Promise.all(await checklist(page));
  /** A passport count: the row's test and live cells. */
  const counts = async (page: Page, state: string) =>
    page
      .getByRole('row', { name: new RegExp(`^${state} `) })
      .getByRole('cell')
      .allInnerTexts();
  const reopen = async (page: Page) => {
    await openPage(page, 'Overview');
    await page.getByRole('heading', { level: 2, name: 'Getting started' }).waitFor();
  };

  test('sign-in lands on the overview; the checklist ticks as a key, passports and a webhook are made', async () => {
    const [context, page] = await newContext();
    await checks.signInToOverview(page, OWNER);
    assert.equal(new URL(page.url()).pathname, '/console/overview');
    await page.getByRole('heading', { level: 2, name: 'Getting started' }).waitFor();
    assert.deepEqual(await steps(page), [
      'Create an API key: to do',
      'Mint a test passport: to do',
      'Add a webhook endpoint: to do',
      'Submit your business verification: to do',
      'Go live: create a live API key: to do',
    ]);
    await page.getByText('0 of 5 steps done.').waitFor();
    await page.getByText('Nothing needs attention').waitFor();
    assert.deepEqual(await counts(page, 'Total'), ['0', '0']);
    assert.equal(
      await page.getByRole('link', { name: 'API reference', exact: true }).getAttribute('href'),
      '/docs',
    );
    assert.equal(
      await page
        .getByRole('link', { name: 'Open the mint operation in the API reference' })
        .getAttribute('href'),
      '/docs#/dpp/mint',
    );
    await checkPage(page, 'empty');

    // Step 1, where the checklist points: a test key made in the console.
    await page.getByRole('link', { name: 'Go to Developers' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Developers' }).waitFor();
    await page.getByLabel('Key name').fill('Overview key');
    await page.getByRole('button', { name: 'Create key' }).click();
    key = (await page.getByLabel('New API key').inputValue()).trim();
    assert.match(key, /^sk_test_/);
    await reopen(page);
    assert.deepEqual((await steps(page)).slice(0, 2), [
      'Create an API key: done',
      'Mint a test passport: to do',
    ]);

    // Step 2 through the API with that key: three passports, one revoked.
    const tokens = [
      await enrollAndMint(call, '04AB0E7F000001'),
      await enrollAndMint(call, '04AB0E7F000002'),
      await enrollAndMint(call, '04AB0E7F000003'),
    ];
    const revoked = await call('POST', '/v1/dpp/revoke', { tokenId: tokens[0], reason: 'sold in error' });
    assert.equal(revoked.status, 200, revoked.text);
    // Step 3: an endpoint (nothing is dispatched in this test, so it has no deliveries).
    const endpoint = await call('POST', '/v1/webhooks/endpoints', {
      url: 'http://127.0.0.1:9/hooks',
      eventTypes: ['asset.minted'],
    });
    assert.equal(endpoint.status, 201, endpoint.text);
    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'Getting started' }).waitFor();
    assert.deepEqual(await steps(page), [
      'Create an API key: done',
      'Mint a test passport: done',
      'Add a webhook endpoint: done',
      'Submit your business verification: to do',
      'Go live: create a live API key: to do',
    ]);
    await page.getByText('3 of 5 steps done.').waitFor();
    assert.deepEqual(await counts(page, 'Active'), ['2', '0']);
    assert.deepEqual(await counts(page, 'Revoked'), ['1', '0']);
    assert.deepEqual(await counts(page, 'Total'), ['3', '0']);
    assert.deepEqual(await counts(page, 'Mints under way'), ['0', '0']);
    await checkPage(page, 'progress');

    // A delivery that failed for good shows under Needs attention, with where to act on it.
    await stack.api.db.orm.em
      .fork()
      .execute(
        `update webhook_endpoints set enabled = false, disabled_reason = 'test' where company_id = ?`,
        [companyId],
      );
    await page.reload();
    await page.getByRole('link', { name: '1 webhook endpoint is switched off' }).waitFor();
    await shoot(page, 'attention');

    // Live mode: the badge says so on every page, and the test banner is gone.
    await page.getByRole('button', { name: 'Switch to live' }).click();
    await page.locator('.mode-badge', { hasText: 'Live' }).waitFor();
    assert.equal(await page.getByText('Test mode: you are looking at test data').count(), 0);
    await openPage(page, 'Developers');
    await page.locator('.mode-badge', { hasText: 'Live' }).waitFor();
    await page.getByLabel('Key name').fill('Live key');
    await page.getByRole('button', { name: 'Create key' }).click();
    assert.match((await page.getByLabel('New API key').inputValue()).trim(), /^sk_live_/);
    await reopen(page);
    assert.equal((await steps(page))[4], 'Go live: create a live API key: done');
    await checkPage(page, 'live');
    await page.getByRole('button', { name: 'Switch to test' }).click();
    await page.locator('.mode-badge', { hasText: 'Test' }).waitFor();
    await context.close();
  });

  test('at a phone’s width the heading is on the first screen; the menu opens and closes by mouse and keyboard', async () => {
    const [context, page] = await newContext(PHONE);
    await checks.signInToOverview(page, OWNER);
    const heading = page.getByRole('heading', { level: 1, name: 'Overview' });
    const box = await heading.boundingBox();
    assert.ok(box && box.y + box.height < PHONE.height / 3, `the heading starts at ${box?.y}px`);
    assert.ok(await page.locator('.mode-badge').isVisible(), 'the Test/Live badge stays in view');
    const menu = page.getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Console' });
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    assert.equal(await nav.isVisible(), false, 'folded away');
    await accessible(page, 'overview (phone, menu closed)');
    await shoot(page, 'phone-first-screen');

    await menu.click();
    assert.equal(await menu.getAttribute('aria-expanded'), 'true');
    await nav.getByRole('link', { name: 'Billing' }).waitFor();
    await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
    await accessible(page, 'overview (phone, menu open)');
    await shoot(page, 'phone-menu-open');
    await page.keyboard.press('Escape');
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    assert.equal(await nav.isVisible(), false);
    assert.equal(
      await page.evaluate(() => document.activeElement?.textContent),
      'Menu',
      'focus back on Menu',
    );

    // Keyboard: Enter opens it, a link opens its page and the menu folds again.
    await page.keyboard.press('Enter');
    assert.equal(await menu.getAttribute('aria-expanded'), 'true');
    await nav.getByRole('link', { name: 'Passports' }).click();
    await page.getByRole('heading', { level: 1, name: 'Passports' }).waitFor();
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    await checks.fitsWidth(page, 'passports (phone)');
    await context.close();
  });

  test('no script error, failed response or foreign request', () => {
    // The only failures: "who is signed in?" before sign-in (401).
    assert.deepEqual(
      checks.failedResponses.filter((line) => !/^401 .*\/v1\/console\/session$/.test(line)),
      [],
    );
    assert.deepEqual(
      checks.errors.filter((text) => !/^Failed to load resource: .* status of 401/.test(text)),
      [],
    );
    assert.deepEqual(checks.foreignRequests, []);
  });
});
