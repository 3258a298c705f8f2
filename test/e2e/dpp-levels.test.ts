import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { BATTERY_DATA, contentPath, BATTERY_V1 as V1 } from '../support/fixtures/battery.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { CONFORMITY_URL, GTIN, OTHER_GTIN } from '../support/fixtures/products.ts';
import { verifyChipBody } from '../support/fixtures/sun.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

const LOT = 'LOT-7';
const SECRET_REPORT = 'https://model.example/lab/secret-report.pdf';

/**
 * Model and batch passports (issue 34, docs/granularity.md): created with POST /v1/dpps, read like items, and
 * inherited by the items of their GTIN (and batch number), the item's own values overriding, the model's
 * restricted fields staying restricted in the item's merged view.
 */
describe('model and batch passports', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let other: TestTenant;
  let modelId: string;
  let batchId: string;
  const create = (body: unknown, key: string, headers: Record<string, string> = {}) =>
    stack.api.call('POST', '/v1/dpps', { key, body, headers });
  const dppPath = (dppId: string) => `/v1/dpps/${encodeURIComponent(dppId)}`;
  const itemDppId = async (tokenId: string, gtin = GTIN) => {
    const view = await stack.api.call('GET', `/test/01/${gtin}/21/${tokenId}?format=public`, { env: null });
    assert.equal(view.status, 200, view.text);
    return view.body.dppHeader.digitalProductPassportId as string;
  };
  const modelBody = (gtin = GTIN) => ({
    granularity: 'Model',
    gtin,
    [V1]: {
      generalProductInformation: { manufacturerName: 'Voltaic Model Works', warrantyPeriod: 'P8Y' },
      conformityAndLabels: { testReportsProvingCompliance: [SECRET_REPORT] },
    },
  });

  beforeAll(async () => {
    stack = await startTestStack();
    brand = await stack.api.createTenant('Voltaic Cells');
    other = await stack.api.createTenant('Copycat Cells');
  }, 600_000);
  afterAll(async () => {
    await stack?.close();
  });

  test('a model passport is created once per GTIN: idempotent by key, 409 again, 409 for another company', async () => {
    const first = await create(modelBody(), brand.testKey, { 'Idempotency-Key': 'model-1' });
    assert.equal(first.status, 201, first.text);
    modelId = first.body.digitalProductPassportId;
    assert.match(modelId, /^urn:uuid:[0-9a-f-]{36}$/);
    assert.equal(first.body.granularity, 'model');
    assert.match(first.body.uniqueProductIdentifier, new RegExp(`/test/01/${GTIN}$`));
    assert.equal(first.body.version.number, 1);
    assert.match(first.body.version.sha256, /^[0-9a-f]{64}$/);
    assert.equal(first.body.version.anchorStatus, 'pending');

    const replay = await create(modelBody(), brand.testKey, { 'Idempotency-Key': 'model-1' });
    assert.equal(replay.status, 201, replay.text);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.body.digitalProductPassportId, modelId);

    const again = await create(modelBody(), brand.testKey);
    assert.equal(again.status, 409, again.text);
    assert.equal(again.body.code, 'dpp_exists');
    const copycat = await create(modelBody(), other.testKey);
    assert.equal(copycat.status, 409, copycat.text);
    assert.equal(copycat.body.code, 'dpp_key_taken');
    assert.ok(!copycat.text.includes(modelId), 'another company learns no id');
  });

  test('refusals: a bad GTIN check digit, an item (minted, not created), a batch without lot, invalid data', async () => {
    const badGtin = await create({ ...modelBody(), gtin: '00012345600013' }, brand.testKey);
    assert.equal(badGtin.status, 400, badGtin.text);
    assert.equal(badGtin.body.code, 'invalid_gtin');
    const item = await create({ granularity: 'Item', gtin: GTIN }, brand.testKey);
    assert.equal(item.status, 400, item.text);
    assert.equal(item.body.code, 'item_passports_are_minted');
    assert.match(item.body.detail ?? item.text, /mint/);
    const noLot = await create({ granularity: 'Batch', gtin: GTIN }, brand.testKey);
    assert.equal(noLot.status, 400, noLot.text);
    assert.equal(noLot.body.code, 'invalid_lot');
    const invalid = await create(
      {
        granularity: 'Batch',
        gtin: GTIN,
        lot: 'LOT-X',
        [V1]: { generalProductInformation: { batteryMassKg: -1 } },
      },
      brand.testKey,
    );
    assert.equal(invalid.status, 400, invalid.text);
    assert.equal(invalid.body.code, 'content_invalid');
  });

  test('a batch passport; both read through EN 18222 with the restricted field for the owner only', async () => {
    const batch = await create(
      {
        granularity: 'batch',
        gtin: GTIN,
        lot: LOT,
        [V1]: { generalProductInformation: { warrantyPeriod: 'P10Y' } },
      },
      brand.testKey,
    );
    assert.equal(batch.status, 201, batch.text);
    batchId = batch.body.digitalProductPassportId;
    assert.match(batch.body.uniqueProductIdentifier, new RegExp(`/test/01/${GTIN}/10/${LOT}$`));

    const anonymous = await stack.api.call('GET', dppPath(modelId), { key: null });
    assert.equal(anonymous.status, 200, anonymous.text);
    assert.equal(anonymous.body.granularity, 'model');
    assert.equal(anonymous.body.dppStatus, 'active');
    assert.deepEqual(anonymous.body.contentSpecificationIds, [V1]);
    assert.equal(anonymous.body[V1].generalProductInformation.manufacturerName, 'Voltaic Model Works');
    assert.equal(anonymous.body[V1].conformityAndLabels, undefined, 'test reports are for authorities');
    const owner = await stack.api.call('GET', dppPath(modelId), { key: brand.testKey });
    assert.deepEqual(owner.body[V1].conformityAndLabels.testReportsProvingCompliance, [SECRET_REPORT]);
    const full = await stack.api.call('GET', `${dppPath(batchId)}?representation=full`, { key: null });
    assert.equal(full.status, 200, full.text);
    assert.equal(full.body.granularity, 'batch');
    assert.ok(full.body.elements.some((element: Json) => element.elementId === V1));

    const versions = await stack.api.call('GET', `${dppPath(modelId)}/versions`, { key: brand.testKey });
    assert.equal(versions.status, 200, versions.text);
    assert.equal(versions.body.items.length, 1);
    assert.ok(
      ['pending', 'anchored'].includes(versions.body.items[0].anchorStatus),
      'anchored by its workflow soon after the create (dpp-level-lifecycle.test.ts waits for it)',
    );
    const first = await stack.api.call('GET', `${dppPath(modelId)}/versions/1`, { key: null });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.publicSha256, versions.body.items[0].publicSha256);
    assert.equal(first.body.sha256, undefined, 'the whole document’s hash is the owner’s');
    assert.equal(first.body.dpp[V1].conformityAndLabels, undefined);

    const element = (path: string) => `${dppPath(modelId)}/elements/${encodeURIComponent(path)}`;
    const name = await stack.api.call(
      'GET',
      element(`$['${V1}']['generalProductInformation']['manufacturerName']`),
      {
        key: null,
      },
    );
    assert.equal(name.status, 200, name.text);
    assert.equal(name.body, 'Voltaic Model Works');
    const secret = element(`$['${V1}']['conformityAndLabels']['testReportsProvingCompliance']`);
    assert.equal((await stack.api.call('GET', secret, { key: null })).status, 401);
    assert.equal((await stack.api.call('GET', secret, { key: brand.testKey })).status, 200);

    const byProductId = await stack.api.call(
      'GET',
      `/v1/dppsByProductId/${encodeURIComponent(batch.body.uniqueProductIdentifier)}`,
      { key: null },
    );
    assert.equal(byProductId.status, 200, byProductId.text);
    assert.equal(byProductId.body.digitalProductPassportId, batchId);

    const content = await stack.api.call('GET', contentPath(batchId), { key: null });
    assert.equal(content.status, 200, content.text);
    assert.equal(content.body.data.generalProductInformation.warrantyPeriod, 'P10Y');
  });

  test('a model or batch passport is never deleted: 405 naming the archive, for its owner; 404 for others', async () => {
    for (const id of [modelId, batchId]) {
      const refused = await stack.api.call('DELETE', dppPath(id), { key: brand.testKey });
      assert.equal(refused.status, 405, refused.text);
      assert.equal(refused.body.code, 'dpp_delete_refused');
      assert.equal(refused.body.archive.path, `/v1/dpps/${encodeURIComponent(id)}/status`);
      assert.equal((await stack.api.call('DELETE', dppPath(id), { key: other.testKey })).status, 404);
      assert.equal((await stack.api.call('GET', dppPath(id), { key: null })).status, 200, 'still there');
    }
  });

  test('an item inherits model ← batch, says where each value comes from, and its own values override', async () => {
    const tokenId = await enrollAndMint(
      (method, path, body) => stack.api.call(method, path, { key: brand.testKey, body }),
      '04A1A2A3A4A501',
      { batch_number: LOT },
    );
    const dppId = await itemDppId(tokenId);

    const inherited = await stack.api.call('GET', contentPath(dppId), { key: null });
    assert.equal(inherited.status, 200, inherited.text);
    const general = inherited.body.data.generalProductInformation;
    assert.equal(general.manufacturerName, 'Voltaic Model Works');
    assert.equal(general.warrantyPeriod, 'P10Y', 'the batch overrides the model');
    assert.equal(inherited.body.sources['/generalProductInformation/manufacturerName'], modelId);
    assert.equal(inherited.body.sources['/generalProductInformation/warrantyPeriod'], batchId);
    assert.equal(
      inherited.body.data.conformityAndLabels,
      undefined,
      'the model’s restricted field stays restricted',
    );
    assert.ok(!inherited.text.includes(SECRET_REPORT));
    const ownerView = await stack.api.call('GET', contentPath(dppId), { key: brand.testKey });
    assert.deepEqual(ownerView.body.data.conformityAndLabels.testReportsProvingCompliance, [SECRET_REPORT]);

    const en18222 = await stack.api.call('GET', dppPath(dppId), { key: null });
    assert.equal(en18222.status, 200, en18222.text);
    assert.equal(en18222.body.granularity, 'item');
    assert.ok(en18222.body.contentSpecificationIds.includes(V1));
    assert.equal(en18222.body[V1].generalProductInformation.warrantyPeriod, 'P10Y');
    assert.equal(en18222.body.contentSources[`/${V1}/generalProductInformation/warrantyPeriod`], batchId);
    assert.ok(!en18222.text.includes(SECRET_REPORT));

    // The item's own data (complete, as an item's PUT requires) overrides; what it leaves out is inherited.
    const own = structuredClone(BATTERY_DATA) as Json;
    own.generalProductInformation.manufacturerName = 'Voltaic Cells SE (item)';
    delete own.generalProductInformation.warrantyPeriod;
    const put = await stack.api.call('PUT', contentPath(dppId), { key: brand.testKey, body: own });
    assert.equal(put.status, 201, put.text);
    const merged = await stack.api.call('GET', contentPath(dppId), { key: null });
    assert.equal(merged.body.data.generalProductInformation.manufacturerName, 'Voltaic Cells SE (item)');
    assert.equal(merged.body.sources['/generalProductInformation/manufacturerName'], dppId);
    assert.equal(merged.body.data.generalProductInformation.warrantyPeriod, 'P10Y');
    assert.equal(merged.body.sources['/generalProductInformation/warrantyPeriod'], batchId);
    // The owner's ETag is still the one of the item's own data, so conditional writes keep working.
    const ownerRead = await stack.api.call('GET', contentPath(dppId), { key: brand.testKey });
    assert.equal(ownerRead.headers.get('etag'), put.headers.get('etag'));
  });

  test('an item under a model writes only what differs: its data is checked completed by what it inherits', async () => {
    const tokenId = await enrollAndMint(
      (method, path, body) => stack.api.call(method, path, { key: brand.testKey, body }),
      '04A1A2A3A4A503',
      { batch_number: LOT },
    );
    const dppId = await itemDppId(tokenId);
    const partial = structuredClone(BATTERY_DATA) as Json;
    delete partial.generalProductInformation.manufacturerName;
    delete partial.conformityAndLabels.testReportsProvingCompliance;
    const put = await stack.api.call('PUT', contentPath(dppId), { key: brand.testKey, body: partial });
    assert.equal(put.status, 201, put.text);
    assert.equal(
      put.body.data.generalProductInformation.manufacturerName,
      undefined,
      'the item stores its own',
    );
    const merged = await stack.api.call('GET', contentPath(dppId), { key: null });
    assert.equal(merged.body.data.generalProductInformation.manufacturerName, 'Voltaic Model Works');
    assert.equal(merged.body.sources['/generalProductInformation/manufacturerName'], modelId);
    assert.equal(merged.body.sources['/generalProductInformation/manufacturingDate'], dppId);

    // What no level provides is still required.
    const { carbonFootprint: _dropped, ...missing } = partial;
    const refused = await stack.api.call('PUT', contentPath(dppId), { key: brand.testKey, body: missing });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.code, 'content_invalid');
    assert.ok(refused.body.errors.some((error: Json) => error.path === '/carbonFootprint'));
  });

  test('the ERP names the batch at provisioning: the toolbox-bound item inherits its batch and model', async () => {
    const call = (method: string, path: string, body?: unknown) =>
      stack.api.call(method, path, { key: brand.testKey, ...(body === undefined ? {} : { body }) });
    const toolbox = generateKeyPairSync('ed25519');
    const key = await call('POST', '/v1/factory/toolbox-keys', {
      name: 'Line 1',
      publicKey: toolbox.publicKey.export({ format: 'jwk' }),
    });
    assert.equal(key.status, 201, key.text);
    const badLot = await call('POST', '/v1/erp/provision', {
      gtin: GTIN,
      batch: 'LOT 7 with spaces',
      metadata: { name: 'Battery pack' },
    });
    assert.equal(badLot.status, 400, badLot.text);
    const provisioned = await call('POST', '/v1/erp/provision', {
      gtin: GTIN,
      batch: LOT,
      metadata: { name: 'Battery pack', conformity_url: CONFORMITY_URL },
    });
    assert.equal(provisioned.status, 201, provisioned.text);
    const id: string = provisioned.body.service_internal_id;
    const uid = '04A1A2A3A4A504';
    assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: uid })).status, 201);
    const verified = await call('POST', '/v1/dpp/verify-chip', verifyChipBody(uid, 1));
    assert.equal(verified.body.authentic, true, verified.text);
    const signature = sign(null, Buffer.from(`${id}:${uid}`), toolbox.privateKey).toString('hex');
    const bound = await call('POST', '/v1/factory/bind', { internalId: id, chipUid: uid, signature });
    assert.equal(bound.status, 201, bound.text);

    const dppId = await itemDppId(bound.body.tokenId);
    const merged = await stack.api.call('GET', contentPath(dppId), { key: null });
    assert.equal(merged.status, 200, merged.text);
    assert.equal(merged.body.data.generalProductInformation.warrantyPeriod, 'P10Y');
    assert.equal(merged.body.sources['/generalProductInformation/warrantyPeriod'], batchId);
    assert.equal(merged.body.sources['/generalProductInformation/manufacturerName'], modelId);
  });

  test('a model created after the item applies to it (found by key at read time)', async () => {
    const tokenId = await enrollAndMint(
      (method, path, body) => stack.api.call(method, path, { key: brand.testKey, body }),
      '04A1A2A3A4A502',
      { gtin: OTHER_GTIN },
    );
    const dppId = await itemDppId(tokenId, OTHER_GTIN);
    const before = await stack.api.call('GET', contentPath(dppId), { key: null });
    assert.equal(before.status, 404, before.text);
    const model = await create(modelBody(OTHER_GTIN), brand.testKey);
    assert.equal(model.status, 201, model.text);
    const after = await stack.api.call('GET', contentPath(dppId), { key: null });
    assert.equal(after.status, 200, after.text);
    assert.equal(after.body.data.generalProductInformation.manufacturerName, 'Voltaic Model Works');
    assert.equal(
      after.body.sources['/generalProductInformation/manufacturerName'],
      model.body.digitalProductPassportId,
    );
  });
});
