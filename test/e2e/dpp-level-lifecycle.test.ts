import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { contentPath, BATTERY_V1 as V1 } from '../support/fixtures/battery.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN, OTHER_GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

/**
 * The life cycle of model and batch passports through EN 18222 (issue 34, docs/granularity.md "Life cycle"):
 * PUT, merge patch and element writes and status changes, each with the rules items follow, whatever the path.
 */
describe('model and batch passports: updates and status changes', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let other: TestTenant;
  let modelId: string;
  const dppPath = (dppId: string) => `/v1/dpps/${encodeURIComponent(dppId)}`;
  const elementPath = (dppId: string, path: string) =>
    `${dppPath(dppId)}/elements/${encodeURIComponent(path)}`;
  const WARRANTY = `$['${V1}']['generalProductInformation']['warrantyPeriod']`;
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    stack.api.call(method, path, { key: brand.testKey, body, headers });

  /** The three data write paths of a level, each setting the battery's general data to `general`. */
  const writes = (dppId: string, general: Record<string, unknown>, headers: Record<string, string> = {}) => ({
    put: () => call('PUT', dppPath(dppId), { [V1]: { generalProductInformation: general } }, headers),
    patch: () => call('PATCH', dppPath(dppId), { [V1]: { generalProductInformation: general } }, headers),
    element: () => {
      const [name, value] = Object.entries(general)[0]!;
      const path = `$['${V1}']['generalProductInformation']['${name}']`;
      return call('PATCH', elementPath(dppId, path), value, headers);
    },
    content: () => call('PUT', contentPath(dppId), { generalProductInformation: general }, headers),
  });
  /** A third product, for the tests that need a model of their own. */
  const THIRD_GTIN = '09506000134376';
  const versions = async (dppId: string) =>
    (await call('GET', `${dppPath(dppId)}/versions`)).body.items.length as number;

  beforeAll(async () => {
    stack = await startTestStack();
    brand = await stack.api.createTenant('Voltaic Cells');
    other = await stack.api.createTenant('Copycat Cells');
    const created = await call('POST', '/v1/dpps', {
      granularity: 'Model',
      gtin: GTIN,
      [V1]: {
        generalProductInformation: { manufacturerName: 'Voltaic Model Works', batteryStatus: 'repurposed' },
      },
    });
    assert.equal(created.status, 201, created.text);
    modelId = created.body.digitalProductPassportId;
  }, 600_000);
  afterAll(async () => {
    await stack?.close();
  });

  test('PUT, merge patch and element each write a new version with its hashes; partial data is enough', async () => {
    const put = await call('PUT', dppPath(modelId), {
      dppStatus: 'archived',
      [V1]: {
        generalProductInformation: {
          manufacturerName: 'Voltaic Model Works',
          batteryStatus: 'repurposed',
          warrantyPeriod: 'P8Y',
        },
      },
    });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body.ignored, ['dppStatus'], 'the header is not written by PUT');
    assert.equal(put.body.version.number, 2);
    assert.equal(put.body.version.address, `${dppPath(modelId)}/versions/2`);
    assert.equal(put.body.sections[0].event, null, 'a level has no token: no event');

    const patch = await call('PATCH', dppPath(modelId), {
      [V1]: { generalProductInformation: { warrantyPeriod: 'P9Y' } },
    });
    assert.equal(patch.status, 200, patch.text);
    assert.equal(patch.body.version.number, 3);
    const element = await call('PATCH', elementPath(modelId, WARRANTY), 'P10Y');
    assert.equal(element.status, 200, element.text);
    assert.equal(element.text, 'P10Y', 'answered as items answer a string element');

    const read = await call('GET', dppPath(modelId));
    assert.equal(read.body[V1].generalProductInformation.warrantyPeriod, 'P10Y');
    assert.equal(
      read.body[V1].generalProductInformation.manufacturerName,
      'Voltaic Model Works',
      'merged, kept',
    );
    assert.equal(await versions(modelId), 4);
    const v2 = await call('GET', put.body.version.address);
    assert.equal(v2.status, 200, v2.text);
    assert.equal(
      v2.body.dpp[V1].generalProductInformation.warrantyPeriod,
      'P8Y',
      'a version stays as recorded',
    );
    assert.equal(v2.body.publicSha256, put.body.version.publicSha256);

    const same = await call('PATCH', dppPath(modelId), {
      [V1]: { generalProductInformation: { warrantyPeriod: 'P10Y' } },
    });
    assert.equal(same.status, 200, same.text);
    assert.equal(same.body.version, null, 'no change, no version');
    assert.equal((await call('PATCH', dppPath(modelId), {}, {})).body.code, 'no_product_group_section');
    const foreign = await stack.api.call('PATCH', dppPath(modelId), {
      key: other.testKey,
      body: { [V1]: {} },
    });
    assert.equal(foreign.status, 404, 'another company’s passport does not exist for you');
  });

  test('every write path enforces the same rules: schema, battery status, If-Match', async () => {
    for (const [path, write] of Object.entries(writes(modelId, { batteryMassKg: -1 }))) {
      const refused = await write();
      assert.equal(refused.status, 400, `${path}: ${refused.text}`);
      assert.equal(refused.body.code, 'content_invalid', path);
    }
    for (const [path, write] of Object.entries(writes(modelId, { batteryStatus: 'original' }))) {
      const refused = await write();
      assert.equal(refused.status, 409, `${path}: ${refused.text}`);
      assert.equal(refused.body.code, 'battery_status_final', path);
    }
    const content = await call('GET', contentPath(modelId));
    const etag = content.headers.get('etag')!;
    assert.ok(etag, 'the owner’s content read names the ETag a write takes');
    for (const [path, write] of Object.entries(
      writes(modelId, { warrantyPeriod: 'P1Y' }, { 'If-Match': '"stale"' }),
    )) {
      const refused = await write();
      assert.equal(refused.status, 412, `${path}: ${refused.text}`);
      assert.equal(refused.body.code, 'precondition_failed', path);
      assert.equal(refused.body.currentETag, etag, path);
    }
    const before = await versions(modelId);
    const held = await call('PATCH', elementPath(modelId, WARRANTY), 'P11Y', { 'If-Match': etag });
    assert.equal(held.status, 200, held.text);
    assert.notEqual(held.headers.get('etag'), etag);
    assert.equal(await versions(modelId), before + 1, 'nothing refused wrote a version');
    const missing = await call('PATCH', elementPath(modelId, `$['${V1}']['nothing']['here']`), 1);
    assert.equal(missing.body.code, 'element_not_found');
  });

  test('suspend, reactivate, archive: the items’ rule on every path; the archive is final with retainUntil', async () => {
    const suspend = await call('POST', `${dppPath(modelId)}/status`, {
      action: 'suspend',
      reason: 'recall check',
    });
    assert.equal(suspend.status, 200, suspend.text);
    assert.equal(suspend.body.dppStatus, 'suspended');
    assert.equal(suspend.body.previousStatus, 'active');
    assert.equal(suspend.body.event, null);
    assert.equal((await call('GET', dppPath(modelId))).body.dppStatus, 'suspended');
    for (const [path, write] of Object.entries(writes(modelId, { warrantyPeriod: 'P2Y' }))) {
      const refused = await write();
      assert.equal(refused.status, 409, `${path}: ${refused.text}`);
      assert.equal(refused.body.code, 'dpp_suspended', path);
    }
    const again = await call('POST', `${dppPath(modelId)}/status`, { action: 'suspend' });
    assert.equal(again.body.code, 'dpp_status_transition_refused');
    const back = await call('POST', `${dppPath(modelId)}/status`, { action: 'reactivate' });
    assert.equal(back.body.dppStatus, 'active', back.text);

    const archive = await call('POST', `${dppPath(modelId)}/status`, { action: 'archive' });
    assert.equal(archive.status, 200, archive.text);
    assert.equal(archive.body.retention.rule, 'battery');
    assert.equal(archive.body.retention.retainUntil, null, 'a battery passport has no end date');
    const archived = await call('GET', dppPath(modelId), undefined);
    assert.equal(archived.body.dppStatus, 'archived');
    assert.equal(archived.body.retainUntil, undefined);
    for (const [path, write] of Object.entries(writes(modelId, { warrantyPeriod: 'P3Y' }))) {
      const refused = await write();
      assert.equal(refused.status, 409, `${path}: ${refused.text}`);
      assert.equal(refused.body.code, 'dpp_archived', path);
    }
    for (const action of ['reactivate', 'suspend', 'end_of_life', 'archive']) {
      const refused = await call('POST', `${dppPath(modelId)}/status`, { action });
      assert.equal(refused.body.code, 'dpp_archived', action);
    }
    const all = await call('GET', `${dppPath(modelId)}/versions`);
    for (const version of all.body.items) {
      assert.equal((await call('GET', `${dppPath(modelId)}/versions/${version.number}`)).status, 200);
    }
    assert.equal((await call('DELETE', dppPath(modelId))).status, 405, 'still never deleted');
  });

  test('a model with no product-group data archives under the default rule: retainUntil in its EN 18222 read', async () => {
    const created = await call('POST', '/v1/dpps', { granularity: 'Model', gtin: OTHER_GTIN });
    assert.equal(created.status, 201, created.text);
    const id = created.body.digitalProductPassportId;
    const end = await call('POST', `${dppPath(id)}/status`, { action: 'end_of_life' });
    assert.equal(end.status, 200, end.text);
    assert.equal(end.body.retention.rule, 'default');
    const until = new Date(end.body.retention.retainUntil);
    assert.equal(until.getUTCFullYear(), new Date().getUTCFullYear() + 10);
    const read: Json = await stack.api.call('GET', dppPath(id), { key: null });
    assert.equal(read.body.dppStatus, 'archived');
    assert.equal(read.body.retainUntil, end.body.retention.retainUntil);
    const version = await call('GET', end.body.version.address);
    assert.equal(version.body.dpp.retainUntil, end.body.retention.retainUntil, 'the archive is a version');
  });

  test('a merge patch starts a section a level has no data for (partial data)', async () => {
    const batch = await call('POST', '/v1/dpps', { granularity: 'Batch', gtin: OTHER_GTIN, lot: 'LOT-P' });
    assert.equal(batch.status, 201, batch.text);
    const id = batch.body.digitalProductPassportId;
    const started = await call('PATCH', dppPath(id), {
      [V1]: { generalProductInformation: { warrantyPeriod: 'P5Y' } },
    });
    assert.equal(started.status, 200, started.text);
    assert.equal(started.body.sections[0].created, true);
    assert.equal(started.body.version.number, 2);
    const read = await call('GET', contentPath(id));
    assert.deepEqual(read.body.data, { generalProductInformation: { warrantyPeriod: 'P5Y' } });
  });

  test('an item under an archived model still merges its data; the item’s own status is its own', async () => {
    const tokenId = await enrollAndMint(
      (method, path, body) => stack.api.call(method, path, { key: brand.testKey, body }),
      '04A1A2A3A4A577',
    );
    const view = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, { env: null });
    const itemId = view.body.dppHeader.digitalProductPassportId as string;
    const content = await stack.api.call('GET', contentPath(itemId), { key: null });
    assert.equal(content.status, 200, content.text);
    assert.equal(content.body.data.generalProductInformation.manufacturerName, 'Voltaic Model Works');
    assert.equal(content.body.sources['/generalProductInformation/manufacturerName'], modelId);
    const item = await stack.api.call('GET', dppPath(itemId), { key: null });
    assert.equal(item.body.dppStatus, 'active', 'the model’s archive does not archive its items');
  });

  test('PUT …/content/{specId} writes a level as its PUT does: with and without If-Match, a version each', async () => {
    const created = await call('POST', '/v1/dpps', {
      granularity: 'Model',
      gtin: THIRD_GTIN,
      [V1]: { generalProductInformation: { manufacturerName: 'Third Works' } },
    });
    assert.equal(created.status, 201, created.text);
    const id = created.body.digitalProductPassportId;
    const plain = await call('PUT', contentPath(id), {
      generalProductInformation: { manufacturerName: 'Third Works', warrantyPeriod: 'P4Y' },
    });
    assert.equal(plain.status, 200, plain.text);
    assert.equal(plain.body.version.number, 2);
    assert.equal(plain.body.event, null, 'a level has no token: no event');
    assert.deepEqual(plain.body.data.generalProductInformation, {
      manufacturerName: 'Third Works',
      warrantyPeriod: 'P4Y',
    });
    const etag = plain.headers.get('etag')!;
    assert.equal((await call('GET', contentPath(id))).headers.get('etag'), etag, 'the ETag the read sends');
    const held = await call(
      'PUT',
      contentPath(id),
      { generalProductInformation: { warrantyPeriod: 'P6Y' } },
      {
        'If-Match': etag,
      },
    );
    assert.equal(held.status, 200, held.text);
    assert.equal(held.body.version.number, 3);
    assert.equal(held.body.version.address, `${dppPath(id)}/versions/3`);
    const stale = await call('PUT', contentPath(id), { generalProductInformation: {} }, { 'If-Match': etag });
    assert.equal(stale.status, 412, stale.text);
    assert.equal(stale.body.currentETag, held.headers.get('etag'));
    const same = await call('PUT', contentPath(id), { generalProductInformation: { warrantyPeriod: 'P6Y' } });
    assert.equal(same.status, 200, same.text);
    assert.equal(same.body.version.number, 3, 'nothing changed: the latest version, no new one');
    const fresh = await call('PUT', contentPath(id, 'urn:dpp-service:spec:battery:9.0.0'), {});
    assert.equal(fresh.status, 404, fresh.text);
    const foreign = await stack.api.call('PUT', contentPath(id), { key: other.testKey, body: {} });
    assert.equal(foreign.status, 404, 'another company’s passport does not exist for you');
  });
});
