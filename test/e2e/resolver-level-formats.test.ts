import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { localDocumentLoader, verifyWithDigitalBazaar } from '../support/credential-verifier.ts';
import { BATTERY_V1 as V1 } from '../support/fixtures/battery.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { FULL_PRODUCT, GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { publicCall } from './fixtures/public-passport.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

const LOT = 'LOT-9';
const SECRET_REPORT = 'https://model.example/lab/secret-report.pdf';
const FACILITY = 'urn:epc:id:sgln:4012345.00001.0';

/**
 * Issue 34 item 2: a model's and a batch's Digital Link answer every format but erp (vc, untp, vc-jwt, aas,
 * public, linkset) and the content negotiation that names them; typed links batch → model; an item's answers
 * unchanged. Through HTTP on the real app.
 */
describe('resolver: every format of a model and a batch passport', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let get: ReturnType<typeof publicCall>;
  let base: string;
  let modelId: string;
  let batchId: string;
  let tokenId: string;
  const modelPath = `/01/${GTIN}`;
  const batchPath = `/01/${GTIN}/10/${LOT}`;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: brand.testKey, ...(body === undefined ? {} : { body }) });
  const verifier = () =>
    localDocumentLoader({ baseUrl: stack.api.baseUrl, publicBaseUrl: stack.api.config.publicBaseUrl });

  beforeAll(async () => {
    stack = await startTestStack();
    brand = await stack.api.createTenant('Voltaic Forms');
    get = publicCall(stack.api);
    base = `${stack.api.config.publicBaseUrl}/test`;
    assert.equal(
      (
        await call('PATCH', '/v1/company/settings', {
          economicOperatorId: '4012345000009',
          facilityId: FACILITY,
        })
      ).status,
      200,
    );
    const model = await call('POST', '/v1/dpps', {
      granularity: 'Model',
      gtin: GTIN,
      [V1]: {
        generalProductInformation: { manufacturerName: 'Voltaic Model Works', warrantyPeriod: 'P8Y' },
        conformityAndLabels: { testReportsProvingCompliance: [SECRET_REPORT] },
      },
    });
    assert.equal(model.status, 201, model.text);
    modelId = model.body.digitalProductPassportId;
    const batch = await call('POST', '/v1/dpps', {
      granularity: 'Batch',
      gtin: GTIN,
      lot: LOT,
      [V1]: { generalProductInformation: { manufacturingDate: '2026-10-01' } },
    });
    assert.equal(batch.status, 201, batch.text);
    batchId = batch.body.digitalProductPassportId;
    tokenId = await enrollAndMint(call, '04F1A2A3A4A5B6', { ...FULL_PRODUCT, batch_number: LOT });
  }, 600_000);
  afterAll(async () => {
    await stack?.close();
  });

  test('format=vc: a W3C VC 2.0 of the model and of the batch, signed by the items’ issuer; the batch links its model', async () => {
    const { documentLoader } = await verifier();
    const item = (await get(`/01/${GTIN}/21/${tokenId}?format=vc`)).body;
    for (const [path, granularity, dppId] of [
      [modelPath, 'model', modelId],
      [batchPath, 'batch', batchId],
    ] as const) {
      const answer = await get(`${path}?format=vc`);
      assert.equal(answer.status, 200, answer.text);
      assert.match(answer.headers.get('content-type')!, /^application\/ld\+json/);
      const vc = answer.body;
      assert.equal(vc.issuer, item.issuer, 'the same issuer as the items’ credentials');
      assert.equal(vc.credentialSubject.id, `${base}${path}`);
      assert.equal(vc.credentialSubject['idpp:granularity'], granularity);
      assert.equal(vc.credentialSubject['idpp:digitalProductPassportId'], dppId);
      assert.equal(vc.credentialStatus, undefined, 'a level has no status list entry');
      const verified = await verifyWithDigitalBazaar(vc, documentLoader);
      assert.equal(verified.verified, true, JSON.stringify(verified.error ?? verified).slice(0, 1500));
      const changed = structuredClone(vc);
      changed.credentialSubject['schema:name'] = 'Counterfeit';
      assert.equal((await verifyWithDigitalBazaar(changed, documentLoader)).verified, false);
      // One version, one credential: the same bytes on every read.
      assert.equal((await get(`${path}?format=vc`)).text, answer.text);
    }
    const model = (await get(`${modelPath}?format=vc`)).body.credentialSubject;
    const batch = (await get(`${batchPath}?format=vc`)).body.credentialSubject;
    assert.deepEqual(batch['idpp:modelPassport'], { id: `${base}${modelPath}` });
    assert.equal(batch['dpp:batchNumber'], LOT);
    assert.equal(model['idpp:modelPassport'], undefined, 'a model links nothing downward');
    assert.ok(!JSON.stringify(model).includes('/21/'), 'no list of items');
  });

  test('a new version of the level issues a new credential, dated by that version', async () => {
    const before = (await get(`${modelPath}?format=vc`)).body;
    const patched = await call('PATCH', `/v1/dpps/${encodeURIComponent(modelId)}`, {
      [V1]: { generalProductInformation: { warrantyPeriod: 'P9Y' } },
    });
    assert.equal(patched.status, 200, patched.text);
    const after = (await get(`${modelPath}?format=vc`)).body;
    assert.notEqual(after.id, before.id);
    assert.ok(after.validFrom >= before.validFrom);
    assert.equal(after.validFrom, `${patched.body.version.createdAt.slice(0, 19)}Z`);
    const { documentLoader } = await verifier();
    assert.equal((await verifyWithDigitalBazaar(after, documentLoader)).verified, true);
  });

  test('content negotiation on a level: ld+json → vc, json → public, linkset+json → linkset, html → its page', async () => {
    const vc = await get(modelPath, { accept: 'application/ld+json' });
    assert.equal(vc.status, 200, vc.text);
    assert.equal(vc.text, (await get(`${modelPath}?format=vc`)).text);
    const asVc = await get(batchPath, { accept: 'application/vc' });
    assert.match(asVc.headers.get('content-type')!, /^application\/vc(;|$)/);
    assert.equal(asVc.body.credentialSubject['idpp:granularity'], 'batch');
    const json = await get(batchPath, { accept: 'application/json' });
    assert.equal(json.body.granularity, 'batch');
    const linkset = await get(batchPath, { accept: 'application/linkset+json' });
    assert.match(linkset.headers.get('content-type')!, /^application\/linkset\+json/);
    assert.equal(linkset.body.linkset[0].anchor, `${base}${batchPath}`);
    assert.ok(
      linkset.body.linkset[0].dpp.some(
        (target: Json) =>
          target.href === `${base}${batchPath}?format=vc` && target.type === 'application/ld+json',
      ),
      'the linkset names the level’s credential',
    );
    const page = await get(modelPath, { accept: 'text/html' });
    assert.equal(page.status, 307);
    assert.match(page.headers.get('location')!, new RegExp(`/test/verify/01/${GTIN}$`));
    const jwt = await get(batchPath, { accept: 'application/vc+jwt' });
    assert.equal(jwt.status, 404, 'vc-jwt follows untp: the battery data states no country (below)');
    assert.equal(jwt.body.code, 'untp_data_missing');
  });

  test('format=untp and vc-jwt: 404 untp_data_missing naming what UNTP requires that the level does not state', async () => {
    for (const path of [modelPath, batchPath]) {
      for (const format of ['untp', 'vc-jwt']) {
        const answer = await get(`${path}?format=${format}`);
        assert.equal(answer.status, 404, `${path} ${format}: ${answer.text}`);
        assert.equal(answer.body.code, 'untp_data_missing');
        assert.match(answer.body.detail, /countryOfProduction/);
        // The class (its product group) and the facility (the company's) are there.
        assert.doesNotMatch(answer.body.detail, /productCategory|producedAtFacility/);
      }
    }
  });

  test('a level that states its country of production: format=untp is a UNTP DPP of that granularity, vc-jwt its VC-JOSE form', async () => {
    for (const [path, dppId, country] of [
      [modelPath, modelId, 'DE'],
      [batchPath, batchId, 'PL'],
    ] as const) {
      const patched = await call('PATCH', `/v1/dpps/${encodeURIComponent(dppId)}`, {
        [V1]: { generalProductInformation: { countryOfProduction: country } },
      });
      assert.equal(patched.status, 200, patched.text);
      const answer = await get(`${path}?format=untp`);
      assert.equal(answer.status, 200, answer.text);
      const subject = answer.body.credentialSubject;
      assert.equal(subject.idGranularity, path === modelPath ? 'model' : 'batch');
      assert.deepEqual(subject.countryOfProduction, { countryCode: country });
      const { documentLoader } = await verifier();
      const verified = await verifyWithDigitalBazaar(answer.body, documentLoader);
      assert.equal(verified.verified, true, JSON.stringify(verified.error ?? verified).slice(0, 1500));
      const jwt = await get(`${path}?format=vc-jwt`);
      assert.equal(jwt.status, 200, jwt.text);
      assert.match(jwt.text, /^[\w-]+\.[\w-]+\.[\w-]+$/);
      const payload = JSON.parse(Buffer.from(jwt.text.split('.')[1]!, 'base64url').toString());
      assert.deepEqual(payload.credentialSubject.countryOfProduction, { countryCode: country });
    }
  });

  test('format=aas: the model’s shell is a Type, the batch’s an Instance; DppMeta states granularity and the batch’s model', async () => {
    const model = await get(`${modelPath}?format=aas`);
    assert.equal(model.status, 200, model.text);
    assert.match(model.headers.get('content-type')!, /^application\/json/);
    assert.equal(model.body.assetInformation.assetKind, 'Type');
    assert.equal(model.body.assetInformation.globalAssetId, `${base}${modelPath}`);
    const batch = (await get(`${batchPath}?format=aas`)).body;
    assert.equal(batch.assetInformation.assetKind, 'Instance');
    assert.deepEqual(
      batch.assetInformation.specificAssetIds.map((id: Json) => [id.name, id.value]),
      [
        ['GTIN', GTIN],
        ['BatchNumber', LOT],
      ],
    );
    const meta = (shell: Json) =>
      Object.fromEntries(
        shell.submodels
          .find((s: Json) => s.idShort === 'DppMeta')
          .submodelElements.filter((e: Json) => e.modelType === 'Property')
          .map((e: Json) => [e.idShort, e.value]),
      );
    assert.equal(meta(model.body).Granularity, 'model');
    assert.equal(meta(model.body).DigitalProductPassportId, modelId);
    assert.equal(meta(model.body).ModelDppId, undefined);
    assert.equal(meta(batch).Granularity, 'batch');
    assert.equal(meta(batch).ModelDppId, modelId);
    const nameplate = (shell: Json) => shell.submodels.find((s: Json) => s.idShort === 'Nameplate');
    const elements = (shell: Json) => nameplate(shell).submodelElements.map((e: Json) => e.idShort);
    assert.ok(!elements(model.body).includes('SerialNumber'), 'a model has no serial');
    assert.ok(!elements(model.body).includes('DateOfManufacture'), 'nor a date of manufacture');
    assert.ok(elements(batch).includes('DateOfManufacture'), 'a batch has the one its data states');
    assert.ok(!model.text.includes(SECRET_REPORT), 'only what the public reads');
  });

  test('the AAS API reads a level’s shell and submodels by its id (not listed: the listings page items)', async () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    const fromResolver = (await get(`${batchPath}?format=aas`)).body;
    const shell = await get(`/test/api/v3.0/shells/${b64(fromResolver.id)}`);
    assert.equal(shell.status, 200, shell.text);
    assert.equal(shell.body.assetInformation.assetKind, 'Instance');
    assert.equal(shell.body.assetInformation.globalAssetId, `${base}${batchPath}`);
    const refs = shell.body.submodels.map((ref: Json) => ref.keys[0].value);
    assert.deepEqual(
      refs,
      fromResolver.submodels.map((submodel: Json) => submodel.id),
    );
    for (const id of refs) {
      const submodel = await get(`/test/api/v3.0/submodels/${b64(id)}`);
      assert.equal(submodel.status, 200, submodel.text);
      assert.deepEqual(
        submodel.body,
        fromResolver.submodels.find((s: Json) => s.id === id),
      );
      const under = await get(`/test/api/v3.0/shells/${b64(fromResolver.id)}/submodels/${b64(id)}`);
      assert.equal(under.status, 200, under.text);
    }
    const environment = await get(`/test/api/v3.0/serialization?aasIds=${b64(fromResolver.id)}`);
    assert.equal(environment.status, 200, environment.text);
    assert.equal(environment.body.assetAdministrationShells[0].id, fromResolver.id);
    assert.equal(environment.body.submodels.length, refs.length);
    const unknown = fromResolver.id.replace(/[0-9a-f]{12}$/, '000000000000');
    assert.equal((await get(`/test/api/v3.0/shells/${b64(unknown)}`)).status, 404);
    const listed = await get('/test/api/v3.0/shells?limit=100');
    assert.ok(!JSON.stringify(listed.body).includes('/levels/'));
  });

  test('the item’s answers are unchanged: its own credential, UNTP item granularity, its shell an Instance', async () => {
    const path = `/01/${GTIN}/21/${tokenId}`;
    const vc = (await get(`${path}?format=vc`)).body;
    assert.equal(vc.credentialSubject.id, `${base}${path}`);
    assert.deepEqual(vc.credentialSubject['idpp:batchPassport'], { id: `${base}${batchPath}` });
    assert.deepEqual(vc.credentialSubject['idpp:modelPassport'], { id: `${base}${modelPath}` });
    assert.equal(vc.credentialStatus.type, 'BitstringStatusListEntry');
    const untp = await get(`${path}?format=untp`);
    assert.equal(untp.status, 200, untp.text);
    assert.equal(untp.body.credentialSubject.idGranularity, 'item');
    const aas = (await get(`${path}?format=aas`)).body;
    assert.equal(aas.assetInformation.assetKind, 'Instance');
    assert.equal((await get(`${path}?format=erp`)).status, 401, 'erp stays the owner’s (no key: 401)');
  });
});
