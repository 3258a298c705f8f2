import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { FULL_PRODUCT, GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

/** The smallest PNG: one transparent pixel. */
const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const svg = (body: string) =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">${body}</svg>`).toString('base64');

/**
 * Issue 37: the branding of a company's verification pages through its API — colours checked for contrast, the
 * logo's type read from its bytes (unsafe SVG refused), served from our origin — and the page that shows it, in
 * the buyer's language, varying by Accept-Language.
 */
describe('branding of the verification page and its languages', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let tokenId: string;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: brand.testKey, ...(body === undefined ? {} : { body }) });
  const page = (query = '', headers: Record<string, string> = {}) =>
    stack.api.call('GET', `/test/verify/01/${GTIN}/21/${tokenId}${query}`, { env: null, headers });

  beforeAll(async () => {
    stack = await startTestStack();
    brand = await stack.api.createTenant('Maison Lumen');
    tokenId = await enrollAndMint(call, '04B1A2B3C4D501', FULL_PRODUCT);
  });
  afterAll(async () => {
    await stack?.close();
  });

  test('colours: a link colour below 4.5:1 on white is refused with a colour that passes; the header text follows', async () => {
    const refused = await call('PATCH', '/v1/company/branding', { linkColor: '#7fb2ff' });
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.body.code, 'colour_contrast');
    const suggested = /(#[0-9a-f]{6}) is the nearest/.exec(refused.body.detail)?.[1];
    assert.ok(suggested, refused.body.detail);
    const saved = await call('PATCH', '/v1/company/branding', {
      displayName: 'Maison Lumen',
      brandColor: '#F4D03F',
      linkColor: suggested,
      defaultLanguage: 'fr',
      careUrl: 'https://lumen.example/care',
      contactEmail: 'service@lumen.example',
    });
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.body.branding.brandColor, '#f4d03f');
    assert.equal(saved.body.branding.defaultLanguage, 'fr');
    assert.equal((await call('GET', '/v1/company/branding')).body.branding.displayName, 'Maison Lumen');

    const html = (await page()).text;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1];
    assert.ok(style, 'the page’s styles inline, with the brand’s colours');
    assert.match(style!, /--brand: #f4d03f; --on-brand: #1a1a1a;/, 'dark text on a light brand colour');
    assert.match(style!, new RegExp(`--link: ${suggested}`));
    assert.match(html, /id="brand-name">Maison Lumen</);
  });

  test('logo: PNG stored and served by us; other types and unsafe SVG refused; plain SVG accepted', async () => {
    for (const [image, code] of [
      [Buffer.from('GIF89a....').toString('base64'), 'logo_type'],
      [svg('<script>alert(1)</script>'), 'logo_unsafe_svg'],
      [svg('<image href="https://tracker.example/x.png"/>'), 'logo_unsafe_svg'],
      [svg('<rect width="10" height="10" onload="x()"/>'), 'logo_unsafe_svg'],
      [Buffer.alloc(300 * 1024, 0x89).toString('base64'), 'logo_too_large'],
    ] as const) {
      const refused = await call('PUT', '/v1/company/branding/logo', { image });
      assert.ok([400, 413].includes(refused.status), `${code}: ${refused.status} ${refused.text}`);
      if (refused.status === 400) assert.equal(refused.body.code, code);
    }
    const plainSvg = await call('PUT', '/v1/company/branding/logo', {
      image: svg('<defs><linearGradient id="g"/></defs><rect width="10" height="10" fill="url(#g)"/>'),
    });
    assert.equal(plainSvg.status, 200, plainSvg.text);

    const stored = await call('PUT', '/v1/company/branding/logo', { image: PIXEL_PNG });
    assert.equal(stored.status, 200, stored.text);
    const logoUrl: string = stored.body.branding.logoUrl;
    assert.match(logoUrl, /^\/verify\/brand\/logo\/[0-9a-f]{64}$/);
    const served = await stack.api.call('GET', logoUrl, { env: null });
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/png');
    assert.match(served.headers.get('cache-control')!, /immutable/);
    assert.match(
      (await page()).text,
      new RegExp(`<img class="masthead__logo" id="brand-logo" src="${logoUrl}" alt="Maison Lumen logo"`),
    );
  });

  test('languages: Accept-Language or ?lang=; Vary names it; each language its own ETag', async () => {
    const german = await page('', { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' });
    assert.match(german.text, /<html lang="de">/);
    assert.match(german.text, /Herkunftsland/);
    assert.match(german.text, /Portugal/);
    assert.match(german.text, /Baumwolle/);
    assert.match(german.headers.get('vary')!, /Accept-Language/);
    const french = await page('?lang=fr', { 'accept-language': 'de' });
    assert.match(french.text, /<html lang="fr">/);
    assert.match(french.text, /Pays d’origine/);
    assert.notEqual(german.headers.get('etag'), french.headers.get('etag'));
    const again = await page('', {
      'accept-language': 'de',
      'if-none-match': german.headers.get('etag')!,
    });
    assert.equal(again.status, 304, 'the same language again: not modified');
    const english = await page('', { 'accept-language': 'en', 'if-none-match': german.headers.get('etag')! });
    assert.equal(english.status, 200, 'another language is another representation');
    assert.match(french.text, /href="[^"]*\?lang=de" lang="de"/, 'the switch links keep the choice');
  });
});
