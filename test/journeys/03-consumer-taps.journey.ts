import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { localDocumentLoader, verifyWithDigitalBazaar } from '../support/credential-verifier.ts';
import { cliTap, stack } from './client.ts';
import { JOURNEY_GTIN, recall } from './shared.ts';

type Passports = { tokenId: string; chipUid: string }[];

/** What a phone does with a tag's URL: opens it, no custom header, following redirects to the page. */
async function open(url: string) {
  const response = await fetch(url, { headers: { accept: 'text/html' }, redirect: 'follow' });
  return { status: response.status, url: response.url, html: await response.text() };
}

// A consumer taps a product's tag with a phone: the page says whether it is authentic, and the credential it
// links to is verified by a verifier we did not write. A copied URL is not authentic a second time.
describe('a consumer taps a product', () => {
  test('tap (npm run cli -- tap) → verification page → credential verified independently', async () => {
    const [, passport] = await recall<Passports>('passports');
    const { url } = await cliTap(passport!.chipUid, { gtin: JOURNEY_GTIN, serial: passport!.tokenId });
    assert.ok(url?.startsWith(`${stack().baseUrl}/test/01/${JOURNEY_GTIN}/21/${passport!.tokenId}?`), url);

    const page = await open(url!);
    assert.equal(page.status, 200);
    assert.match(page.url, new RegExp(`/test/verify/01/${JOURNEY_GTIN}/21/${passport!.tokenId}\\?tap=`));
    assert.match(page.html, /Authentic/);
    assert.match(page.html, /Test environment: this passport does not describe a real product/);
    assert.match(page.html, /Port of Hamburg/, 'the provenance timeline');

    const vcHref = /<a href="([^"]+)">Verifiable credential/.exec(page.html)?.[1]?.replaceAll('&amp;', '&');
    assert.ok(vcHref, 'the page links its credential');
    const credential = await (await fetch(vcHref, { headers: { accept: 'application/ld+json' } })).json();
    const loader = await localDocumentLoader({ baseUrl: stack().baseUrl, publicBaseUrl: stack().baseUrl });
    const verified = await verifyWithDigitalBazaar(credential, loader.documentLoader);
    assert.equal(verified.verified, true, JSON.stringify(verified.error ?? verified).slice(0, 2000));

    const copied = await open(url!);
    assert.match(copied.html, /Replayed/, 'the same URL again (a copied tag) is not authentic');
  });
});
