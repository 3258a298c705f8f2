import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { CONFORMITY_URL, FULL_PRODUCT, GTIN } from '../support/fixtures/products.ts';
import { tapQuery } from '../support/fixtures/sun.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { assertResolverHeaders, publicCall, SPEC, sorted } from './fixtures/public-passport.ts';

const aas: typeof import('@aas-core-works/aas-core3.0-typescript') = createRequire(import.meta.url)(
  '@aas-core-works/aas-core3.0-typescript',
);
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe('GS1 Digital Link resolver: /01/{gtin}/21/{serial}', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let other: TestTenant;
  let tokenId: string;
  let path: string;
  let anchor: string;
  const chipUid = '04A1B2C3D4E601';
  const call = (method: string, p: string, body?: unknown) =>
    stack.api.call(method, p, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  let get: ReturnType<typeof publicCall>;

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.api.createTenant('Acme Apparel');
    other = await stack.api.createTenant('Other Brand');
    get = publicCall(stack.api);
    tokenId = await enrollAndMint(call, chipUid, FULL_PRODUCT);
    path = `/01/${GTIN}/21/${tokenId}`;
    anchor = `${stack.api.config.publicBaseUrl}/test${path}`;
    const logged = await call('POST', '/v1/iaas/log-event', {
      tokenId,
      action: 'SHIPPED',
      locationName: 'Port of Hamburg',
      latitude: 53.546,
      longitude: 9.9661,
      metadata: {},
      actorEmail: 'jane.doe@logistics.example.com',
    });
    assert.equal(logged.status, 201, logged.text);
  });
  afterAll(() => stack.close());

  test('format=public: exactly the spec’s members', async () => {
    const answer = await get(`${path}?format=public`);
    assert.equal(answer.status, 200, answer.text);
    assert.match(answer.headers.get('content-type')!, /^application\/json/);
    assertResolverHeaders(answer, anchor);
    assert.equal(answer.headers.get('access-control-allow-origin'), '*');
    const body = answer.body;
    assert.deepEqual(sorted(body), [...SPEC.public].sort());
    assert.deepEqual(sorted(body['idpp:hardware']), [...SPEC.publicHardware].sort());
    assert.equal(body['@id'], anchor);
    assert.equal(body.name, 'Trail Jacket');
    assert.equal(body['gs1:gtin'], GTIN);
    assert.equal(body['gs1:serialNumber'], tokenId);
    assert.equal(body.status, 'ACTIVE');
    assert.equal(body.smartContract, stack.chain.contractAddress);
    assert.deepEqual(body['idpp:hardware'], {
      chipType: 'NTAG 424 DNA',
      status: 'AUTHENTIC',
      verificationCount: 1,
    });
  });

  test('without format, linkType or a machine Accept: 307 to the default link; machines get what Accept asks; format wins', async () => {
    const page = `${stack.api.config.publicBaseUrl}/test/verify/01/${GTIN}/21/${tokenId}`;
    const browser = await get(path, { accept: BROWSER });
    assert.equal(browser.status, 307);
    assert.equal(browser.headers.get('location'), page, 'absolute, as the linkset’s gs1:defaultLink');
    assertResolverHeaders(browser, anchor);

    const vc = await get(path, { accept: 'application/ld+json' });
    assert.equal(vc.status, 200, vc.text);
    assert.match(vc.headers.get('content-type')!, /^application\/ld\+json/);
    assert.deepEqual(vc.body.type, ['VerifiableCredential', 'DigitalProductPassport']);

    const linkset = await get(path, { accept: 'application/linkset+json' });
    assert.match(linkset.headers.get('content-type')!, /^application\/linkset\+json/);
    assert.ok(Array.isArray(linkset.body.linkset));

    // Issue 41 item 1: no Accept and */* answered the public JSON (the defect this used to pin); the default
    // link is what a request naming no representation gets. The public JSON is one Accept away.
    for (const accept of [undefined, '*/*', 'image/png']) {
      const plain = await get(path, accept ? { accept } : {});
      assert.equal(plain.status, 307, `${accept}: ${plain.text}`);
      assert.equal(plain.headers.get('location'), page, String(accept));
    }
    const json = await get(path, { accept: 'application/json' });
    assert.equal(json.status, 200, json.text);
    assert.deepEqual(sorted(json.body), [...SPEC.public].sort());
    for (const accept of [BROWSER, '*/*']) {
      const passedOn = await get(`${path}?17=271231&utm_source=label`, { accept });
      assert.equal(
        passedOn.headers.get('location'),
        `${page}?17=271231&utm_source=label`,
        'other query parameters are passed on',
      );
    }
    assert.equal((await get(`${path}/?format=public`)).status, 200, 'a trailing slash is tolerated');
    const forced = await get(`${path}?format=public`, { accept: BROWSER });
    assert.equal(forced.status, 200, 'format wins over a browser’s Accept');
    assert.equal(
      (await get(`${path}?format=linkset`, { accept: 'application/ld+json' })).body.linkset.length,
      1,
    );
  });

  test('GTIN-8/12/13 forms are normalised; a wrong check digit is 400; unknown passports 404', async () => {
    for (const gtin of ['0012345600012', '012345600012']) {
      const answer = await get(`/01/${gtin}/21/${tokenId}?format=public`);
      assert.equal(answer.status, 200, `${gtin}: ${answer.text}`);
      assert.equal(answer.body['gs1:gtin'], GTIN);
    }
    const bad = await get(`/01/00012345600013/21/${tokenId}`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'validation_failed');
    assert.equal(bad.body.errors[0].path, 'path.gtin');
    assert.equal((await get('/01/1234567/21/1')).status, 400, 'seven digits');
    for (const unknown of [
      `/01/${GTIN}/21/999999`,
      `/01/09506000134352/21/${tokenId}`,
      `/01/${GTIN}/21/ABC`,
    ]) {
      const answer = await get(unknown);
      assert.equal(answer.status, 404, unknown);
      assert.equal(answer.body.code, 'passport_not_found');
      assert.match(answer.headers.get('content-type')!, /application\/problem\+json/);
    }
    // A phone sends no x-service-env: the live environment, where this test passport does not exist.
    const live = await stack.api.call('GET', `${path}?format=public`, { env: null });
    assert.equal(live.status, 404);
  });

  test('the batch path resolves the item its serial names, whatever the lot, with rel=canonical', async () => {
    const withBatch = await get(
      `/01/${GTIN}/10/${encodeURIComponent('LOT-7/B')}/21/${tokenId}?format=public`,
    );
    assert.equal(withBatch.status, 200, withBatch.text);
    assert.equal(withBatch.body['gs1:serialNumber'], tokenId);
    // Issue 41 item 3: another lot answered 404 (the defect this used to pin): the serial names the item.
    const otherLot = await get(`/01/${GTIN}/10/LOT-8/21/${tokenId}?format=public`);
    assert.equal(otherLot.status, 200, otherLot.text);
    assert.equal(otherLot.body['gs1:serialNumber'], tokenId);
    assert.match(otherLot.headers.get('link')!, new RegExp(`<${anchor}>; rel="canonical"`));
    assert.equal((await get(`/01/${GTIN}/10/${'x'.repeat(21)}/21/${tokenId}`)).status, 400);
  });

  test('HEAD answers every representation’s headers without a body; ETag gives 304', async () => {
    for (const format of ['public', 'vc', 'aas', 'linkset']) {
      const got = await get(`${path}?format=${format}`);
      const head = await get(`${path}?format=${format}`, {}, 'HEAD');
      assert.equal(head.status, 200, format);
      assert.equal(head.text, '');
      assert.equal(head.headers.get('etag'), got.headers.get('etag'), format);
      assert.equal(head.headers.get('content-type'), got.headers.get('content-type'), format);
      const again = await get(`${path}?format=${format}`, { 'if-none-match': got.headers.get('etag')! });
      assert.equal(again.status, 304, format);
    }
    assert.equal((await get(path, { accept: BROWSER }, 'HEAD')).status, 307);
  });

  test('format=aas: the same shell as /v1/aas/resolve, each submodel valid under aas-core3.0', async () => {
    const answer = await get(`${path}?format=aas`);
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.body, (await call('GET', `/v1/aas/resolve/${tokenId}`)).body);
    const shell = answer.body;
    assert.equal(shell.idType, 'IRI');
    assert.equal(shell.modelType, 'AssetAdministrationShell');
    assert.deepEqual(
      shell.assetInformation.specificAssetIds.map((s: { name: string }) => s.name),
      ['GTIN', 'SerialNumber'],
    );
    assert.deepEqual(
      shell.submodels.map((s: { idShort: string }) => s.idShort),
      ['DigitalNameplate', 'SustainabilityData', 'Security'],
    );
    for (const submodel of shell.submodels) {
      const parsed = aas.jsonization.submodelFromJsonable(submodel);
      assert.equal(parsed.error, null, submodel.idShort);
      assert.deepEqual([...aas.verification.verify(parsed.mustValue())], [], submodel.idShort);
      assert.ok(submodel.semanticId.keys[0].value);
    }
    assert.ok(shell.extensions.length > 0);
    // Its flat nameplate does not claim the IDTA template (whose mandatory collections it cannot hold) and
    // still says when the product was made.
    const nameplate = shell.submodels[0];
    assert.doesNotMatch(nameplate.semanticId.keys[0].value, /admin-shell\.io\/(zvei|idta)\/nameplate/);
    const year = nameplate.submodelElements.find(
      (e: { idShort: string }) => e.idShort === 'YearOfConstruction',
    );
    assert.equal(year.semanticId.keys[0].value, '0173-1#02-AAP906#001');
    assert.equal(year.value, String(new Date().getUTCFullYear()));
  });

  test('format=erp: the spec’s members for the owning company’s key only', async () => {
    assert.equal((await get(`${path}?format=erp`)).status, 401);
    const foreign = await stack.api.call('GET', `${path}?format=erp`, { key: other.testKey });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.body.code, 'not_passport_owner');
    const wrongEnv = await stack.api.call('GET', `${path}?format=erp`, { key: tenant.liveKey });
    assert.equal(wrongEnv.status, 403);
    assert.equal(wrongEnv.body.code, 'environment_mismatch');

    const answer = await call('GET', `${path}?format=erp`);
    assert.equal(answer.status, 200, answer.text);
    assert.equal(
      answer.headers.get('access-control-allow-origin'),
      null,
      'ERP data is not offered cross-origin',
    );
    assert.match(answer.headers.get('vary')!, /Authorization/);
    assert.match(answer.headers.get('cache-control')!, /private/);
    const erp = answer.body;
    assert.deepEqual(sorted(erp), [...SPEC.erp].sort());
    assert.equal(erp.context, 'ERP_INTEGRATION');
    assert.deepEqual(sorted(erp.integrationInfo), [...SPEC.integrationInfo].sort());
    assert.deepEqual(sorted(erp.productData), [...SPEC.dppToken].sort());
    assert.deepEqual(sorted(erp.productData.metadataCache), [...SPEC.metadataCache].sort());
    assert.deepEqual(sorted(erp.productData.metadataCache.nfcData), ['cmac', 'piccData', 'urlPath']);
    assert.equal(erp.productData.tokenId, tokenId);
    assert.equal(erp.productData.lockedDeposit, '0.001');
    assert.equal(erp.productData.environment, 'test');
    assert.deepEqual(sorted(erp.chainOfCustody), [...SPEC.chainOfCustody].sort());
    assert.equal(erp.chainOfCustody.totalEvents, erp.events.length);
    assert.deepEqual(
      erp.events.map((e: { action: string }) => e.action),
      ['MINT', 'SHIPPED'],
    );
    for (const event of erp.events) {
      for (const field of SPEC.event) assert.ok(field in event, `event.${field}`);
    }
    assert.equal(erp.events[1].actorEmail, 'j***@l***.com', 'masked');
    assert.deepEqual(sorted(erp.hardware), [...SPEC.erpHardware].sort());
    assert.deepEqual(erp.hardware, {
      chipUid,
      chipType: 'NTAG 424 DNA',
      status: 'AUTHENTIC',
      verified: true,
      counter: erp.hardware.counter,
    });
    assert.ok(Number.isInteger(erp.hardware.counter) && erp.hardware.counter >= 1);
    assert.ok(['ANCHORED', 'ANCHORING'].includes(erp.integrationInfo.dataIntegrity));
  });

  test('linkset: RFC 9264 in GS1’s form; linkType picks one link; /.well-known/gs1resolver', async () => {
    const answer = await get(`${path}?linkType=all`);
    assert.equal(answer.status, 200, answer.text);
    assert.match(answer.headers.get('link')!, /rel="http:\/\/www\.w3\.org\/ns\/json-ld#context"/);
    const { linkset } = answer.body;
    assert.equal(linkset.length, 1);
    const [entry] = linkset;
    assert.equal(entry.anchor, anchor);
    assert.equal(entry.itemDescription, 'Trail Jacket');
    const relations = Object.keys(entry).filter((key) => key !== 'anchor' && key !== 'itemDescription');
    assert.deepEqual(relations.sort(), [
      'dpp',
      'https://gs1.org/voc/certificationInfo',
      'https://gs1.org/voc/defaultLink',
      'https://gs1.org/voc/dpp',
      'https://gs1.org/voc/pip',
      'https://gs1.org/voc/recyclingInfo',
      'https://gs1.org/voc/sustainabilityInfo',
      'https://gs1.org/voc/verificationService',
    ]);
    for (const relation of relations) {
      for (const target of entry[relation]) {
        assert.match(target.href, /^https?:\/\//, relation);
        assert.equal(typeof target.title, 'string', relation);
        assert.ok(target.title.length > 0);
        if (target.type !== undefined) assert.match(target.type, /^\w+\/[-+.\w]+$/);
        for (const lang of target.hreflang ?? []) assert.match(lang, /^[A-Za-z]{2}(-[A-Za-z]{2})?$/);
        assert.deepEqual(
          Object.keys(target).filter((k) => !['href', 'title', 'type', 'hreflang'].includes(k)),
          [],
        );
      }
    }
    assert.equal(entry['https://gs1.org/voc/dpp'][0].href, `${anchor}?format=vc`);
    assert.equal(entry['https://gs1.org/voc/dpp'][0].type, 'application/ld+json');
    assert.equal(entry['https://gs1.org/voc/certificationInfo'][0].href, CONFORMITY_URL);

    const dpp = await get(`${path}?linkType=gs1:dpp&lang=de`);
    assert.equal(dpp.status, 307);
    assert.equal(dpp.headers.get('location'), `${anchor}?format=vc&lang=de`);
    const pip = await get(`${path}?linkType=https://gs1.org/voc/pip`);
    assert.equal(
      pip.headers.get('location'),
      `${stack.api.config.publicBaseUrl}/test/verify/01/${GTIN}/21/${tokenId}`,
    );
    const unknown = await get(`${path}?linkType=gs1:nutritionalInfo`);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 'link_type_not_found');
    assert.deepEqual((await get(`${path}?linkType=linkset`)).body, answer.body);

    const description = await get('/.well-known/gs1resolver');
    assert.equal(description.status, 200);
    assert.equal(description.body.resolverRoot, stack.api.config.publicBaseUrl);
    assert.deepEqual(description.body.supportedPrimaryKeys, ['01']);
    assert.deepEqual(description.body.supportedLinkType, [
      { namespace: 'https://gs1.org/voc/', prefix: 'gs1:' },
    ]);
    assert.ok(description.body.linkTypes.includes('gs1:dpp'));
  });

  test('CORS: open for public formats, preflight answered', async () => {
    const preflight = await get(
      path,
      { origin: 'https://shop.example', 'access-control-request-method': 'GET' },
      'OPTIONS',
    );
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.match(preflight.headers.get('access-control-allow-methods')!, /GET/);
    assert.doesNotMatch(preflight.headers.get('access-control-allow-headers')!, /authorization/i);
  });

  test('tap URLs: verified once (authentic), then replayed; forged ones are not authentic; only genuine taps count', async () => {
    const fresh = tapQuery(chipUid, 2);
    const first = await get(`${path}?${fresh}`);
    assert.equal(first.status, 307, first.text);
    assert.equal(first.headers.get('cache-control'), 'no-store');
    const location = first.headers.get('location')!;
    assert.match(location, new RegExp(`^/test/verify/01/${GTIN}/21/${tokenId}\\?tap=[\\w-]+\\.[\\w-]+$`));
    assert.doesNotMatch(location, /cmac|picc|counter/i, 'no SUN internals in the verdict link');
    const page = await get(location);
    assert.equal(page.status, 200);
    assert.match(page.text, /data-verdict="authentic"/);

    const again = await get(`${path}?${fresh}`);
    assert.match((await get(again.headers.get('location')!)).text, /data-verdict="replayed"/);
    const forged = await get(
      `${path}?${fresh.replace(/cmac=(.)/, (_m, c) => `cmac=${c === 'A' ? 'B' : 'A'}`)}`,
    );
    assert.match((await get(forged.headers.get('location')!)).text, /data-verdict="forged"/);
    const malformed = await get(`${path}?picc_data=zz&cmac=00`);
    assert.match((await get(malformed.headers.get('location')!)).text, /data-verdict="forged"/);
    const short = await get(`${path}?${tapQuery(chipUid, 3, 'short')}`);
    assert.match(
      (await get(short.headers.get('location')!)).text,
      /data-verdict="authentic"/,
      'e/c parameters',
    );

    // The page's scan endpoint: the same verdicts; what is not a Digital Link with a signature is a 400.
    const scanned = await stack.api.call('POST', '/verify/tap', {
      body: { url: `https://elsewhere.example${path}?${tapQuery(chipUid, 4)}` },
    });
    assert.equal(scanned.status, 200, scanned.text);
    assert.equal(scanned.body.verdict, 'authentic');
    assert.equal(scanned.body.title, 'Authentic');
    assert.equal(scanned.body.serial, tokenId);
    assert.match(scanned.body.location, new RegExp(`^/test/verify/01/${GTIN}/21/${tokenId}\\?tap=`));
    for (const [url, code] of [
      [`https://x.example${path}`, 'no_sun_signature'],
      ['https://x.example/not/a/link?picc_data=00&cmac=00', 'not_a_digital_link'],
      [`https://x.example/01/${GTIN}/21/%E0%A4%A?picc_data=00&cmac=00`, 'not_a_digital_link'],
    ]) {
      const refused = await stack.api.call('POST', '/verify/tap', { body: { url } });
      assert.equal(refused.status, 400, `${url}: ${refused.text}`);
      assert.equal(refused.body.code, code);
    }

    const hardware = (await get(`${path}?format=public`)).body['idpp:hardware'];
    assert.equal(hardware.verificationCount, 4, 'the mint and the three genuine taps');

    // A verdict link cannot be made up: a token for another passport or an altered one shows no verdict.
    const token = location.split('tap=')[1]!;
    const tampered = await get(`/verify/01/${GTIN}/21/${tokenId}?tap=${token.slice(0, -2)}xx`);
    assert.match(tampered.text, /data-verdict="none"/);
  });

  test('format=public shows a change at once, also to requests that arrive while many read it together', async () => {
    const publicView = () => get(`${path}?format=public`);
    const before = await publicView();
    const count = before.body['idpp:hardware'].verificationCount as number;
    // Many phones read the passport at once (their reads of it share statements) while the chip is tapped.
    const crowd = Array.from({ length: 40 }, () => publicView());
    const tap = await get(`${path}?${tapQuery(chipUid, 10)}`);
    assert.equal(tap.status, 307, tap.text);
    const after = await publicView();
    assert.equal(after.body['idpp:hardware'].verificationCount, count + 1, 'the tap is counted at once');
    assert.notEqual(after.headers.get('etag'), before.headers.get('etag'));
    for (const answer of await Promise.all(crowd)) {
      assert.equal(answer.status, 200, answer.text);
      assert.ok([count, count + 1].includes(answer.body['idpp:hardware'].verificationCount));
    }
  });
});
