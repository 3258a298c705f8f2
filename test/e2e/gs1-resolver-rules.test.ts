import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  checkGs1Linkset,
  checkGs1ResolverDescription,
  checkRefGs1Linkset,
} from '../conformance/support/linkset-schema.ts';
import type { TestTenant } from '../support/api.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { FULL_PRODUCT, GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { publicCall } from './fixtures/public-passport.ts';

/** Issue 41: what GS1's resolver test suite asks of a Digital Link, through HTTP on the real app. */
describe('GS1 Digital Link resolver: default link, syntax errors, key qualifiers, GS1 schemas', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let get: ReturnType<typeof publicCall>;
  let tokenId: string;
  let path: string;
  let base: string;
  let anchor: string;
  let page: string;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.api.createTenant('Acme Apparel');
    get = publicCall(stack.api);
    tokenId = await enrollAndMint(
      (method, p, body) =>
        stack.api.call(method, p, { key: tenant.testKey, ...(body === undefined ? {} : { body }) }),
      '04A1B2C3D4E641',
      FULL_PRODUCT,
    );
    path = `/01/${GTIN}/21/${tokenId}`;
    base = `${stack.api.config.publicBaseUrl}/test`;
    anchor = `${base}${path}`;
    page = `${base}/verify/01/${GTIN}/21/${tokenId}`;
  });
  afterAll(() => stack.close());

  test('the default link: no Accept, */* and text/html are 307 to the linkset’s gs1:defaultLink, absolute, query passed on', async () => {
    const linkset = await get(`${path}?linkType=linkset`, { accept: 'application/linkset+json' });
    const defaults = linkset.body.linkset[0]['https://gs1.org/voc/defaultLink'];
    assert.equal(defaults.length, 1);
    assert.equal(defaults[0].href, page);
    for (const accept of [undefined, '*/*', 'text/html']) {
      const answer = await get(`${path}?foo=bar`, accept ? { accept } : {});
      assert.equal(answer.status, 307, String(accept));
      assert.equal(answer.headers.get('location'), `${page}?foo=bar`, String(accept));
      assert.match(answer.headers.get('link')!, /rel="linkset"/, 'the linkset is named when redirecting');
      assert.doesNotMatch(answer.headers.get('link')!, /rel="gs1:/, 'no legacy link-type headers');
    }
    // The machine representations stay one Accept, format or linkType away.
    const asked = [
      ['application/json', 200, /^application\/json/],
      ['application/ld+json', 200, /^application\/ld\+json/],
      ['application/linkset+json', 200, /^application\/linkset\+json/],
    ] as const;
    for (const [accept, status, type] of asked) {
      const answer = await get(path, { accept });
      assert.equal(answer.status, status, accept);
      assert.match(answer.headers.get('content-type')!, type, accept);
    }
    assert.equal((await get(`${path}?format=public`, { accept: '*/*' })).status, 200);
    const all = await get(`${path}?linkType=all`, { accept: 'application/linkset+json' });
    assert.equal(all.status, 200, 'linkType=all with Accept: application/linkset+json is not redirected');
    const dpp = await get(`${path}?linkType=gs1:dpp&foo=bar`, { accept: '*/*' });
    assert.equal(dpp.headers.get('location'), `${anchor}?format=vc&foo=bar`);
    assert.equal((await get(`${path}?linkType=gs1:nosuchlt`, { accept: '*/*' })).status, 404);
  });

  test('several links of one type: linkType=gs1:dpp goes to the one whose type Accept names', async () => {
    const linkset = await get(`${path}?linkType=linkset`, { accept: 'application/linkset+json' });
    const targets = linkset.body.linkset[0]['https://gs1.org/voc/dpp'] as { href: string; type: string }[];
    assert.deepEqual(
      targets.map((target) => target.type),
      ['application/ld+json', 'application/ld+json', 'application/vc+jwt'],
    );
    const jwt = await get(`${path}?linkType=gs1:dpp&foo=bar`, { accept: 'application/vc+jwt' });
    assert.equal(jwt.status, 307);
    assert.equal(jwt.headers.get('location'), `${anchor}?format=vc-jwt&foo=bar`);
    assert.match(jwt.headers.get('link')!, /rel="linkset"/);
    for (const accept of ['*/*', 'application/ld+json', 'text/html']) {
      const first = await get(`${path}?linkType=dpp`, { accept });
      assert.equal(first.headers.get('location'), `${anchor}?format=vc`, accept);
    }
  });

  test('a trailing slash answers as without it', async () => {
    const without = await get(path, { accept: '*/*' });
    const withSlash = await get(`${path}/`, { accept: '*/*' });
    assert.equal(withSlash.status, without.status);
    assert.equal(withSlash.headers.get('location'), without.headers.get('location'));
  });

  test('a malformed Digital Link is 400 naming the segment at fault; never 404', async () => {
    const malformed: [string, string][] = [
      [`${path}/foo`, 'foo'],
      [`/01/${GTIN}/99/1`, '99'],
      [`/01/${GTIN}/21/${tokenId}/10/LOT-7`, '10'],
      [`/01/${GTIN}/10/LOT-7/22/V1/21/${tokenId}`, '22'],
      [`/01/${GTIN}/21/${tokenId}/21/${tokenId}`, '21'],
      [`/01/${GTIN}/21/a%20b/foo`, 'a%20b'],
      [`/01/${GTIN}/22/${'v'.repeat(21)}/21/1/x`, 'v'.repeat(21)],
      [`/01/${GTIN}/10`, '10'],
    ];
    for (const [address, segment] of malformed) {
      const answer = await get(address, { accept: '*/*' });
      assert.equal(answer.status, 400, `${address}: ${answer.text}`);
      assert.match(answer.headers.get('content-type')!, /application\/problem\+json/);
      assert.equal(answer.body.code, 'invalid_digital_link', address);
      assert.equal(answer.body.segment, segment, address);
      assert.ok(answer.body.detail.length > 0);
    }
    // Wrong characters, a wrong check digit and an over-long value in a documented shape: 400 naming the parameter.
    for (const [address, parameter] of [
      [`/01/${GTIN}/21/${encodeURIComponent('a b')}`, 'path.serial'],
      [`/01/00012345600013/21/${tokenId}`, 'path.gtin'],
      [`/01/${GTIN}/22/${'v'.repeat(21)}`, 'path.cpv'],
    ]) {
      const answer = await get(address!, { accept: '*/*' });
      assert.equal(answer.status, 400, address);
      assert.equal(answer.body.errors[0].path, parameter, address);
    }
  });

  test('every qualifier GS1 allows after AI 01 is routed: a serial names the item (rel=canonical); other levels 404 with a hint', async () => {
    for (const address of [
      `/01/${GTIN}/10/ANY-LOT/21/${tokenId}`,
      `/01/${GTIN}/22/V1/21/${tokenId}`,
      `/01/${GTIN}/22/V1/10/ANY-LOT/21/${tokenId}`,
      `/01/${GTIN.slice(1)}/21/${tokenId}`,
    ]) {
      const answer = await get(`${address}?format=public`);
      assert.equal(answer.status, 200, `${address}: ${answer.text}`);
      assert.equal(answer.body['gs1:serialNumber'], tokenId);
      assert.match(answer.headers.get('link')!, new RegExp(`<${anchor}>; rel="canonical"`), address);
      const browser = await get(address, { accept: '*/*' });
      assert.equal(browser.headers.get('location'), page, `${address}: the item's default link`);
    }
    assert.doesNotMatch((await get(`${path}?format=public`)).headers.get('link')!, /canonical/);
    for (const [address, level] of [
      [`/01/${GTIN}`, 'model'],
      [`/01/${GTIN}/10/KL8G`, 'batch'],
      [`/01/${GTIN}/22/V1`, 'variant'],
      [`/01/${GTIN}/22/V1/10/KL8G`, 'batch'],
      [`/01/${GTIN}/`, 'model'],
    ]) {
      const answer = await get(address!, { accept: '*/*' });
      assert.equal(answer.status, 404, `${address}: ${answer.text}`);
      assert.equal(answer.body.code, 'passport_not_found');
      assert.equal(answer.body.level, level, address);
      assert.equal(answer.body.itemAddressTemplate, `${base}/01/${GTIN}/21/{serial}`);
      assert.equal(answer.headers.get('access-control-allow-origin'), '*');
    }
  });

  test('/.well-known/gs1resolver and the linkset validate against GS1’s own schemas', async () => {
    const description = await get('/.well-known/gs1resolver', { accept: 'application/json' });
    const verdict = checkGs1ResolverDescription(description.body);
    assert.equal(verdict.valid, true, JSON.stringify(verdict.errors));
    assert.equal(checkGs1ResolverDescription({ name: 'no root' }).valid, false, 'the schema is not a stamp');

    const linkset = (await get(`${path}?linkType=linkset`, { accept: 'application/linkset+json' })).body;
    for (const check of [checkGs1Linkset, checkRefGs1Linkset]) {
      const result = check(linkset);
      assert.equal(result.valid, true, JSON.stringify(result.errors));
    }
    const context = linkset.linkset[0];
    assert.equal(typeof context.itemDescription, 'string');
    assert.ok(context.dpp.length > 0, 'the bare IANA dpp relation passes both');
    // GS1's suite schema (github.com/gs1/linkset) reads any other lower-case member as a relation: a
    // `description` string is refused there, accepted by the newer ref.gs1.org schema. So the linkset keeps
    // itemDescription only.
    assert.equal(context.description, undefined);
    const withDescription = structuredClone(linkset);
    withDescription.linkset[0].description = context.itemDescription;
    assert.equal(checkGs1Linkset(withDescription).valid, false);
    assert.equal(checkRefGs1Linkset(withDescription).valid, true);
  });
});
