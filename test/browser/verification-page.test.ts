import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import type { TestTenant } from '../support/api.ts';
import { ARTIFACTS_DIR, launchChromium } from '../support/browser.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { CONFORMITY_URL, FULL_PRODUCT, GTIN } from '../support/fixtures/products.ts';
import { tapQuery } from '../support/fixtures/sun.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { CONTRAST_OF, NDEF_READER_STAND_IN } from './nfc-stand-in.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served, and the page's globals inside evaluate()
type Json = any;
// What the callbacks given to page.evaluate / waitForFunction see: they run in the page, not in Node.
declare const document: Json;
declare const window: Json;

describe('verification page in Chromium: facts, timeline, Web NFC scan verdicts, revocation', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let browser: Browser;
  let context: BrowserContext;
  let tokenId: string;
  const chipUid = '04D1C2B3A4E501';
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  const offOrigin: string[] = [];
  const problems: string[] = [];

  async function openPage(path: string): Promise<Page> {
    const page = await context.newPage();
    page.on('request', (request) => {
      if (!request.url().startsWith(stack.api.baseUrl)) offOrigin.push(request.url());
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${stack.api.baseUrl}${path}`);
    return page;
  }

  /** What the chip holds: its Digital Link (on our public host) with a SUN signature of this counter. */
  const sunUrl = (counter: number, origin = stack.api.config.publicBaseUrl) =>
    `${origin}/01/${GTIN}/21/${tokenId}?${tapQuery(chipUid, counter)}`;

  async function scanTag(page: Page, url: string): Promise<string> {
    await page.click('#scan');
    await page.waitForFunction(() =>
      document.getElementById('scan-status')?.textContent?.includes('Hold your phone'),
    );
    const before = await page.getAttribute('#verdict', 'data-verdict');
    await page.evaluate((tagUrl) => window.__nfc.read(tagUrl), url);
    await page.waitForFunction((previous) => {
      const status = document.getElementById('scan-status')?.textContent ?? '';
      return (
        status.includes('You can scan again') ||
        (document.getElementById('verdict')?.dataset.verdict ?? previous) !== previous
      );
    }, before);
    return (await page.textContent('#verdict-title'))!.trim();
  }

  beforeAll(async () => {
    // The resolver's redirect to the page is absolute (PUBLIC_BASE_URL, as the linkset's default link): the
    // service is started at the address it publishes.
    const port = await freePort();
    stack = await startTestStack({
      apiEnv: { PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` },
    });
    tenant = await stack.api.createTenant('Acme Apparel');
    tokenId = await enrollAndMint(call, chipUid, FULL_PRODUCT);
    const logged = await call('POST', '/v1/iaas/log-event', {
      tokenId,
      action: 'EXPORT_CLEARED',
      locationName: 'Port of Leixões',
      latitude: 41.1844,
      longitude: -8.7026,
      metadata: {},
    });
    assert.equal(logged.status, 201, logged.text);
    await stack.temporal.client.workflow.getHandle(`anchor-event:test:${logged.body.eventId}`).result();
    browser = await launchChromium();
    // A phone (small screen, touch) whose requests name the test environment, where this passport lives.
    context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      extraHTTPHeaders: { 'x-service-env': 'test' },
    });
    await context.addInitScript(NDEF_READER_STAND_IN);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  test('a scanned Digital Link opens the page: the product’s facts and its on-chain timeline', async () => {
    const page = await openPage(`/01/${GTIN}/21/${tokenId}`);
    assert.equal(
      new URL(page.url()).pathname,
      `/test/verify/01/${GTIN}/21/${tokenId}`,
      'browsers are sent to the page',
    );
    assert.equal(await page.textContent('#product-title'), 'Trail Jacket');
    const facts = await page.textContent('.facts');
    // The country by its name, not its ISO code (issue 37: "Country of origin: PT" was the defect).
    for (const fact of ['Acme Apparel GmbH', GTIN, tokenId, 'LOT-7/B', 'Portugal', 'Active']) {
      assert.ok(facts?.includes(fact), `facts show ${fact}`);
    }
    assert.equal(await page.getAttribute('#conformity', 'href'), CONFORMITY_URL);
    assert.equal(await page.getAttribute('#status', 'data-status'), 'ACTIVE');
    assert.equal(await page.getAttribute('#verdict', 'data-verdict'), 'none');

    const custody = (await call('GET', `/v1/iaas/custody/${tokenId}`)).body.events as Json[];
    const items = page.locator('.timeline__item');
    assert.equal(await items.count(), custody.length);
    const exported = items.nth(1);
    assert.equal(await exported.locator('h3').textContent(), 'Export cleared');
    assert.match((await exported.textContent())!, /Port of Leixões/);
    assert.match((await exported.textContent())!, /41\.1844° N, 8\.7026° W/);
    assert.equal(await exported.locator('time').getAttribute('datetime'), custody[1].timestamp);
    // Transaction hashes are noise to a consumer (issue 37): folded behind "Verify on chain", one per step.
    assert.equal(await exported.locator('code.hash').count(), 0);
    assert.equal(await page.isVisible('#chain-proof .chain__steps'), false, 'folded');
    await page.click('#chain-proof summary');
    const steps = page.locator('#chain-proof .chain__steps li');
    assert.equal(await steps.nth(1).locator('code.hash').getAttribute('title'), custody[1].transactionHash);
    assert.equal(await steps.nth(0).locator('code.hash').getAttribute('title'), custody[0].transactionHash);
  });

  test('“Scan the tag” with Web NFC: a fresh tap is authentic, the same again replayed, a forged one not authentic', async () => {
    const page = await openPage(`/verify/01/${GTIN}/21/${tokenId}`);
    assert.equal(await page.isVisible('#scan'), true, 'the button appears where Web NFC exists');
    assert.equal(await page.isVisible('#scan-section'), true);
    assert.equal(await page.isVisible('#nfc-unavailable'), false);
    const fresh = sunUrl(2);
    assert.equal(await scanTag(page, fresh), 'Authentic');
    assert.equal(await page.getAttribute('#verdict', 'data-verdict'), 'authentic');
    assert.match(page.url(), /\?tap=[\w-]+\.[\w-]+$/, 'the verdict survives a reload');
    assert.equal(await page.textContent('#verification-count'), '2', 'the mint’s tap and this one');
    await page.emulateMedia({ reducedMotion: 'reduce' }); // the seal drawn at once for the screenshot
    await page.screenshot({
      path: new URL('verification-page-authentic.png', ARTIFACTS_DIR).pathname,
      fullPage: true,
    });

    assert.equal(await scanTag(page, fresh), 'Replayed');
    assert.equal(await page.getAttribute('#verdict', 'data-verdict'), 'replayed');
    const forged = fresh.replace(/cmac=(.)/, (_m, c) => `cmac=${c === 'A' ? 'B' : 'A'}`);
    assert.equal(await scanTag(page, forged), 'Not authentic');
    assert.equal(await page.getAttribute('#verdict', 'data-verdict'), 'forged');
    await page.screenshot({
      path: new URL('verification-page-forged.png', ARTIFACTS_DIR).pathname,
      fullPage: true,
    });

    await page.reload();
    assert.equal(
      await page.getAttribute('#verdict', 'data-verdict'),
      'forged',
      'rendered by the server from ?tap=',
    );
  });

  test('a phone tapping the tag opens the page with the verdict, without any script', async () => {
    const noScript = await browser.newContext({
      javaScriptEnabled: false,
      extraHTTPHeaders: { 'x-service-env': 'test' },
    });
    try {
      const page = await noScript.newPage();
      await page.goto(sunUrl(5, stack.api.baseUrl));
      assert.equal(await page.getAttribute('#verdict', 'data-verdict'), 'authentic');
      assert.equal(await page.textContent('#verdict-title'), 'Authentic');
      assert.equal(await page.textContent('#product-title'), 'Trail Jacket');
      assert.ok((await page.locator('.timeline__item').count()) >= 2);
      assert.equal(await page.isVisible('#scan'), false, 'no scan button without Web NFC');
      assert.equal(await page.isVisible('#nfc-unavailable'), true);
    } finally {
      await noScript.close();
    }
  });

  test('accessible: language, names, keyboard reaches the scan button, text contrast ≥ 4.5:1', async () => {
    const page = await openPage(`/verify/01/${GTIN}/21/${tokenId}`);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.equal(await page.locator('h1').count(), 1);
    const scanCount = () => page.evaluate(() => window.__nfc.scans as number);
    const before = await scanCount();
    let focused = '';
    for (let i = 0; i < 6 && focused !== 'scan'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.id ?? '');
    }
    assert.equal(focused, 'scan', 'the scan button is reachable with the keyboard');
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => window.__nfc.scans > n, before);
    for (const selector of [
      '#verdict-title',
      '#verdict-message',
      '#product-title',
      '.facts dt',
      '.facts dd',
      '#status',
      '#scan',
      '.timeline__item h3',
      '.meta',
    ]) {
      const ratio = await page
        .locator(selector)
        .first()
        .evaluate(new Function(`return (${CONTRAST_OF})(arguments[0])`) as never);
      assert.ok((ratio as number) >= 4.5, `${selector}: contrast ${(ratio as number).toFixed(2)}`);
    }
  });

  test('strict CSP and nothing loaded from elsewhere; a revoked passport shows as revoked', async () => {
    const revoked = await call('POST', '/v1/dpp/revoke', { tokenId, reason: 'Withdrawn from sale' });
    assert.equal(revoked.status, 200, revoked.text);
    const response = await context.request.get(`${stack.api.baseUrl}/verify/01/${GTIN}/21/${tokenId}`);
    const csp = response.headers()['content-security-policy'] ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);

    const page = await openPage(`/verify/01/${GTIN}/21/${tokenId}`);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    assert.equal(await page.getAttribute('#status', 'data-status'), 'REVOKED');
    assert.equal(await page.textContent('#verdict-title'), 'Passport revoked');
    assert.equal((await page.textContent('#status'))?.trim(), 'Revoked');
    assert.match((await page.textContent('#status-notice'))!, /revoked this passport .*Withdrawn from sale/);
    assert.match((await page.textContent('#status-meaning'))!, /What this means for you/);
    await page.screenshot({
      path: new URL('verification-page-revoked.png', ARTIFACTS_DIR).pathname,
      fullPage: true,
    });
    assert.deepEqual(offOrigin, [], 'every request went to our own origin');
    assert.deepEqual(problems, [], 'no script errors and no CSP violations');
  });
});
