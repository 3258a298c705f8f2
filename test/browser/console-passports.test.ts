import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import { RETRY_RECORDING_SIGNAL } from '../../src/processes/record-until-done.ts';
import type { TestTenant } from '../support/api.ts';
import { launchChromium } from '../support/browser.ts';
import { addConsoleUser, consoleChecks, PHONE } from '../support/console-browser.ts';
import { enrollAndMint, mintBody } from '../support/fixtures/mint.ts';
import { CONFORMITY_URL, GTIN, OTHER_GTIN } from '../support/fixtures/products.ts';
import { tapQuery } from '../support/fixtures/sun.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { seedVolume } from '../support/volume-seed.ts';

const OWNER = 'owner@passports.example';
const VIEWER = 'viewer@passports.example';

/**
 * The console's Passports in headless Chromium: passports minted through the API are found by search, a
 * passport's page shows its facts and on-chain timeline, its credential downloads, an owner revokes it (with a
 * confirmation), a viewer sees it but cannot revoke; the list pages through many passports; a mint whose
 * recording fails shows its state and the operator's attention. Every page passes axe-core (WCAG 2.1 A/AA: no
 * serious or critical violation) and fits a phone's width; screenshots in test-artifacts/console/passports-*.png.
 */
describe('console Passports in Chromium', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let browser: Browser;
  let origin: string;
  const minted: Record<string, string> = {};
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  const sql = <T>(query: string, params: unknown[] = []) =>
    stack.api.db.orm.em.fork().execute<T[]>(query, params);

  beforeAll(async () => {
    const port = await freePort();
    stack = await startTestStack({ mintWaitMs: 2000, apiEnv: { PORT: String(port) } });
    origin = `http://localhost:${port}`;
    tenant = await stack.api.createTenant('Passport Brand');
    minted.first = await enrollAndMint(call, '04C0FFEE000001', { batch_number: 'LOT-A' });
    minted.second = await enrollAndMint(call, '04C0FFEE000002', { gtin: OTHER_GTIN, batch_number: 'LOT-B' });
    await addConsoleUser(stack.api, tenant.companyId, OWNER, 'owner');
    await addConsoleUser(stack.api, tenant.companyId, VIEWER, 'viewer');
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const checks = consoleChecks(
    () => browser,
    () => origin,
    { shotPrefix: 'passports-', contextOptions: { acceptDownloads: true }, foreignFromEveryPage: true },
  );
  const { newContext, accessible, accessibleShot, fitsWidth, shoot, signIn } = checks;
  /** The token ids in the result table, top to bottom. */
  const listedTokens = (page: Page) =>
    page.locator('table.passports tbody tr td:first-child').allInnerTexts();

  let ownerPage: Page;

  test('an owner finds a minted passport by search, opens it, sees its timeline, downloads its credential, revokes it', async () => {
    const [, page] = await newContext();
    ownerPage = page;
    await signIn(page, OWNER);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Passports' }).click();
    await page.getByRole('heading', { level: 1, name: 'Passports' }).waitFor();
    await page.locator('table.passports').waitFor();
    assert.deepEqual(await listedTokens(page), [minted.second, minted.first], 'newest first');
    await accessible(page, 'passports');
    await shoot(page, 'list');

    // Search by batch, then by chip UID (lower case is the same chip), then by GTIN and status together.
    await page.getByLabel('Batch').fill('LOT-B');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForFunction(() => document.querySelectorAll('table.passports tbody tr').length === 1);
    assert.deepEqual(await listedTokens(page), [minted.second]);
    assert.match(page.url(), /\/console\/passports\?batch=LOT-B$/, 'the search is in the address');
    await accessible(page, 'passports search');
    await shoot(page, 'search');
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByLabel('Chip UID').fill('04c0ffee000001');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: minted.first! }).waitFor();
    assert.deepEqual(await listedTokens(page), [minted.first]);
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByLabel('GTIN').fill(GTIN);
    await page.getByLabel('Status').selectOption('ACTIVE');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: minted.first! }).waitFor();
    assert.deepEqual(await listedTokens(page), [minted.first]);

    // A shopper taps the chip (the mint's own tap was the first): the page counts both.
    const tapped = await stack.api.call(
      'GET',
      `/test/01/${GTIN}/21/${minted.first}?${tapQuery('04C0FFEE000001', 2)}`,
      { env: null },
    );
    assert.equal(tapped.status, 307, tapped.text);
    // The passport's page: facts, the timeline with the mint's transaction, taps, links.
    await page.getByRole('link', { name: minted.first! }).click();
    await page.getByRole('heading', { level: 1, name: `Passport ${minted.first}` }).waitFor();
    const facts = (await call('GET', `/v1/dpp/passports/${minted.first}`)).body.passport;
    const timeline = page.getByRole('list', { name: 'Timeline, oldest first' });
    await timeline.getByText('Minted').waitFor();
    await timeline.getByText(facts.transactionHash).waitFor();
    await page.getByText('04C0FFEE000001').waitFor();
    await page.getByText('LOT-A').waitFor();
    assert.equal(facts.taps.count, 2);
    assert.match(
      (await page.locator('dt:text-is("Verified taps") + dd').textContent())!,
      /^2 \(last [A-Z][a-z]{2} \d+, \d{4}/,
    );
    assert.equal(
      await page.getByRole('link', { name: 'Open the public page' }).getAttribute('href'),
      `${stack.api.config.publicBaseUrl}/test/verify/01/${GTIN}/21/${minted.first}`,
    );
    await accessibleShot(page, 'passport');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the credential' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), `passport-${minted.first}.vc.json`);
    const credential = JSON.parse(await readFile((await download.path())!, 'utf8'));
    assert.ok(credential.type.includes('VerifiableCredential'), 'a W3C verifiable credential');
    assert.ok(credential.proof, 'with its proof');

    // Revoke, with a confirmation first.
    await page.getByLabel('Reason (shown on the public page)').fill('Withdrawn from sale');
    await page.getByRole('button', { name: 'Revoke passport' }).click();
    const confirm = page.getByRole('button', { name: `Confirm revoking passport ${minted.first}` });
    await confirm.waitFor();
    assert.equal(
      (await call('GET', `/v1/dpp/passports/${minted.first}`)).body.passport.status,
      'ACTIVE',
      'nothing is revoked before the confirmation',
    );
    await accessible(page, 'passport revoke confirmation');
    await shoot(page, 'revoke-confirm');
    await confirm.click();
    await page.getByText(`Passport ${minted.first} revoked`).waitFor();
    await timeline.getByText('Credential revoked').waitFor();
    await page.getByText('Withdrawn from sale').first().waitFor();
    assert.equal(await page.getByRole('button', { name: 'Revoke passport' }).count(), 0);
    await accessible(page, 'passport revoked');
    await shoot(page, 'revoked');
    // Verifiers see it: the public document says REVOKED.
    const publicView = await stack.api.call('GET', `/test/01/${GTIN}/21/${minted.first}?format=public`, {
      env: null,
    });
    assert.equal(publicView.body.status, 'REVOKED');

    await page.getByRole('link', { name: '← All passports' }).click();
    await page.getByRole('heading', { level: 1, name: 'Passports' }).waitFor();
    await page.getByLabel('Status').selectOption('REVOKED');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForFunction(() => document.querySelectorAll('table.passports tbody tr').length === 1);
    assert.deepEqual(await listedTokens(page), [minted.first]);
    await page.locator('table.passports').getByText('Revoked').waitFor();
  });

  test('a viewer sees a passport but cannot revoke it (the API refuses too)', async () => {
    const [, page] = await newContext();
    await signIn(page, VIEWER);
    await page.goto(`${origin}/console/passports/${minted.second}`);
    await page.getByRole('heading', { level: 1, name: `Passport ${minted.second}` }).waitFor();
    await page.getByRole('list', { name: 'Timeline, oldest first' }).getByText('Minted').waitFor();
    await page.getByText('only an owner or a developer can revoke it').waitFor();
    assert.equal(await page.getByRole('button', { name: /Revoke/ }).count(), 0);
    await page.getByRole('link', { name: 'Download the credential' }).waitFor();
    await accessible(page, 'passport (viewer)');
    await shoot(page, 'viewer');
    const forced = await page.evaluate(async (tokenId) => {
      const response = await fetch('/v1/dpp/revoke', {
        method: 'POST',
        headers: { 'x-service-env': 'test', 'content-type': 'application/json' },
        body: JSON.stringify({ tokenId, reason: 'forced' }),
      });
      return { status: response.status, body: await response.json() };
    }, minted.second);
    assert.equal(forced.status, 403);
    assert.equal(forced.body.code, 'role_forbidden');
    assert.equal((await call('GET', `/v1/dpp/passports/${minted.second}`)).body.passport.status, 'ACTIVE');
  });

  test('a mint whose recording fails shows its step and the operator’s attention, then completes', async () => {
    const uid = '04C0FFEE0000AA';
    // The database refuses this chip's passport (as a broken migration or a full disk would).
    await sql(
      `alter table passports add constraint refuse_console_chip check (chip_uid <> '${uid}') not valid`,
    );
    assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: uid })).status, 201);
    const answer = await call(
      'POST',
      '/v1/dpp/mint',
      mintBody({ chipUid: uid, custom_dpp_data: { gtin: GTIN, conformity_url: CONFORMITY_URL } }),
    );
    assert.equal(answer.status, 202, answer.text);

    const page = ownerPage;
    // The list names the mints under way; Refresh until this one needs an operator (visibility lags a little).
    await page.goto(`${origin}/console/passports`);
    await page.getByRole('heading', { level: 1, name: 'Passports' }).waitFor();
    const running = page.locator('section[aria-labelledby="running-heading"]');
    for (let i = 0; i < 40; i++) {
      if ((await running.getByText('Needs attention').count()) > 0) break;
      if ((await running.count()) > 0) await running.getByRole('button', { name: 'Refresh' }).click();
      else await page.reload();
      await page.waitForTimeout(1000);
    }
    await running.getByText('1 mint running, 1 needing an operator’s attention.').waitFor();
    await accessible(page, 'passports with a running mint');
    await shoot(page, 'running-mints');
    await running.getByRole('link', { name: `Chip ${uid}` }).click();
    await page.getByText('No passport matches this search.').waitFor();
    assert.match(page.url(), new RegExp(`/console/passports\\?chipUid=${uid}$`));
    await page.getByRole('heading', { level: 2, name: `Mint of chip ${uid}` }).waitFor();
    await page.getByText('Needs operator attention').waitFor({ timeout: 40_000 });
    await page.getByText(/step 3 of 4: Recording the passport/).waitFor();
    await page.getByText('refuse_console_chip').waitFor();
    await accessible(page, 'passports mint attention');
    await shoot(page, 'mint-attention');

    // The operator fixes the cause and asks for a retry: the page, asking every 2 s, shows the passport.
    await sql('alter table passports drop constraint refuse_console_chip');
    await stack.temporal.client.workflow.getHandle(`mint:test:${uid}`).signal(RETRY_RECORDING_SIGNAL);
    const open = page.getByRole('link', { name: /^Open passport \d+$/ });
    await open.waitFor({ timeout: 30_000 });
    await page.getByText('Completed').waitFor();
    await shoot(page, 'mint-completed');
    await open.click();
    await page.getByRole('heading', { level: 1, name: /^Passport \d+$/ }).waitFor();
  });

  test('many passports: pages of 25, next and previous', async () => {
    await seedVolume(
      stack.api.db.orm.em.fork(),
      { companyId: tenant.companyId, environment: 'test' },
      { passports: 60, events: 10, deliveries: 1, resales: 1, users: 1, apiKeys: 1 },
      'cp',
    );
    const page = ownerPage;
    await page.goto(`${origin}/console/passports`);
    await page.getByRole('heading', { level: 1, name: 'Passports' }).waitFor();
    await page.locator('table.passports').waitFor();
    const first = await listedTokens(page);
    assert.equal(first.length, 25);
    const pager = page.getByRole('navigation', { name: 'Pages of passports' });
    assert.equal(await pager.getByRole('button', { name: 'Previous page' }).isDisabled(), true);
    await pager.getByRole('button', { name: 'Next page' }).click();
    await pager.getByText('Page 2').waitFor();
    await page.locator('table.passports').waitFor();
    const second = await listedTokens(page);
    assert.equal(second.length, 25);
    assert.deepEqual(
      first.filter((token) => second.includes(token)),
      [],
      'no passport on two pages',
    );
    await accessible(page, 'passports page 2');
    await shoot(page, 'page-2');
    await pager.getByRole('button', { name: 'Next page' }).click();
    await pager.getByText('Page 3').waitFor();
    await page.locator('table.passports').waitFor();
    const third = await listedTokens(page);
    // 54 seeded (every 10th chip stays unminted) + the 3 minted.
    assert.equal(first.length + second.length + third.length, 57);
    assert.ok(third.includes(minted.first!), 'the oldest passports on the last page');
    assert.equal(await pager.getByRole('button', { name: 'Next page' }).isDisabled(), true);
    await pager.getByRole('button', { name: 'Previous page' }).click();
    await pager.getByText('Page 2').waitFor();
    await page.locator('table.passports').waitFor();
    assert.deepEqual(await listedTokens(page), second);

    // The live switch shows the live passports (none) from their first page, and back.
    await page.getByRole('button', { name: 'Switch to live' }).click();
    await page.getByText('No live passports yet.').waitFor();
    assert.equal(await pager.count(), 0);
    await page.getByRole('button', { name: 'Switch to test' }).click();
    await page.locator('table.passports').waitFor();
    assert.deepEqual(await listedTokens(page), first, 'back on the first page of the test passports');
  });

  test('at a phone’s width the list and a passport fit and pass the accessibility check', async () => {
    const [, page] = await newContext(PHONE);
    await signIn(page, OWNER);
    await page.goto(`${origin}/console/passports`);
    await page.locator('table.passports').waitFor();
    await fitsWidth(page, 'passports (phone)');
    await accessible(page, 'passports (phone)');
    await shoot(page, 'list-phone');
    await page.goto(`${origin}/console/passports/${minted.first}`);
    await page
      .getByRole('list', { name: 'Timeline, oldest first' })
      .getByText('Credential revoked')
      .waitFor();
    await fitsWidth(page, 'passport (phone)');
    await accessible(page, 'passport (phone)');
    await shoot(page, 'passport-phone');
  });

  test('keyboard only: search from the heading, open a result, reach the credential', async () => {
    const [, page] = await newContext();
    await signIn(page, OWNER);
    await page.goto(`${origin}/console/passports`);
    await page.getByRole('heading', { level: 1, name: 'Passports' }).waitFor();
    await page.locator('table.passports').waitFor();
    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        return `${element?.tagName} ${element?.id || element?.textContent?.trim() || ''}`;
      });
    assert.equal(await focused(), 'H1 passports-heading', 'the heading has the focus on arrival');
    // The one Add button sits by the heading (issue 36: lists first), then the free-text search.
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'A Add passports');
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'INPUT search-q');
    await page.keyboard.type('04C0FFEE000002');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('table.passports tbody tr').length === 1);
    // Tab on to the one result's link, then open it with Enter.
    for (let i = 0; i < 20 && (await focused()) !== `A ${minted.second}`; i++)
      await page.keyboard.press('Tab');
    assert.equal(await focused(), `A ${minted.second}`);
    const ring = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    assert.notEqual(ring, 'none', 'a visible focus ring');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: `Passport ${minted.second}` }).waitFor();
    // The credential link comes with the passport's details, loaded after the heading (slow on a busy machine).
    await page.getByRole('link', { name: 'Download the credential' }).waitFor();
    for (let i = 0; i < 20 && (await focused()) !== 'A Download the credential'; i++) {
      await page.keyboard.press('Tab');
    }
    assert.equal(await focused(), 'A Download the credential');
  });

  test('no CSP violation, no script error and nothing loaded from elsewhere', () => {
    assert.deepEqual(checks.foreignRequests, []);
    assert.deepEqual(
      checks.errors.filter(
        (text) => !/^Failed to load resource: the server responded with a status of 40[134]/.test(text),
      ),
      [],
    );
  });
});
