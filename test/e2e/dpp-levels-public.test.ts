import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { EN_18223_LEVEL_LINKS } from '../support/en-18223-header.ts';
import { BATTERY_DATA, contentPath, BATTERY_V1 as V1 } from '../support/fixtures/battery.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN, OTHER_GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { createBatteryBatch, createBatteryModel, MODEL_MAKER, SECRET_REPORT } from './fixtures/levels.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

const LOT = 'LOT-5';
const MAKER_POINTER = `/${V1}/generalProductInformation/manufacturerName`;
const WARRANTY_POINTER = `/${V1}/generalProductInformation/warrantyPeriod`;

/**
 * Issue 34: an item's public view (format=public), its verification page, its EN 18223 header and its stored
 * W3C VC show the item under its model and batch passports (docs/granularity.md, docs/public-passport.md).
 */
describe('an item under a model and batch: public view, page, header links, stored VC', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let modelId: string;
  let batchId: string;
  let tokenId: string;
  let dppId: string;
  let plain: string;
  const item = (token: string, gtin = GTIN) => `/test/01/${gtin}/21/${token}`;
  const get = (path: string, key: string | null = null) =>
    stack.api.call('GET', path, { key, ...(path.startsWith('/test/') ? { env: null } : {}) });
  const create = (body: unknown) => stack.api.call('POST', '/v1/dpps', { key: brand.testKey, body });
  const dppPath = (id: string) => `/test/v1/dpps/${encodeURIComponent(id)}`;

  beforeAll(async () => {
    stack = await startTestStack();
    brand = await stack.api.createTenant('Voltaic Cells');
    modelId = await createBatteryModel(create, GTIN);
    batchId = await createBatteryBatch(create, GTIN, LOT);
    const call = (method: string, path: string, body?: unknown) =>
      stack.api.call(method, path, { key: brand.testKey, body });
    tokenId = await enrollAndMint(call, '04E1E2E3E4E501', { batch_number: LOT });
    plain = await enrollAndMint(call, '04E1E2E3E4E502', { gtin: OTHER_GTIN });
    dppId = (await get(`${item(tokenId)}?format=public`)).body.dppHeader.digitalProductPassportId;
    // The item's own data: everything but the manufacturer, the warranty and the test reports (its levels').
    const own = structuredClone(BATTERY_DATA) as Json;
    delete own.generalProductInformation.manufacturerName;
    delete own.generalProductInformation.warrantyPeriod;
    delete own.conformityAndLabels.testReportsProvingCompliance;
    const put = await stack.api.call('PUT', contentPath(dppId), { key: brand.testKey, body: own });
    assert.equal(put.status, 201, put.text);
  }, 600_000);
  afterAll(() => stack?.close());

  test('format=public: the merged data cut for the public, contentSources, and the header’s links', async () => {
    const view = await get(`${item(tokenId)}?format=public`);
    assert.equal(view.status, 200, view.text);
    const general = view.body.productGroupData[V1].generalProductInformation;
    assert.equal(general.manufacturerName, MODEL_MAKER, 'inherited from the model');
    assert.equal(general.warrantyPeriod, 'P10Y', 'from the batch, over the model');
    assert.equal(
      general.batteryCategory,
      (BATTERY_DATA as Json).generalProductInformation.batteryCategory,
      'the item’s own',
    );
    assert.ok(!view.text.includes(SECRET_REPORT), 'the model’s restricted field stays restricted');
    assert.equal(view.body.contentSources[MAKER_POINTER], modelId);
    assert.equal(view.body.contentSources[WARRANTY_POINTER], batchId);
    assert.equal(view.body.contentSources[`/${V1}/generalProductInformation/batteryCategory`], dppId);
    assert.ok(
      Object.keys(view.body.contentSources).every((pointer) => pointer.startsWith(`/${V1}/`)),
      'pointers into productGroupData',
    );
    assert.ok(
      !Object.keys(view.body.contentSources).some((pointer) => pointer.includes('testReports')),
      'no source for a value not shown',
    );
    assert.equal(view.body['@context'].contentSources['@type'], '@json');
    assert.equal(view.body.dppHeader.batchDppId, batchId);
    assert.equal(view.body.dppHeader.modelDppId, modelId);
    assert.ok(view.body.dppHeader.contentSpecificationIds.includes(V1));

    // An item with no model and no batch: its view as before, the header's links null (not absent).
    const bare = await get(`${item(plain, OTHER_GTIN)}?format=public`);
    assert.equal(bare.status, 200, bare.text);
    for (const member of EN_18223_LEVEL_LINKS) {
      assert.ok(member in bare.body.dppHeader, member);
      assert.equal(bare.body.dppHeader[member], null, member);
    }
    assert.equal(bare.body.contentSources, undefined);
    assert.equal(bare.body.productGroupData, undefined);
  });

  test('the EN 18222 read states batchDppId and modelDppId in the header (null when none)', async () => {
    const read = await get(dppPath(dppId));
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.batchDppId, batchId);
    assert.equal(read.body.modelDppId, modelId);
    assert.equal(read.body.contentSources[MAKER_POINTER], modelId);
    const element = await get(`${dppPath(dppId)}/elements/${encodeURIComponent("$['modelDppId']")}`);
    assert.equal(element.status, 200, element.text);
    assert.equal(element.body, modelId);

    const plainId = (await get(`${item(plain, OTHER_GTIN)}?format=public`)).body.dppHeader
      .digitalProductPassportId;
    const bare = await get(dppPath(plainId));
    assert.equal(bare.status, 200, bare.text);
    assert.equal(bare.body.batchDppId, null);
    assert.equal(bare.body.modelDppId, null);
    // The links are part of the recorded document: the current read is its latest version.
    const versions = await get(`${dppPath(plainId)}/versions`);
    const latest = versions.body.items.at(-1);
    const recorded = await get(`${dppPath(plainId)}/versions/${latest.number}`);
    assert.deepEqual(recorded.body.dpp, bare.body);
  });

  test('the verification page shows the merged data, says which level each inherited value is from, links both', async () => {
    const page = await get(`/test/verify/01/${GTIN}/21/${tokenId}`);
    assert.equal(page.status, 200, page.text);
    const html = page.text;
    assert.ok(html.includes(MODEL_MAKER), 'the model’s manufacturer');
    assert.ok(html.includes('P10Y') && !html.includes('P8Y'), 'the batch’s warranty, not the model’s');
    assert.ok(!html.includes(SECRET_REPORT), 'the model’s restricted field is not on the page');
    const note = (pointer: string) =>
      new RegExp(
        `<span class="source" data-from="(model|batch)" data-pointer="${pointer}">([^<]+)</span>`,
      ).exec(html);
    assert.deepEqual(note('/generalProductInformation/manufacturerName')?.slice(1), [
      'model',
      'from the model passport',
    ]);
    assert.deepEqual(note('/generalProductInformation/warrantyPeriod')?.slice(1), [
      'batch',
      'from the batch passport',
    ]);
    assert.equal(note('/generalProductInformation/batteryCategory'), null, 'the item’s own value: no note');
    assert.match(html, new RegExp(`id="part-of-batch" href="[^"]*/test/verify/01/${GTIN}/10/${LOT}"`));
    assert.match(html, new RegExp(`id="part-of-model" href="[^"]*/test/verify/01/${GTIN}"`));

    const bare = await get(`/test/verify/01/${OTHER_GTIN}/21/${plain}`);
    assert.equal(bare.status, 200, bare.text);
    assert.ok(!bare.text.includes('class="source"') && !bare.text.includes('id="part-of"'));
  });

  test('a level created or changed later: the item’s views follow, its stored VC is issued again', async () => {
    const em = () => stack.api.db.orm.em.fork();
    const storedStamp = async () =>
      (
        await em().execute<{ inputs_stamp: string }[]>(
          `select pc.inputs_stamp from passport_credentials pc join passports p on p.id = pc.passport_id
           where p.environment = 'test' and p.token_id = ?`,
          [plain],
        )
      )[0]?.inputs_stamp;
    const vc = () => get(`${item(plain, OTHER_GTIN)}?format=vc`);
    const before = await vc();
    assert.equal(before.status, 200, before.text);
    assert.equal(before.body.credentialSubject['idpp:modelPassport'], undefined);
    assert.deepEqual((await vc()).body, before.body, 'stored: served as it is');

    const model = await create({
      granularity: 'Model',
      gtin: OTHER_GTIN,
      [V1]: { generalProductInformation: { manufacturerName: MODEL_MAKER, warrantyPeriod: 'P5Y' } },
    });
    assert.equal(model.status, 201, model.text);
    const otherModel = model.body.digitalProductPassportId;
    const after = await vc();
    assert.equal(after.status, 200, after.text);
    assert.equal(
      new URL(after.body.credentialSubject['idpp:modelPassport'].id).pathname,
      `/test/01/${OTHER_GTIN}`,
      'the model created later is linked: the credential was issued again',
    );
    assert.notEqual(after.body.id, before.body.id);
    const view = await get(`${item(plain, OTHER_GTIN)}?format=public`);
    assert.equal(view.body.dppHeader.modelDppId, otherModel);
    assert.equal(view.body.productGroupData[V1].generalProductInformation.warrantyPeriod, 'P5Y');

    // The model's content changes: the item's public view shows the new value at once; the VC's inputs stamp
    // names the model's new version, so the credential is built again (it states no product-group data, so
    // the same content keeps its signature: the stored stamp is renewed, nothing is signed).
    const stampBefore = await storedStamp();
    const patch = await stack.api.call('PATCH', dppPath(otherModel).replace('/test', ''), {
      key: brand.testKey,
      body: { [V1]: { generalProductInformation: { warrantyPeriod: 'P7Y' } } },
    });
    assert.equal(patch.status, 200, patch.text);
    const changed = await get(`${item(plain, OTHER_GTIN)}?format=public`);
    assert.equal(changed.body.productGroupData[V1].generalProductInformation.warrantyPeriod, 'P7Y');
    assert.equal(changed.body.contentSources[WARRANTY_POINTER], otherModel);
    const again = await vc();
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body, after.body, 'same content, same credential');
    const stampAfter = await storedStamp();
    assert.ok(stampBefore && stampAfter && stampAfter !== stampBefore, 'the stamp names the new version');
    assert.ok(stampAfter.includes(`${otherModel.slice('urn:uuid:'.length)}:2`), stampAfter);
  });
});
