import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { fullBatteryData } from '../fixtures/battery-passport-data.ts';
import type { TestTenant } from '../support/api.ts';
import { sha256 } from '../support/canonical-sha256.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

const V1 = 'urn:dpp-service:spec:battery:1.0.0';

/**
 * Issue 33 items 1 and 7: the battery status rules hold on every write path (PUT, dynamic data, repurposing),
 * only the brand or a granted recycler declares waste, a PUT is anchored like a dynamic update, and a PUT
 * prepared from an earlier read neither erases anchored appended data nor passes a stale If-Match.
 */
describe('battery passport: status rules, anchored rewrites, optimistic concurrency', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let repairer: TestTenant;
  let recycler: TestTenant;
  const call = (
    method: string,
    path: string,
    body?: unknown,
    key = brand.testKey,
    headers: Record<string, string> = {},
  ) => stack.api.call(method, path, { key, headers, ...(body === undefined ? {} : { body }) });
  const content = (dppId: string) =>
    `/v1/dpps/${encodeURIComponent(dppId)}/content/${encodeURIComponent(V1)}`;
  const dynamic = (dppId: string) => `${content(dppId)}/dynamic`;
  const withStatus = (status: string) => {
    const data = fullBatteryData();
    data.generalProductInformation.batteryStatus = status;
    return data;
  };
  const mintBattery = async (chipUid: string, owner?: TestTenant) => {
    const key = (owner ?? brand).testKey;
    const tokenId = await enrollAndMint(
      (m, p, b) => stack.api.call(m, p, { key, ...(b === undefined ? {} : { body: b }) }),
      chipUid,
      { manufacturer_name: 'Voltaic Cells SE' },
    );
    const view = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, { env: null });
    assert.equal(view.status, 200, view.text);
    const dppId = view.body.dppHeader.digitalProductPassportId as string;
    const written = await call('PUT', content(dppId), fullBatteryData(), key);
    assert.equal(written.status, 201, written.text);
    return { dppId, tokenId };
  };
  const statusOf = async (dppId: string) => {
    const shown = await stack.api.call('GET', `/v1/dpps/${encodeURIComponent(dppId)}`, { env: 'test' });
    assert.equal(shown.status, 200, shown.text);
    return shown.body[V1].generalProductInformation.batteryStatus;
  };
  const anchored = (eventId: number) =>
    stack.temporal.client.workflow.getHandle(`anchor-event:test:${eventId}`).result();

  beforeAll(async () => {
    stack = await startTestStack();
    brand = await stack.api.createTenant('Voltaic Cells');
    repairer = await stack.api.createTenant('Second Life Storage');
    recycler = await stack.api.createTenant('Black Mass Recovery');
    for (const [grantee, role] of [
      [repairer, 'repairer'],
      [recycler, 'recycler'],
    ] as const) {
      const granted = await call('POST', '/v1/disclosure-grants', {
        granteeCompanyId: grantee.companyId,
        role,
      });
      assert.equal(granted.status, 201, granted.text);
    }
  }, 600_000);
  afterAll(() => stack?.close());

  test('waste is final on PUT too: the scrapped battery is not made original again', async () => {
    const { dppId } = await mintBattery('04E1E2E3E4E501');
    const waste = await call('POST', dynamic(dppId), { batteryStatus: 'waste' });
    assert.equal(waste.status, 201, waste.text);
    const back = await call('PUT', content(dppId), withStatus('original'));
    assert.equal(back.status, 409, back.text);
    assert.equal(back.body.code, 'battery_status_final');
    const reused = await call('PUT', content(dppId), withStatus('reused'));
    assert.equal(reused.status, 409, reused.text);
    assert.equal(await statusOf(dppId), 'waste');
    // Other data of a waste battery may still be corrected, its status kept.
    const data = withStatus('waste');
    data.generalProductInformation.warrantyPeriod = 'P3Y';
    const corrected = await call('PUT', content(dppId), data);
    assert.equal(corrected.status, 200, corrected.text);
  });

  test('reused, repurposed, remanufactured never go back to original, on PUT as on dynamic data', async () => {
    const { dppId } = await mintBattery('04E1E2E3E4E502');
    const reused = await call('PUT', content(dppId), withStatus('reused'));
    assert.equal(reused.status, 200, reused.text);
    const back = await call('PUT', content(dppId), withStatus('original'));
    assert.equal(back.status, 409, back.text);
    assert.equal(back.body.code, 'battery_status_final');
    const backDynamic = await call('POST', dynamic(dppId), { batteryStatus: 'original' });
    assert.equal(backDynamic.status, 409, backDynamic.text);
    assert.equal(await statusOf(dppId), 'reused');
  });

  test('waste is declared by the brand or a granted recycler, never by a repairer', async () => {
    const { dppId } = await mintBattery('04E1E2E3E4E503');
    const byRepairer = await call('POST', dynamic(dppId), { batteryStatus: 'waste' }, repairer.testKey);
    assert.equal(byRepairer.status, 403, byRepairer.text);
    assert.equal(byRepairer.body.code, 'waste_declaration_forbidden');
    assert.equal(await statusOf(dppId), 'original');
    // A recycler writes the status waste and nothing else.
    const measure = await call(
      'POST',
      dynamic(dppId),
      { batteryCondition: { measuredAt: '2026-11-27T10:00:00Z', stateOfChargePercent: 1, fullCycles: 2 } },
      recycler.testKey,
    );
    assert.equal(measure.status, 403, measure.text);
    assert.equal(measure.body.code, 'writer_role_forbidden');
    const byRecycler = await call('POST', dynamic(dppId), { batteryStatus: 'waste' }, recycler.testKey);
    assert.equal(byRecycler.status, 201, byRecycler.text);
    assert.equal(byRecycler.body.writerRole, 'recycler');
    assert.equal(await statusOf(dppId), 'waste');
    await anchored(byRecycler.body.event.id);
  });

  test('repurposing: a linked battery is not made original by PUT, a waste battery is not repurposed', async () => {
    const { dppId: original } = await mintBattery('04E1E2E3E4E504');
    const { dppId: successor } = await mintBattery('04E1E2E3E4E505', repairer);
    const linked = await call(
      'POST',
      `${content(original)}/repurpose`,
      { successorDppId: successor },
      repairer.testKey,
    );
    assert.equal(linked.status, 201, linked.text);
    const brandBack = await call('PUT', content(original), withStatus('original'));
    assert.equal(brandBack.status, 409, brandBack.text);
    assert.equal(brandBack.body.code, 'battery_status_final');
    const repurposerBack = await call('PUT', content(successor), withStatus('original'), repairer.testKey);
    assert.equal(repurposerBack.status, 409, repurposerBack.text);
    assert.equal(await statusOf(original), 'repurposed');
    assert.equal(await statusOf(successor), 'repurposed');

    const { dppId: scrapped } = await mintBattery('04E1E2E3E4E506');
    const { dppId: second } = await mintBattery('04E1E2E3E4E507', repairer);
    assert.equal((await call('POST', dynamic(scrapped), { batteryStatus: 'waste' })).status, 201);
    const refused = await call(
      'POST',
      `${content(scrapped)}/repurpose`,
      { successorDppId: second },
      repairer.testKey,
    );
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.code, 'battery_status_final');
  });

  test('a PUT that changes the data is a PRODUCT_DATA_UPDATED event anchored on chain', async () => {
    const { dppId, tokenId } = await mintBattery('04E1E2E3E4E508');
    const data = fullBatteryData();
    data.generalProductInformation.warrantyPeriod = 'P10Y';
    const put = await call('PUT', content(dppId), data);
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.event.action, 'PRODUCT_DATA_UPDATED');
    assert.equal(put.body.event.dataSha256, sha256(put.body.data));
    const listed = await call('GET', `/v1/iaas/events?tokenId=${tokenId}`);
    assert.equal(listed.status, 200, listed.text);
    const events = listed.body.events.filter((e: Json) => e.action === 'PRODUCT_DATA_UPDATED');
    const event = events.find((e: Json) => e.id === put.body.event.id);
    assert.ok(event, JSON.stringify(listed.body.events));
    assert.equal(event.metadata.writerRole, 'operator');
    assert.deepEqual(event.metadata.changedFields, ['/generalProductInformation/warrantyPeriod']);
    // The first write (201) is anchored too.
    assert.equal(events.length, 2);
    await anchored(put.body.event.id);
    const followed = await call('GET', `${dynamic(dppId)}/${put.body.event.id}`);
    assert.equal(followed.status, 200, followed.text);
    assert.match(followed.body.event.transactionHash, /^0x[0-9a-f]{64}$/);
    // The version the PUT made is the one the event's data hash commits to.
    const version = await call(
      'GET',
      `/v1/dpps/${encodeURIComponent(dppId)}/versions/${put.body.version.number}`,
    );
    assert.equal(sha256(version.body.dpp[V1]), put.body.event.dataSha256);
    // Writing the same data again changes nothing: no event.
    const same = await call('PUT', content(dppId), data);
    assert.equal(same.status, 200, same.text);
    assert.equal(same.body.event, null);
  });

  test('PUT takes If-Match: the ETag of GET; a stale or bogus one is refused with 412 and the current version', async () => {
    const { dppId } = await mintBattery('04E1E2E3E4E509');
    const read = await call('GET', content(dppId));
    const etag = read.headers.get('etag');
    assert.match(etag ?? '', /^"[A-Za-z0-9_-]+"$/);
    for (const bogus of ['"bogus"', 'bogus', `W/${etag}`]) {
      const refused = await call('PUT', content(dppId), read.body.data, brand.testKey, { 'if-match': bogus });
      assert.equal(refused.status, 412, `${bogus}: ${refused.text}`);
      assert.equal(refused.body.code, 'precondition_failed');
      assert.equal(refused.body.currentETag, etag);
      assert.equal(typeof refused.body.currentVersion, 'number');
      assert.match(refused.headers.get('content-type') ?? '', /application\/problem\+json/);
      assert.equal(refused.headers.get('etag'), etag);
    }
    const data = structuredClone(read.body.data);
    data.generalProductInformation.warrantyPeriod = 'P4Y';
    const written = await call('PUT', content(dppId), data, brand.testKey, { 'if-match': etag as string });
    assert.equal(written.status, 200, written.text);
    const next = written.headers.get('etag');
    assert.ok(next && next !== etag);
    assert.equal((await call('GET', content(dppId))).headers.get('etag'), next);
    // The old ETag is stale now.
    const stale = await call('PUT', content(dppId), read.body.data, brand.testKey, {
      'if-match': etag as string,
    });
    assert.equal(stale.status, 412, stale.text);
    assert.equal(stale.body.currentETag, next);
    assert.equal(stale.body.currentVersion, written.body.version.number);
  });

  test('the audit’s scenario: a repairer’s accident report survives a PUT prepared before it', async () => {
    const { dppId } = await mintBattery('04E1E2E3E4E510');
    const read = await call('GET', content(dppId));
    const report = 'https://example.com/reports/accident-99';
    const appended = await call('POST', dynamic(dppId), { accidentReports: [report] }, repairer.testKey);
    assert.equal(appended.status, 201, appended.text);
    // With the read's ETag the stale PUT is refused…
    const guarded = await call('PUT', content(dppId), read.body.data, brand.testKey, {
      'if-match': read.headers.get('etag') as string,
    });
    assert.equal(guarded.status, 412, guarded.text);
    // …without it, the append-only lists keep what was appended: the report stays in the current passport.
    const data = structuredClone(read.body.data);
    data.generalProductInformation.warrantyPeriod = 'P6Y';
    const stale = await call('PUT', content(dppId), data);
    assert.equal(stale.status, 200, stale.text);
    const condition = (await call('GET', content(dppId))).body.data.performanceAndDurability.batteryCondition;
    assert.deepEqual(condition.accidentReports, [report]);
    assert.equal(condition.negativeEvents.length, 1);
    const shown = await stack.api.call('GET', `/v1/dpps/${encodeURIComponent(dppId)}`, {
      env: 'test',
      key: brand.testKey,
    });
    assert.ok(shown.text.includes(report), 'the current version keeps the report');

    // The explicit correction: a PUT over the data as read now (If-Match) removes the report, anchored; the
    // version before keeps it.
    const current = await call('GET', content(dppId));
    const corrected = structuredClone(current.body.data);
    corrected.performanceAndDurability.batteryCondition.accidentReports = [];
    const correction = await call('PUT', content(dppId), corrected, brand.testKey, {
      'if-match': current.headers.get('etag') as string,
    });
    assert.equal(correction.status, 200, correction.text);
    assert.deepEqual(correction.body.data.performanceAndDurability.batteryCondition.accidentReports, []);
    const event = await call('GET', `/v1/iaas/events/${correction.body.event.id}`);
    assert.deepEqual(event.body.event.metadata.changedFields, [
      '/performanceAndDurability/batteryCondition/accidentReports',
    ]);
    await anchored(correction.body.event.id);
    const before = await call(
      'GET',
      `/v1/dpps/${encodeURIComponent(dppId)}/versions/${correction.body.version.number - 1}`,
    );
    assert.deepEqual(before.body.dpp[V1].performanceAndDurability.batteryCondition.accidentReports, [report]);
  });
});
