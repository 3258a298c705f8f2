import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { BATTERY_DATA, contentPath, BATTERY_V1 as V1 } from '../support/fixtures/battery.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { FULL_PRODUCT, GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { createBatteryBatch, createBatteryModel, SECRET_REPORT } from './fixtures/levels.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

const LOT = 'LOT-9';
const ITEM_MAKER = 'Voltaic Cells SE (item)';
const AAS = '/test/api/v3.0';
const b64 = (id: string) => Buffer.from(id, 'utf8').toString('base64url');

/** Every value of an AAS element tree by idShort (first match, depth first). */
function aasValue(node: Json, idShort: string): unknown {
  if (node === null || typeof node !== 'object') return undefined;
  if (node.idShort === idShort && 'value' in node) return node.value;
  for (const child of Object.values(node)) {
    const found = aasValue(child, idShort);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The machine representations of an item under a model and a batch passport (issue 34, docs/granularity.md
 * "In the credentials and AAS"): UNTP (Data Integrity and vc-jwt), the AAS environment and the AAS API state
 * the merged view (model ← batch ← item), link the item to its batch and model passports, and cut the merged
 * data per audience (the model's restricted field stays restricted).
 */
describe('an item under a model and batch in its credentials and AAS forms', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let modelId: string;
  let batchId: string;
  let tokenId: string;
  let dppId: string;
  let bare: string;
  const item = (token = tokenId) => `/test/01/${GTIN}/21/${token}`;
  /** GET as anyone or with a key; a /test/… address names its environment, a /v1/… one is read in test. */
  const get = (path: string, key: string | null = null) =>
    stack.api.call('GET', path, { key, ...(path.startsWith('/test/') ? { env: null } : {}) });

  beforeAll(async () => {
    stack = await startTestStack();
    brand = await stack.api.createTenant('Voltaic Cells');
    const create = (body: unknown) => stack.api.call('POST', '/v1/dpps', { key: brand.testKey, body });
    modelId = await createBatteryModel(create, GTIN);
    batchId = await createBatteryBatch(create, GTIN, LOT);

    const mint = (chipUid: string) =>
      enrollAndMint(
        (method, path, body) => stack.api.call(method, path, { key: brand.testKey, body }),
        chipUid,
        {
          ...FULL_PRODUCT,
          batch_number: LOT,
        },
      );
    tokenId = await mint('04C1C2C3C4C501');
    bare = await mint('04C1C2C3C4C502');
    const view = await get(`${item()}?format=public`);
    dppId = view.body.dppHeader.digitalProductPassportId;
    // The item's own data overrides the manufacturer, leaves the warranty and the test reports to its levels.
    const own = structuredClone(BATTERY_DATA) as Json;
    own.generalProductInformation.manufacturerName = ITEM_MAKER;
    delete own.generalProductInformation.warrantyPeriod;
    delete own.conformityAndLabels.testReportsProvingCompliance;
    const put = await stack.api.call('PUT', contentPath(dppId), { key: brand.testKey, body: own });
    assert.equal(put.status, 201, put.text);
  }, 600_000);
  afterAll(() => stack?.close());

  const assertMergedUntp = (credential: Json) => {
    const subject = credential.credentialSubject;
    const general = subject.productGroupData[V1].generalProductInformation;
    assert.equal(general.manufacturerName, ITEM_MAKER, 'the item overrides');
    assert.equal(general.warrantyPeriod, 'P10Y', 'inherited from the batch, which overrides the model');
    assert.equal(subject.batchNumber, LOT);
    assert.equal(subject.modelNumber, GTIN);
    const links = subject.relatedDocument.filter((link: Json) =>
      /#(batch|model)Passport$/.test(link.linkType),
    );
    assert.deepEqual(
      links.map((link: Json) => [link.linkType.split('#')[1], new URL(link.linkURL).pathname]),
      [
        ['batchPassport', `/test/01/${GTIN}/10/${LOT}`],
        ['modelPassport', `/test/01/${GTIN}`],
      ],
    );
    assert.ok(links[0].linkName.includes(batchId));
    assert.ok(links[1].linkName.includes(modelId));
  };

  test('UNTP (Data Integrity and vc-jwt): merged data, typed links to batch and model, restricted cut', async () => {
    const untp = await get(`${item()}?format=untp`);
    assert.equal(untp.status, 200, untp.text);
    assertMergedUntp(untp.body);
    assert.ok(!untp.text.includes(SECRET_REPORT), 'the model’s restricted field is not public');
    assert.ok(
      untp.body.credentialSubject.claimStubs.some((stub: Json) => stub.name === '/conformityAndLabels'),
      'a claim stub says the model’s restricted data exists',
    );

    const jwt = await get(`${item()}?format=vc-jwt`);
    assert.equal(jwt.status, 200, jwt.text);
    const payload = decodeJwt(jwt.text.trim()) as Json;
    assertMergedUntp(payload);
    assert.ok(!JSON.stringify(payload).includes(SECRET_REPORT));

    const regulator = await get(`${item()}?format=untp&accessRole=Regulator`, brand.testKey);
    assert.equal(regulator.status, 200, regulator.text);
    assertMergedUntp(regulator.body);
    assert.deepEqual(
      regulator.body.credentialSubject.productGroupData[V1].conformityAndLabels.testReportsProvingCompliance,
      [SECRET_REPORT],
      'the audience that reads test reports gets the model’s',
    );
  });

  test('the W3C VC (format=vc) links the item to its batch and model passports', async () => {
    const vc = await get(`${item()}?format=vc`);
    assert.equal(vc.status, 200, vc.text);
    const subject = vc.body.credentialSubject;
    assert.equal(new URL(subject['idpp:batchPassport'].id).pathname, `/test/01/${GTIN}/10/${LOT}`);
    assert.equal(new URL(subject['idpp:modelPassport'].id).pathname, `/test/01/${GTIN}`);
    assert.ok(vc.body.proof, 'signed');
    assert.ok(!vc.text.includes(SECRET_REPORT));
  });

  test('an item with no battery data of its own: its UNTP credential states its levels’ data', async () => {
    const untp = await get(`${item(bare)}?format=untp`);
    assert.equal(untp.status, 200, untp.text);
    const general = untp.body.credentialSubject.productGroupData[V1].generalProductInformation;
    assert.equal(general.manufacturerName, 'Voltaic Model Works');
    assert.equal(general.warrantyPeriod, 'P10Y');
    assert.ok(!untp.text.includes(SECRET_REPORT));
  });

  test('the AAS environment (content ?format=aas) and the AAS API serve the merged battery submodels', async () => {
    const technical = (environment: Json) =>
      environment.submodels.find((submodel: Json) => submodel.idShort === 'BatteryTechnicalData');
    const publicEnv = await get(`${contentPath(dppId)}?format=aas`);
    assert.equal(publicEnv.status, 200, publicEnv.text);
    assert.equal(aasValue(technical(publicEnv.body), 'WarrantyPeriod'), 'P10Y');
    assert.equal(aasValue(technical(publicEnv.body), 'ManufacturerName'), ITEM_MAKER);
    assert.ok(!publicEnv.text.includes(SECRET_REPORT), 'the model’s test reports are not public');
    const ownerEnv = await get(`${contentPath(dppId)}?format=aas`, brand.testKey);
    assert.equal(ownerEnv.status, 200, ownerEnv.text);
    assert.ok(
      ownerEnv.text.includes(SECRET_REPORT),
      'the owner’s environment holds the model’s test reports',
    );

    const base = stack.api.config.publicBaseUrl;
    const submodelId = `${base}/aas/test/${tokenId}/submodels/BatteryTechnicalData`;
    const submodel = await get(`${AAS}/submodels/${b64(submodelId)}`);
    assert.equal(submodel.status, 200, submodel.text);
    assert.equal(aasValue(submodel.body, 'WarrantyPeriod'), 'P10Y');
    assert.equal(aasValue(submodel.body, 'ManufacturerName'), ITEM_MAKER);
    const shell = await get(`${AAS}/shells/${b64(`${base}/aas/test/${tokenId}`)}`);
    assert.equal(shell.status, 200, shell.text);
    assert.ok(shell.text.includes('BatteryTechnicalData'));
    assert.ok(!shell.text.includes('BatteryNameplate'), 'the nameplate holds test reports: not public');
    // The EN 18223 header as the DppMeta submodel names the item's batch and model passports.
    const meta = await get(`${AAS}/submodels/${b64(`${base}/aas/test/${tokenId}/submodels/DppMeta`)}`);
    assert.equal(meta.status, 200, meta.text);
    assert.equal(aasValue(meta.body, 'BatchDppId'), batchId);
    assert.equal(aasValue(meta.body, 'ModelDppId'), modelId);

    // An item that wrote nothing under a partial model: its merged section is incomplete, so no battery
    // submodels (the IDTA templates map a complete section), as before; never an error.
    const bareShell = await get(`${AAS}/shells/${b64(`${base}/aas/test/${bare}`)}`);
    assert.equal(bareShell.status, 200, bareShell.text);
    assert.ok(!bareShell.text.includes('BatteryTechnicalData'));
    const bareId = (await get(`${item(bare)}?format=public`)).body.dppHeader.digitalProductPassportId;
    const bareEnv = await get(`${contentPath(bareId)}?format=aas`);
    assert.equal(bareEnv.status, 200, bareEnv.text);
  });
});
