import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { devTap } from '../../scripts/dev/tap.ts';
import { freePort } from '../../src/platform/runtime/ports.ts';
import type { TestTenant } from '../support/api.ts';
import { launchChromium } from '../support/browser.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { FULL_PRODUCT, GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

describe('test passports have /test addresses that open in a plain browser (no custom header)', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let browser: Browser;
  let tokenId: string;
  let base: string;
  const chipUid = '04A7E57000AD01';

  /** A request as a browser or a phone makes it: no API key, no x-service-env. */
  const plain = (path: string, accept = 'application/json') =>
    stack.api.call('GET', path, { env: null, headers: { accept } });

  beforeAll(async () => {
    const port = await freePort();
    stack = await startTestStack({
      apiEnv: { PORT: String(port), PUBLIC_BASE_URL: `http://localhost:${port}` },
    });
    base = stack.api.config.publicBaseUrl;
    tenant = await stack.api.createTenant('Test Prefix Brand');
    tokenId = await enrollAndMint(
      (method, path, body) =>
        stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) }),
      chipUid,
      FULL_PRODUCT,
    );
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  test('every link the linkset hands out is under /test and answers without a header', async () => {
    const linkset = await plain(`/test/01/${GTIN}/21/${tokenId}?linkType=linkset`);
    assert.equal(linkset.status, 200, linkset.text);
    const [entry] = linkset.body.linkset as Json[];
    assert.equal(entry.anchor, `${base}/test/01/${GTIN}/21/${tokenId}`);
    const hrefs = Object.entries(entry)
      .filter(([key]) => key.startsWith('https://gs1.org/voc/'))
      .flatMap(([, targets]) => (targets as { href: string }[]).map((t) => t.href));
    assert.ok(hrefs.length >= 3, JSON.stringify(entry));
    for (const href of hrefs) {
      if (!href.startsWith(base)) continue; // the brand's own documents (the declaration of conformity)
      assert.ok(href.startsWith(`${base}/test/`), href);
      const answer = await plain(href.slice(base.length), 'text/html');
      assert.ok([200, 307].includes(answer.status), `${href}: ${answer.status} ${answer.text.slice(0, 200)}`);
    }
  });

  test('the credential and the public document name the /test Digital Link', async () => {
    const vc = await plain(`/test/01/${GTIN}/21/${tokenId}?format=vc`);
    assert.equal(vc.status, 200, vc.text);
    assert.equal(vc.body.credentialSubject.id, `${base}/test/01/${GTIN}/21/${tokenId}`);
    const pub = await plain(`/test/01/${GTIN}/21/${tokenId}?format=public`);
    assert.equal(pub.body['@id'], `${base}/test/01/${GTIN}/21/${tokenId}`);
  });

  test('live and test stay apart: a live address never shows it; a contradicting header is refused', async () => {
    const live = await plain(`/01/${GTIN}/21/${tokenId}?format=public`);
    assert.equal(live.status, 404, 'the live address of a test passport');
    const contradicted = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, {
      env: 'live',
    });
    assert.equal(contradicted.status, 400);
    assert.equal(contradicted.body.code, 'environment_mismatch');
    const liveTapEndpoint = await stack.api.call('POST', '/verify/tap', {
      env: null,
      body: { url: `${base}/test/01/${GTIN}/21/${tokenId}?picc_data=00&cmac=00` },
    });
    assert.equal(liveTapEndpoint.status, 400, 'a test tag is never verified as a live passport');
  });

  test('in Chromium: a test tap opens the verification page with its verdict and the test banner', async () => {
    const { url } = await devTap({
      chipUid,
      counterFile: `${stack.api.config.ipfs.storeDir}/taps.json`,
      counter: 2,
      passport: { baseUrl: base, environment: 'test', gtin: GTIN, serial: tokenId },
    });
    const page = await (await browser.newContext()).newPage();
    const response = await page.goto(url!);
    assert.equal(response?.status(), 200);
    assert.match(page.url(), new RegExp(`^${base}/test/verify/01/${GTIN}/21/${tokenId}\\?tap=`));
    await page.getByText('Test environment: this passport does not describe a real product.').waitFor();
    assert.match((await page.locator('main').textContent()) ?? '', /Authentic/i);
    const vcLink = page.getByRole('link', { name: /Verifiable credential/ });
    assert.equal(await vcLink.getAttribute('href'), `${base}/test/01/${GTIN}/21/${tokenId}?format=vc`);
    const credential = await page.request.get((await vcLink.getAttribute('href'))!);
    assert.equal(credential.status(), 200);
  });
});
