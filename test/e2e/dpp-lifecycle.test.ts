import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { fullBatteryData } from '../fixtures/battery-passport-data.ts';
import type { TestTenant } from '../support/api.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

const V1 = 'urn:dpp-service:spec:battery:1.0.0';
const CAPACITY = `$['${V1}']['performanceAndDurability']['ratedCapacityAh']`;

/**
 * Issue 34 item 3 for item passports: EN 18222 life-cycle writes (update whole, merge patch, by element) through
 * the one content write path, status changes (suspend, reactivate, archive, end of life) with retention, and a
 * DELETE that never deletes. Over HTTP against the whole stack.
 */
describe('EN 18222 life cycle: update, status changes, archive, no delete', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let stranger: TestTenant;
  let chip = 0x10;
  const call = (
    method: string,
    path: string,
    body?: unknown,
    key: string | null = brand.testKey,
    headers: Record<string, string> = {},
  ) =>
    stack.api.call(method, path, {
      ...(key ? { key } : { env: null }),
      headers,
      ...(body === undefined ? {} : { body }),
    });
  const dpp = (dppId: string) => `/v1/dpps/${encodeURIComponent(dppId)}`;
  const content = (dppId: string) => `${dpp(dppId)}/content/${encodeURIComponent(V1)}`;
  const element = (dppId: string, path: string) => `${dpp(dppId)}/elements/${encodeURIComponent(path)}`;
  const read = (dppId: string) => call('GET', `/test${dpp(dppId)}`, undefined, null);
  const anchored = (eventId: number) =>
    stack.temporal.client.workflow.getHandle(`anchor-event:test:${eventId}`).result();

  /** A minted passport, with battery data unless `battery` is false; its dppId and token id. */
  const mint = async (battery = true, custom: Record<string, unknown> = {}) => {
    chip += 1;
    const chipUid = `04A1B2C3D4E5${chip.toString(16).toUpperCase().padStart(2, '0')}`;
    const tokenId = await enrollAndMint(
      (m, p, b) => stack.api.call(m, p, { key: brand.testKey, ...(b === undefined ? {} : { body: b }) }),
      chipUid,
      { manufacturer_name: 'Voltaic Cells SE', ...custom },
    );
    const view = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, { env: null });
    assert.equal(view.status, 200, view.text);
    const dppId = view.body.dppHeader.digitalProductPassportId as string;
    if (battery) {
      const written = await call('PUT', content(dppId), fullBatteryData());
      assert.equal(written.status, 201, written.text);
    }
    return { dppId, tokenId };
  };
  const versions = async (dppId: string) => {
    const listed = await call('GET', `${dpp(dppId)}/versions?limit=100`);
    assert.equal(listed.status, 200, listed.text);
    return listed.body.items as Json[];
  };
  const status = (dppId: string, action: string, reason?: string) =>
    call('POST', `${dpp(dppId)}/status`, { action, ...(reason ? { reason } : {}) });

  beforeAll(async () => {
    stack = await startTestStack();
    brand = await stack.api.createTenant('Voltaic Cells');
    stranger = await stack.api.createTenant('Someone Else');
  }, 600_000);
  afterAll(() => stack?.close());

  test('PUT /v1/dpps/{dppId} writes the product-group section as PUT …/content does: ETag, If-Match, anchored', async () => {
    const { dppId } = await mint();
    const before = await call('GET', content(dppId));
    const etag = before.headers.get('etag')!;
    const document = (await call('GET', dpp(dppId))).body;
    const data = fullBatteryData();
    data.generalProductInformation.warrantyPeriod = 'P10Y';
    // A GET → edit → PUT round trip: header members and the service's own sections are left alone.
    const written = await call('PUT', dpp(dppId), { ...document, [V1]: data }, brand.testKey, {
      'If-Match': etag,
    });
    assert.equal(written.status, 200, written.text);
    assert.equal(written.body.sections.length, 1);
    assert.ok(written.body.ignored.includes('dppStatus'));
    const section = written.body.sections[0];
    assert.equal(section.contentSpecificationId, V1);
    assert.equal(written.headers.get('etag'), section.etag);
    const after = await call('GET', content(dppId));
    assert.equal(after.headers.get('etag'), section.etag, 'the ETag PUT …/content takes');
    assert.equal(after.body.data.generalProductInformation.warrantyPeriod, 'P10Y');
    const result: Json = await anchored(section.event.id);
    assert.match(result.transactionHash, /^0x[0-9a-f]{64}$/);
    // The stale ETag is refused, as on PUT …/content.
    const stale = await call('PUT', dpp(dppId), { [V1]: fullBatteryData() }, brand.testKey, {
      'If-Match': etag,
    });
    assert.equal(stale.status, 412, stale.text);
    assert.equal(stale.body.code, 'precondition_failed');
    // The battery rules hold on this path too: waste is final.
    const waste = fullBatteryData();
    waste.generalProductInformation.batteryStatus = 'waste';
    assert.equal((await call('PUT', dpp(dppId), { [V1]: waste })).status, 200);
    const back = await call('PUT', dpp(dppId), { [V1]: fullBatteryData() });
    assert.equal(back.status, 409, back.text);
    assert.equal(back.body.code, 'battery_status_final');
    const invalid = await call('PUT', dpp(dppId), { [V1]: { generalProductInformation: 1 } });
    assert.equal(invalid.status, 400, invalid.text);
    assert.equal(invalid.body.code, 'content_invalid');
    const none = await call('PUT', dpp(dppId), { dppStatus: 'active' });
    assert.equal(none.status, 400, none.text);
    assert.equal(none.body.code, 'no_product_group_section');
  });

  test('an element is written by its normalized path (PATCH or PUT), and a merge patch, through the same path', async () => {
    const { dppId } = await mint();
    const count = (await versions(dppId)).length;
    const patched = await call('PATCH', element(dppId, CAPACITY), 250);
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body, 250);
    const etag = patched.headers.get('etag')!;
    assert.equal((await call('GET', content(dppId))).headers.get('etag'), etag);
    const shown = await call(
      'GET',
      `/test${dpp(dppId)}/elements/${encodeURIComponent(CAPACITY)}`,
      undefined,
      null,
    );
    assert.equal(shown.status, 200, shown.text);
    assert.equal(shown.body, 250);
    assert.equal((await versions(dppId)).length, count + 1, 'a new version');
    const put = await call('PUT', element(dppId, CAPACITY), 260, brand.testKey, { 'If-Match': etag });
    assert.equal(put.status, 200, put.text);
    const stale = await call('PATCH', element(dppId, CAPACITY), 270, brand.testKey, { 'If-Match': etag });
    assert.equal(stale.status, 412, stale.text);
    const wrongType = await call('PATCH', element(dppId, CAPACITY), 'lots');
    assert.equal(wrongType.status, 400, wrongType.text);
    assert.equal(wrongType.body.code, 'content_invalid');
    const noParent = await call('PATCH', element(dppId, `$['${V1}']['nothing']['here']`), 1);
    assert.equal(noParent.status, 404, noParent.text);
    const outside = await call('PATCH', element(dppId, "$['dppStatus']"), 'archived');
    assert.equal(outside.status, 400, outside.text);
    assert.equal(outside.body.code, 'invalid_element_path');
    // BaSyx's updateDPPById: a JSON Merge Patch, sent as such.
    const merged = await call(
      'PATCH',
      dpp(dppId),
      { [V1]: { performanceAndDurability: { ratedCapacityAh: 280 } } },
      brand.testKey,
      { 'content-type': 'application/merge-patch+json' },
    );
    assert.equal(merged.status, 200, merged.text);
    const data = (await call('GET', content(dppId))).body.data;
    assert.equal(data.performanceAndDurability.ratedCapacityAh, 280);
    assert.equal(data.generalProductInformation.manufacturerName, 'Voltaic Cells SE', 'the rest is kept');
    const anchoredPatch: Json = await anchored(merged.body.sections[0].event.id);
    assert.ok(anchoredPatch.transactionHash);
  });

  test('suspend: readers see suspended, every write path refuses; reactivate restores writes', async () => {
    const { dppId, tokenId } = await mint();
    const suspended = await status(dppId, 'suspend', 'recall under investigation');
    assert.equal(suspended.status, 200, suspended.text);
    assert.equal(suspended.body.dppStatus, 'suspended');
    assert.equal(suspended.body.previousStatus, 'active');
    const result: Json = await anchored(suspended.body.event.id);
    assert.ok(result.transactionHash, 'the status change is anchored');
    const shown = await read(dppId);
    assert.equal(shown.body.dppStatus, 'suspended');
    const operatorSection = (await call('GET', dpp(dppId))).body;
    assert.ok(JSON.stringify(operatorSection).includes('DPP_STATUS_CHANGED'), 'the event is in the record');
    const scanned = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, {
      env: null,
    });
    assert.equal(scanned.body.status, 'SUSPENDED');
    assert.equal(scanned.body.dppHeader.dppStatus, 'suspended');
    const page = await stack.api.call('GET', `/test/verify/01/${GTIN}/21/${tokenId}`, { env: null });
    assert.equal(page.status, 200);
    assert.match(page.text, /data-status="SUSPENDED"/);
    assert.match(page.text, /<strong>Suspended\.<\/strong>/, 'the consumer is told what it means');
    for (const [method, path, body] of [
      ['PUT', content(dppId), fullBatteryData()],
      ['PUT', dpp(dppId), { [V1]: fullBatteryData() }],
      ['PATCH', element(dppId, CAPACITY), 1],
      ['POST', `${content(dppId)}/dynamic`, { batteryStatus: 'reused' }],
    ] as const) {
      const refused = await call(method, path, body);
      assert.equal(refused.status, 409, `${method} ${path}: ${refused.text}`);
      assert.equal(refused.body.code, 'dpp_suspended');
    }
    assert.equal((await status(dppId, 'suspend')).status, 409, 'already suspended');
    const back = await status(dppId, 'reactivate');
    assert.equal(back.status, 200, back.text);
    assert.equal(back.body.dppStatus, 'active');
    assert.equal((await read(dppId)).body.dppStatus, 'active');
    assert.equal((await call('PATCH', element(dppId, CAPACITY), 240)).status, 200);
    assert.equal((await status(dppId, 'reactivate')).status, 409, 'an active passport is not reactivated');
  });

  test('a revoked passport reads suspended and is not reactivated: a revocation is final', async () => {
    const { dppId, tokenId } = await mint(false);
    const revoked = await call('POST', '/v1/dpp/revoke', { tokenId, reason: 'counterfeit suspicion' });
    assert.equal(revoked.status, 200, revoked.text);
    assert.equal((await read(dppId)).body.dppStatus, 'suspended');
    const refused = await status(dppId, 'reactivate');
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.code, 'passport_revoked');
    assert.equal((await status(dppId, 'archive')).status, 200, 'it may still be archived');
    assert.equal((await read(dppId)).body.dppStatus, 'archived');
  });

  test('archive is final: versions stay readable with their hashes, writes 409, retention per product rule', async () => {
    const { dppId } = await mint();
    await call('PATCH', element(dppId, CAPACITY), 231);
    const archived = await status(dppId, 'archive', 'model discontinued');
    assert.equal(archived.status, 200, archived.text);
    assert.equal(archived.body.dppStatus, 'archived');
    // A battery passport is kept until the battery is recycled (Art. 77(8)): no end date.
    assert.equal(archived.body.retention.rule, 'battery');
    assert.equal(archived.body.retention.retainUntil, null);
    assert.match(archived.body.retention.basis, /2023\/1542 Art\. 77/);
    const header = (await read(dppId)).body;
    assert.equal(header.dppStatus, 'archived');
    assert.equal(header.retainUntil, undefined, 'no end date to show');
    for (const action of ['reactivate', 'suspend', 'archive', 'end_of_life']) {
      const refused = await status(dppId, action);
      assert.equal(refused.status, 409, refused.text);
      assert.equal(refused.body.code, 'dpp_archived');
    }
    for (const [method, path, body] of [
      ['PUT', content(dppId), fullBatteryData()],
      ['PUT', dpp(dppId), { [V1]: fullBatteryData() }],
      ['PATCH', dpp(dppId), { [V1]: { performanceAndDurability: { ratedCapacityAh: 1 } } }],
      ['PATCH', element(dppId, CAPACITY), 1],
      ['POST', `${content(dppId)}/dynamic`, { batteryStatus: 'reused' }],
    ] as const) {
      const refused = await call(method, path, body);
      assert.equal(refused.status, 409, `${method} ${path}: ${refused.text}`);
      assert.equal(refused.body.code, 'dpp_archived');
    }
    const all = await versions(dppId);
    assert.ok(all.length >= 3);
    for (const version of all) {
      const one = await call('GET', `/test${dpp(dppId)}/versions/${version.number}`, undefined, null);
      assert.equal(one.status, 200, one.text);
      assert.equal(
        one.body.publicSha256,
        version.publicSha256,
        'the permanent address serves the version as hashed',
      );
    }
    const last = all[all.length - 1];
    assert.equal(last.number, archived.body.version.number, 'the archive is itself a version');
    const permanent = await call('GET', `/test${archived.body.version.address}`, undefined, null);
    assert.equal(permanent.status, 200, permanent.text);
    assert.equal(permanent.body.dpp.dppStatus, 'archived', 'the archive version names its status');
    assert.equal(permanent.body.publicSha256, archived.body.version.publicSha256);
  });

  test('end of life of a passport without product-group data: archived with the default retention shown in the header', async () => {
    // What the UNTP credential needs besides (docs/untp.md): HS code, country and facility.
    const { dppId, tokenId } = await mint(false, {
      hsCode: '850760',
      originCountry: 'DE',
      manufacturer_gln: '4000001000005',
    });
    const ended = await status(dppId, 'end_of_life', 'product destroyed');
    assert.equal(ended.status, 200, ended.text);
    assert.equal(ended.body.retention.rule, 'default');
    const retainUntil = new Date(ended.body.retention.retainUntil);
    const years = (retainUntil.getTime() - Date.now()) / (365.25 * 24 * 3600 * 1000);
    assert.ok(years > 9.9 && years < 10.1, `${years} years`);
    const header = (await read(dppId)).body;
    assert.equal(header.dppStatus, 'archived');
    assert.equal(header.retainUntil, ended.body.retention.retainUntil);
    const scanned = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, {
      env: null,
    });
    assert.equal(scanned.body.status, 'ARCHIVED');
    assert.equal(scanned.body.dppHeader.retainUntil, ended.body.retention.retainUntil);
    // Every representation built from the header says the same: the UNTP credential, the ERP view.
    const untp = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=untp`, { env: null });
    assert.equal(untp.status, 200, untp.text);
    const untpHeader = untp.body.credentialSubject.characteristics.passportHeader;
    assert.equal(untpHeader.dppStatus, 'archived');
    assert.equal(untpHeader.retainUntil, ended.body.retention.retainUntil);
    const erp = await call('GET', `/test/01/${GTIN}/21/${tokenId}?format=erp`, undefined);
    assert.equal(erp.status, 200, erp.text);
    assert.equal(erp.body.dppHeader.dppStatus, 'archived');
    // An archived passport is a closed record: no supply-chain event is added to it.
    const logged = await call('POST', '/v1/iaas/log-event', {
      tokenId,
      action: 'SHIPPED',
      locationName: 'Port of Hamburg',
      latitude: 53.546,
      longitude: 9.9661,
    });
    assert.equal(logged.status, 409, logged.text);
    assert.equal(logged.body.code, 'dpp_archived');
  });

  test('DELETE never deletes: 405 with Allow and the archive to use; nothing changes, archived or not', async () => {
    const { dppId } = await mint();
    for (const archivedYet of [false, true]) {
      const before = await call('GET', dpp(dppId));
      const versionsBefore = await versions(dppId);
      const refused = await call('DELETE', dpp(dppId));
      assert.equal(refused.status, 405, refused.text);
      assert.equal(refused.headers.get('allow'), 'GET, PUT, PATCH');
      assert.equal(refused.headers.get('content-type'), 'application/problem+json');
      assert.equal(refused.body.code, 'dpp_delete_refused');
      assert.deepEqual(refused.body.archive, {
        method: 'POST',
        path: `${dpp(dppId)}/status`,
        body: { action: 'archive' },
      });
      const after = await call('GET', dpp(dppId));
      assert.equal(after.status, 200);
      assert.deepEqual(after.body, before.body, 'the document is unchanged');
      assert.deepEqual(await versions(dppId), versionsBefore, 'every version remains');
      assert.equal((await call('GET', content(dppId))).status, 200, 'the product-group data remains');
      if (!archivedYet) assert.equal((await status(dppId, 'archive')).status, 200);
    }
    const foreign = await call('DELETE', dpp(dppId), undefined, stranger.testKey);
    assert.equal(foreign.status, 404, foreign.text);
    const anonymous = await stack.api.call('DELETE', dpp(dppId), { env: 'test' });
    assert.equal(anonymous.status, 401, anonymous.text);
  });
});
