import assert from 'node:assert/strict';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import { PERSON_PASSWORD, personToken } from '../e2e/fixtures/people.ts';
import type { TestTenant } from '../support/api.ts';
import { launchChromium } from '../support/browser.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { FULL_PRODUCT, GTIN, RECYCLING_SITE } from '../support/fixtures/products.ts';
import { tapQuery } from '../support/fixtures/sun.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtp-receiver.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { paymentSucceeded, postStripeEvent } from '../support/stripe.ts';
import { waitFor } from '../support/wait-for.ts';
import { NDEF_READER_STAND_IN } from './nfc-stand-in.ts';
import { PHONE, VERIFY_SHOTS, verifyPageChecks } from './verify-page-support.ts';

// biome-ignore lint/suspicious/noExplicitAny: the page's globals inside evaluate()
declare const window: any;
// biome-ignore lint/suspicious/noExplicitAny: the page's DOM inside evaluate()
declare const document: any;

/** A plain SVG logo: a sun over a wordmark bar, shapes only. */
const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 40"><rect width="120" height="40" rx="6" fill="#1b2a4a"/><circle cx="20" cy="20" r="11" fill="#f4d03f"/><rect x="38" y="14" width="70" height="12" rx="3" fill="#ffffff"/></svg>`;
const BUYER = 'buyer.lumen@example.com';

/**
 * Issue 37's done-when, in headless Chromium at 390 px: a brand's page (logo, colours, its links), the page in
 * German and in French (country and materials by name), a buyer's claim reached from the page, a revoked and a
 * recycled passport, and a desktop browser without Web NFC. axe on each; screenshots in test-artifacts/verify/.
 */
describe('the verification page a brand puts its name on', () => {
  let stack: TestStack;
  let smtp: SmtpReceiver;
  let brand: TestTenant;
  let browser: Browser;
  let phone: BrowserContext;
  let tokenId: string;
  const chipUid = '04C1D2E3F4A501';
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: brand.testKey, ...(body === undefined ? {} : { body }) });
  const pages = verifyPageChecks(() => stack.api.baseUrl);
  const pagePath = (serial: string, query = '') => `/test/verify/01/${GTIN}/21/${serial}${query}`;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    const port = await freePort();
    stack = await startTestStack({
      apiEnv: {
        PORT: String(port),
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        SMTP_URL: smtp.url,
        CHAIN_EXPLORER_URL_TEST: 'https://explorer.example/tx/{tx}',
      },
    });
    brand = await stack.api.createTenant('Maison Lumen');
    tokenId = await enrollAndMint(call, chipUid, {
      ...FULL_PRODUCT,
      material_composition: { Cotton: 62, 'Merino wool': 30, elastane: 8 },
      name_de: 'Trail-Jacke',
      description_de: 'Wasserdichte Außenjacke',
      care_instructions: 'Wash at 30 °C, hang to dry.',
      care_instructions_de: 'Bei 30 °C waschen, hängend trocknen.',
    });
    const branded = await call('PATCH', '/v1/company/branding', {
      displayName: 'Maison Lumen',
      brandColor: '#1b2a4a',
      linkColor: '#8a3b12',
      careUrl: 'https://lumen.example/care',
      repairUrl: 'https://lumen.example/repair',
      resaleUrl: 'https://lumen.example/resale',
      recyclingUrl: 'https://lumen.example/recycling-points',
      contactEmail: 'service@lumen.example',
      contactUrl: 'https://lumen.example/help',
    });
    assert.equal(branded.status, 200, branded.text);
    const logo = await call('PUT', '/v1/company/branding/logo', {
      image: Buffer.from(LOGO_SVG).toString('base64'),
    });
    assert.equal(logo.status, 200, logo.text);
    browser = await launchChromium();
    phone = await browser.newContext({ ...PHONE, locale: 'en-GB' });
    await phone.addInitScript(NDEF_READER_STAND_IN);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await smtp?.close();
  });

  test('the brand’s page: its logo and colours, its name, what the owner can do, the verdict first', async () => {
    const page = await pages.open(phone, pagePath(tokenId));
    assert.equal(await page.textContent('#brand-name'), 'Maison Lumen');
    assert.equal(await page.getAttribute('#brand-logo', 'alt'), 'Maison Lumen logo');
    assert.ok(
      await page.evaluate('document.getElementById("brand-logo").naturalWidth > 0'),
      'the logo loads',
    );
    const header = await page.$eval('.masthead', (el: Element) => {
      const style = getComputedStyle(el);
      return [style.backgroundColor, style.color];
    });
    assert.deepEqual(header, ['rgb(27, 42, 74)', 'rgb(255, 255, 255)']);
    assert.equal(
      await page.$eval('#care-link', (a: Element) => getComputedStyle(a).color),
      'rgb(138, 59, 18)',
      'links in the brand’s colour',
    );
    assert.equal(await page.getAttribute('#care-link', 'href'), 'https://lumen.example/care');
    assert.match((await page.textContent('#care-text'))!, /Wash at 30/);
    assert.match((await page.textContent('#recycling'))!, /0\.001 ETH/, 'the deposit recycling releases');
    assert.equal(await page.getAttribute('#contact-email', 'href'), 'mailto:service@lumen.example');
    const verdictTop = (await page.locator('#verdict').boundingBox())!.y;
    assert.ok(verdictTop < 844 / 2, 'the verdict is the first thing seen');
    await pages.check(page, 'brand-phone');
    assert.deepEqual(pages.problems, []);
  });

  test('in German (the browser’s language) and in French (the switch): country, materials, dates localised', async () => {
    const german = await browser.newContext({ ...PHONE, locale: 'de-DE' });
    try {
      const page = await pages.open(german, pagePath(tokenId));
      assert.equal(await page.getAttribute('html', 'lang'), 'de');
      assert.equal(await page.textContent('#product-title'), 'Trail-Jacke', 'the brand’s German name');
      assert.equal(await page.textContent('#verdict-title'), 'Registrierter Pass');
      assert.equal(await page.textContent('#origin'), 'Portugal');
      assert.match(
        (await page.textContent('#product'))!,
        /20457 Hamburg, Deutschland/,
        'the maker’s country',
      );
      const materials = (await page.locator('#materials li').allTextContents()).map((t) =>
        t.replace(/\s/g, ' '),
      );
      assert.deepEqual(materials, ['Baumwolle: 62 %', 'Merinowolle: 30 %', 'Elasthan: 8 %']);
      assert.match((await page.textContent('#care-text'))!, /Bei 30 °C waschen/);
      assert.match((await page.textContent('#verdict-time'))!, /Ausgestellt am \d+\. \w+ \d{4}/);
      await pages.check(page, 'german-phone');

      // The switch: a link per language, the choice kept by the page's own links.
      await page.click('#lang-switch summary');
      await page.click('#lang-switch a[lang="fr"]');
      await page.waitForURL(/lang=fr/);
      assert.equal(await page.getAttribute('html', 'lang'), 'fr');
      assert.equal(await page.textContent('#product-title'), 'Trail Jacket', 'no French name: the default');
      assert.match((await page.textContent('#texts-language'))!, /en anglais, pas en français/);
      assert.equal(await page.getAttribute('#product-title', 'lang'), 'en');
      assert.equal(await page.textContent('#origin'), 'Portugal');
      const french = (await page.locator('#materials li').allTextContents()).map((t) =>
        t.replace(/\s/g, ' '),
      );
      assert.deepEqual(french, ['Coton : 62 %', 'Laine mérinos : 30 %', 'Élasthanne : 8 %']);
      assert.match((await page.textContent('.facts'))!, /Pays d’origine/);
      assert.match((await page.textContent('#product'))!, /20457 Hamburg, Allemagne/);
      await pages.check(page, 'french-phone');
      assert.deepEqual(pages.problems, []);
    } finally {
      await german.close();
    }
  });

  test('a buyer claims ownership from the page: signs in, taps the tag, the item is theirs', async () => {
    await personToken(stack.api, smtp, BUYER);
    const released = await call('POST', '/v1/dpp/release', {
      tokenId,
      price: { amount: 12900, currency: 'EUR' },
      buyerEmail: BUYER,
    });
    assert.equal(released.status, 201, released.text);
    const buyerWallet = (await stack.api.call('GET', `/v1/dpp/resales/${tokenId}`, { key: brand.testKey }))
      .body.buyerWallet as string;
    const paid = await postStripeEvent(
      stack.api,
      paymentSucceeded('evt_lumen_paid', { tokenId, buyerWallet, resaleId: released.body.resaleId }),
    );
    assert.equal(paid.status, 200, paid.text);
    await waitFor(
      'buyer authorized',
      async () => (await call('GET', `/v1/dpp/resales/${tokenId}`)).body,
      (body) => body.status === 'AWAITING_CLAIM',
    );

    const page = await pages.open(phone, pagePath(tokenId));
    assert.equal(
      await page.isVisible('#action-claim'),
      true,
      'the claim is offered while the sale waits for it',
    );
    await page.fill('#claim-email', BUYER);
    await page.fill('#claim-password', PERSON_PASSWORD);
    await pages.check(page, 'claim-phone');
    await page.click('#claim');
    await page.waitForFunction(() => document.getElementById('claim-status')?.textContent?.includes('hold'));
    const tag = `${stack.api.config.publicBaseUrl}/01/${GTIN}/21/${tokenId}?${tapQuery(chipUid, 7)}`;
    await page.evaluate((url) => window.__nfc.read(url), tag);
    await page.waitForFunction(
      () => document.getElementById('action-claim')?.dataset.claimed === 'true',
      undefined,
      { timeout: 60_000 },
    );
    assert.match((await page.textContent('#claim-status'))!, /this item is now yours/);
    const resale = (await call('GET', `/v1/dpp/resales/${tokenId}`)).body;
    assert.equal(resale.status, 'CLAIMED');
    await page.screenshot({ path: new URL('claimed-phone.png', VERIFY_SHOTS).pathname, fullPage: true });
    await page.reload();
    assert.equal(await page.locator('#action-claim').count(), 0, 'claimed: no claim offered any more');
    assert.deepEqual(pages.problems, []);
  }, 120_000);

  test('a revoked and a recycled passport say what that means for the holder', async () => {
    const revokedId = await enrollAndMint(call, '04C1D2E3F4A502', FULL_PRODUCT);
    const revoked = await call('POST', '/v1/dpp/revoke', { tokenId: revokedId, reason: 'Reported stolen' });
    assert.equal(revoked.status, 200, revoked.text);
    const revokedPage = await pages.open(phone, pagePath(revokedId));
    assert.equal(await revokedPage.textContent('#verdict-title'), 'Passport revoked');
    assert.match((await revokedPage.textContent('#status-notice'))!, /Reported stolen/);
    assert.match((await revokedPage.textContent('#status-meaning'))!, /no longer proves .* genuine/);
    assert.equal(await revokedPage.locator('#action-claim, #action-resale, #recycling').count(), 0);
    assert.equal(await revokedPage.isVisible('#action-contact'), true, 'the brand can still be reached');
    assert.equal(
      await revokedPage.locator('#scan-section, #nfc-unavailable').count(),
      0,
      'no tag check offered',
    );
    await pages.check(revokedPage, 'revoked-phone');

    const recycledId = await enrollAndMint(call, '04C1D2E3F4A503', FULL_PRODUCT);
    const recycled = await call('POST', '/v1/iaas/log-recycle', { tokenId: recycledId, ...RECYCLING_SITE });
    assert.equal(recycled.status, 201, recycled.text);
    const recycledPage = await pages.open(phone, pagePath(recycledId));
    assert.equal(await recycledPage.textContent('#verdict-title'), 'Recycled product');
    assert.match((await recycledPage.textContent('#status-meaning'))!, /deposit was paid to the recycler/);
    assert.match((await recycledPage.textContent('#recycling'))!, /deposit of 0\.001 ETH was released/);
    assert.match((await recycledPage.textContent('#provenance'))!, /Hamburg Recycling Hub/);
    await pages.check(recycledPage, 'recycled-phone');
    assert.deepEqual(pages.problems, []);
  });

  test('a desktop browser without Web NFC: no scan card, one line says to tap the tag with a phone', async () => {
    const desktop = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      extraHTTPHeaders: { 'x-service-env': 'test' },
    });
    try {
      const page = await pages.open(desktop, pagePath(tokenId, '?lang=en'));
      assert.equal(await page.evaluate('"NDEFReader" in window'), false);
      // Keyboard: the skip link first, then the language switch.
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate('document.activeElement.className'), 'skip-link');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate('document.activeElement.parentElement.id'), 'lang-switch');
      assert.equal(await page.isVisible('#scan-section'), false, 'no card for what cannot work here');
      assert.match((await page.textContent('#nfc-unavailable'))!, /tap its NFC tag with your phone/);
      assert.equal(await page.isVisible('#chain-proof .chain__steps'), false, 'the chain’s proof folded');
      await page.click('#chain-proof summary');
      assert.equal(await page.isVisible('#chain-proof .chain__steps'), true);
      assert.match(
        (await page.getAttribute('#mint-transaction a.explorer', 'href'))!,
        /^https:\/\/explorer\.example\/tx\/0x[0-9a-f]{64}$/,
        'the block explorer one click away (a link, nothing loaded from it)',
      );
      await pages.check(page, 'desktop-no-nfc');
      // Zoomed to 200 %: the same page in half the width, nothing cut off.
      await page.setViewportSize({ width: 640, height: 800 });
      await pages.check(page, 'desktop-zoom-200');
      assert.deepEqual(pages.problems, []);
    } finally {
      await desktop.close();
    }
  });
});
