import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { AAS_READ_PROFILES, checkAasServer } from '../../scripts/dev/aas-tools.ts';
import type { TestTenant } from '../support/api.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

// The package's ESM build uses extensionless imports that Node cannot resolve; its CommonJS build works.
const aas: typeof import('@aas-core-works/aas-core3.0-typescript') = createRequire(import.meta.url)(
  '@aas-core-works/aas-core3.0-typescript',
);

// biome-ignore lint/suspicious/noExplicitAny: AAS JSON as served
type Json = any;

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/**
 * The AAS Part 2 HTTP API v3.0 (read profiles of the shell and submodel repositories) over HTTP, as an AAS
 * client calls it: no credential, no x-service-env; test passports under /test/api/v3.0.
 */
describe('AAS API v3.0 (/api/v3.0, /test/api/v3.0)', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let tokens: string[];
  let base: string;
  const TEST = '/test/api/v3.0';
  const get = (path: string) => stack.api.call('GET', path, { env: null });
  const shellId = (tokenId: string) => `${base}/aas/test/${tokenId}`;

  beforeAll(async () => {
    stack = await startTestStack();
    base = stack.api.config.publicBaseUrl;
    tenant = await stack.api.createTenant('Acme Apparel');
    const call = (method: string, path: string, body?: unknown) =>
      stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
    tokens = [];
    for (const uid of ['04A1A2A3A4A501', '04A1A2A3A4A502', '04A1A2A3A4A503', '04A1A2A3A4A504']) {
      tokens.push(
        await enrollAndMint(call, uid, { manufacturer_name: 'Acme Apparel GmbH', originCountry: 'PT' }),
      );
    }
    // The company publishes its economic operator (an EORI): the DppMeta submodel carries it.
    const settings = await call('PATCH', '/v1/company/settings', { economicOperatorId: 'DE123456789' });
    assert.equal(settings.status, 200, settings.text);
    // The fourth is revoked: no longer listed, still readable by its id.
    const revoked = await call('POST', '/v1/dpp/revoke', {
      tokenId: tokens[3],
      reason: 'Withdrawn from sale',
    });
    assert.equal(revoked.status, 200, revoked.text);
  });
  afterAll(() => stack?.close());

  test('GET /shells pages through the active passports with keyset cursors; pure AAS v3 shells', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await get(`${TEST}/shells?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(page.status, 200, page.text);
      assert.equal(page.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(page.body.result.length, 1);
      seen.push(page.body.result[0].id);
      cursor = page.body.paging_metadata.cursor;
      pages += 1;
    } while (cursor && pages < 10);
    assert.deepEqual(
      seen,
      tokens.slice(0, 3).map(shellId),
      'the three active ones, each once, revoked one left out',
    );

    const all = await get(`${TEST}/shells`);
    assert.deepEqual(all.body.paging_metadata, {}, 'one page: no cursor');
    const shell = all.body.result[0];
    assert.equal(shell.idType, undefined);
    assert.equal(shell.extensions, undefined);
    assert.deepEqual(
      shell.submodels.map((r: Json) => r.keys[0].value),
      ['Nameplate', 'DppMeta', 'SustainabilityData', 'Security'].map(
        (s) => `${shellId(tokens[0]!)}/submodels/${s}`,
      ),
    );
    const parsed = aas.jsonization.assetAdministrationShellFromJsonable(shell);
    assert.equal(parsed.error, null, parsed.error?.message);
    assert.deepEqual(
      [...aas.verification.verify(parsed.mustValue())].map((e) => e.message),
      [],
    );

    // Live passports only under /api/v3.0: this tenant's test passports are not there.
    const live = await get('/api/v3.0/shells');
    assert.equal(live.status, 200);
    assert.deepEqual(live.body.result, []);
    const liveRead = await get(`/api/v3.0/shells/${b64(shellId(tokens[0]!))}`);
    assert.equal(liveRead.status, 404);
    // A client that can send headers may name the environment instead of the /test prefix.
    const byHeader = await stack.api.call('GET', '/api/v3.0/shells', { env: 'test' });
    assert.deepEqual(
      byHeader.body.result.map((s: Json) => s.id),
      tokens.slice(0, 3).map(shellId),
    );
  });

  test('filters: idShort and assetIds (globalAssetId, SerialNumber; GTIN only with one of them)', async () => {
    const byIdShort = await get(`${TEST}/shells?idShort=Passport_${tokens[1]}`);
    assert.deepEqual(
      byIdShort.body.result.map((s: Json) => s.id),
      [shellId(tokens[1]!)],
    );
    assert.deepEqual((await get(`${TEST}/shells?idShort=does-not-exist`)).body.result, []);
    const link = `${base}/test/01/${GTIN}/21/${tokens[2]}`;
    const byLink = await get(
      `${TEST}/shells?assetIds=${b64(JSON.stringify({ name: 'globalAssetId', value: link }))}`,
    );
    assert.deepEqual(
      byLink.body.result.map((s: Json) => s.id),
      [shellId(tokens[2]!)],
    );
    const bySerial = await get(
      `${TEST}/shells?assetIds=${b64(JSON.stringify({ name: 'SerialNumber', value: tokens[0] }))}&assetIds=${b64(JSON.stringify({ name: 'GTIN', value: GTIN }))}`,
    );
    assert.deepEqual(
      bySerial.body.result.map((s: Json) => s.id),
      [shellId(tokens[0]!)],
    );
    const wrongGtin = await get(
      `${TEST}/shells?assetIds=${b64(JSON.stringify({ name: 'SerialNumber', value: tokens[0] }))}&assetIds=${b64(JSON.stringify({ name: 'GTIN', value: '00000000000000' }))}`,
    );
    assert.deepEqual(wrongGtin.body.result, []);
    for (const value of [`${base}/test/01/${GTIN}/21/%E0%A4%A`, `${base}/01/${GTIN}/21/${tokens[0]}`, 'x']) {
      const other = await get(
        `${TEST}/shells?assetIds=${b64(JSON.stringify({ name: 'globalAssetId', value }))}`,
      );
      assert.equal(other.status, 200, `${value}: ${other.text}`);
      assert.deepEqual(other.body.result, [], value);
    }
    const gtinAlone = await get(
      `${TEST}/shells?assetIds=${b64(JSON.stringify({ name: 'GTIN', value: GTIN }))}`,
    );
    assert.equal(gtinAlone.status, 400);
    assert.equal(gtinAlone.body.messages[0].messageType, 'Error');
  });

  test('one shell by its base64url id: asset information, submodel references; the revoked one too', async () => {
    const id = b64(shellId(tokens[0]!));
    assert.ok(!id.includes('='), 'no padding');
    const shell = await get(`${TEST}/shells/${id}`);
    assert.equal(shell.status, 200, shell.text);
    assert.equal(shell.body.id, shellId(tokens[0]!));
    const info = await get(`${TEST}/shells/${id}/asset-information`);
    assert.equal(info.body.globalAssetId, `${base}/test/01/${GTIN}/21/${tokens[0]}`);
    const refs = await get(`${TEST}/shells/${id}/submodel-refs?limit=3`);
    assert.equal(refs.body.result.length, 3);
    const rest = await get(
      `${TEST}/shells/${id}/submodel-refs?limit=3&cursor=${refs.body.paging_metadata.cursor}`,
    );
    assert.deepEqual(
      rest.body.result.map((r: Json) => r.keys[0].value),
      [`${shellId(tokens[0]!)}/submodels/Security`],
    );
    assert.equal(rest.body.paging_metadata.cursor, undefined);

    const revoked = await get(`${TEST}/shells/${b64(shellId(tokens[3]!))}`);
    assert.equal(revoked.status, 200, 'a revoked passport stays readable');
    const meta = await get(
      `${TEST}/shells/${b64(shellId(tokens[3]!))}/submodels/${b64(`${shellId(tokens[3]!)}/submodels/DppMeta`)}/$value`,
    );
    assert.equal(meta.status, 200, meta.text);
    assert.equal(meta.body.DppStatus, 'suspended');
    assert.equal(meta.body.DigitalProductPassportId.startsWith('urn:uuid:'), true);
    assert.equal(meta.body.UniqueProductIdentifier, `${base}/test/01/${GTIN}/21/${tokens[3]}`);
    assert.equal(meta.body.EconomicOperatorId, 'DE123456789');
    assert.equal(meta.body.Granularity, 'item');
    assert.match(meta.body.LastUpdate, /^\d{4}-\d\d-\d\dT/);
  });

  test('errors are AAS Results with 400 for malformed input and 404 for unknown ids, never 500', async () => {
    const cases: [string, number][] = [
      [`${TEST}/shells/invalid-base64url=====`, 400],
      [`${TEST}/shells/${b64(shellId(tokens[0]!)).slice(0, -1)}%C3`, 400],
      [`${TEST}/shells/${Buffer.from([0xff, 0xfe]).toString('base64url')}`, 400],
      [`${TEST}/shells/${b64('urn:example:nothing')}`, 404],
      [`${TEST}/shells/${b64(shellId('999999'))}`, 404],
      [`${TEST}/shells/${b64(`${base}/aas/live/${tokens[0]}`)}`, 404],
      [`${TEST}/shells?limit=-1`, 400],
      [`${TEST}/shells?limit=1%00`, 400],
      [`${TEST}/shells?limit=abc`, 400],
      [`${TEST}/shells?cursor=not-ours`, 400],
      [`${TEST}/shells?cursor=${b64('abc')}`, 400],
      [`${TEST}/submodels?cursor=${b64('1.x')}`, 400],
      [`${TEST}/submodels/${b64(`${shellId(tokens[0]!)}/submodels/Nope`)}`, 404],
      [`${TEST}/submodels/${b64(`${shellId(tokens[0]!)}/submodels/Nameplate`)}?level=everything`, 400],
      [`${TEST}/submodels/${b64(`${shellId(tokens[0]!)}/submodels/Nameplate`)}/submodel-elements/Nope`, 404],
      [`${TEST}/submodels/${b64(`${shellId(tokens[0]!)}/submodels/Nameplate`)}/submodel-elements/A..B`, 400],
      [
        `${TEST}/shells/${b64(shellId(tokens[1]!))}/submodels/${b64(`${shellId(tokens[0]!)}/submodels/Nameplate`)}`,
        404,
      ],
      [`${TEST}/no-such-operation`, 404],
    ];
    // A /test address with x-service-env: live contradicts itself: refused before any route, still as a Result.
    const mismatch = await stack.api.call('GET', `${TEST}/shells`, { env: 'live' });
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body.messages[0].code, '400');
    for (const [path, status] of cases) {
      const answer = await get(path);
      assert.equal(answer.status, status, `${path}: ${answer.text}`);
      assert.equal(answer.headers.get('content-type'), 'application/json; charset=utf-8', path);
      assert.ok(answer.body.messages.length >= 1, path);
      for (const message of answer.body.messages) {
        assert.deepEqual(Object.keys(message).sort(), ['code', 'messageType', 'text', 'timestamp'], path);
        assert.equal(message.messageType, 'Error', path);
      }
      assert.equal(answer.body.messages[0].code, String(status), path);
    }
  });

  test('GET /submodels: four per passport, paged across passports; IDTA templates carried', async () => {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await get(`${TEST}/submodels?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(page.status, 200, page.text);
      assert.ok(page.body.result.length <= 3);
      ids.push(...page.body.result.map((s: Json) => s.id));
      cursor = page.body.paging_metadata.cursor;
    } while (cursor && ids.length < 40);
    assert.equal(ids.length, 12);
    assert.equal(new Set(ids).size, 12);
    const nameplates = await get(`${TEST}/submodels?idShort=Nameplate`);
    assert.equal(nameplates.body.result.length, 3);
    const bySemantic = await get(
      `${TEST}/submodels?semanticId=${b64('https://admin-shell.io/idta/nameplate/3/0/Nameplate')}`,
    );
    assert.deepEqual(
      bySemantic.body.result.map((s: Json) => s.id),
      nameplates.body.result.map((s: Json) => s.id),
    );
    for (const submodel of (await get(`${TEST}/submodels?limit=4`)).body.result) {
      const parsed = aas.jsonization.submodelFromJsonable(submodel);
      assert.equal(parsed.error, null, `${submodel.idShort}: ${parsed.error?.message}`);
      assert.deepEqual(
        [...aas.verification.verify(parsed.mustValue())].map((e) => `${e.path}: ${e.message}`),
        [],
      );
    }
  });

  test('one submodel: $value, $metadata, $reference, $path, elements by idShortPath', async () => {
    const id = `${shellId(tokens[0]!)}/submodels/Nameplate`;
    const at = `${TEST}/submodels/${b64(id)}`;
    const nameplate = await get(at);
    assert.equal(
      nameplate.body.semanticId.keys[0].value,
      'https://admin-shell.io/idta/nameplate/3/0/Nameplate',
    );
    const value = (await get(`${at}/$value`)).body;
    assert.equal(value.URIOfTheProduct, `${base}/test/01/${GTIN}/21/${tokens[0]}`);
    assert.deepEqual(value.ManufacturerName, [{ en: 'Acme Apparel GmbH' }]);
    assert.deepEqual(value.ManufacturerProductDesignation, [{ en: 'Trail Jacket' }]);
    assert.deepEqual(value.AddressInformation, { Company: [{ en: 'Acme Apparel GmbH' }] });
    assert.equal(value.OrderCodeOfManufacturer, GTIN);
    assert.match(value.YearOfConstruction, /^20\d\d$/);
    assert.match(value.DateOfManufacture, /^\d{4}-\d\d-\d\d$/);
    assert.equal(value.SerialNumber, tokens[0]);
    assert.equal(value.CountryOfOrigin, 'PT');
    const metadata = (await get(`${at}/$metadata`)).body;
    assert.equal(metadata.id, id);
    assert.equal(metadata.submodelElements, undefined);
    assert.deepEqual((await get(`${at}/$reference`)).body, {
      type: 'ModelReference',
      keys: [{ type: 'Submodel', value: id }],
    });
    assert.ok((await get(`${at}/$path`)).body.includes('AddressInformation.Company'));
    const company = await get(`${at}/submodel-elements/AddressInformation.Company`);
    assert.equal(company.body.modelType, 'MultiLanguageProperty');
    assert.deepEqual((await get(`${at}/submodel-elements/YearOfConstruction/$value`)).body, {
      YearOfConstruction: value.YearOfConstruction,
    });
    assert.equal(
      (await get(`${at}/submodel-elements/YearOfConstruction/$path`)).status,
      400,
      'a Property has no paths below',
    );
    const elements = await get(`${at}/submodel-elements?limit=2`);
    assert.deepEqual(
      elements.body.result.map((e: Json) => e.idShort),
      ['URIOfTheProduct', 'ManufacturerName'],
    );
    assert.ok(elements.body.paging_metadata.cursor);
    // The same submodel under its shell.
    const underShell = await get(`${TEST}/shells/${b64(shellId(tokens[0]!))}/submodels/${b64(id)}/$value`);
    assert.deepEqual(underShell.body, value);
  });

  test('aas-test-engines check_server passes both read profiles (SSP-002)', {
    timeout: 300_000,
  }, async () => {
    for (const suite of Object.values(AAS_READ_PROFILES)) {
      const report = await checkAasServer(`${stack.api.baseUrl}${TEST}`, suite);
      assert.deepEqual(report.errors, [], suite);
      assert.equal(report.ok, true, suite);
      // Left as warnings: element kinds and File attachments passports do not have, the tool's own gaps.
      assert.deepEqual(
        report.warnings.filter(
          (w) =>
            !/No such element present|No submodel element of type 'File'|Cannot check pagination/.test(w),
        ),
        [],
        suite,
      );
    }
    const serialized = await get(
      `${TEST}/serialization?aasIds=${b64(shellId(tokens[0]!))}&includeConceptDescriptions=true`,
    );
    assert.equal(serialized.status, 200, serialized.text);
    assert.equal(serialized.body.assetAdministrationShells.length, 1);
    assert.equal(serialized.body.submodels.length, 4);
    assert.ok(serialized.body.conceptDescriptions.length > 0);
    const environment = aas.jsonization.environmentFromJsonable(serialized.body);
    assert.equal(environment.error, null, environment.error?.message);
    assert.deepEqual(
      [...aas.verification.verify(environment.mustValue())].map((e) => `${e.path}: ${e.message}`),
      [],
    );
    const description = await get(`${TEST}/description`);
    assert.deepEqual(description.body.profiles, Object.values(AAS_READ_PROFILES));
  });
});
