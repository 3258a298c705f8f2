import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { fullBatteryData } from '../fixtures/battery-passport-data.ts';
import type { TestTenant } from '../support/api.ts';
import { enrollAndMint, mintBody } from '../support/fixtures/mint.ts';
import { CONFORMITY_URL, GTIN, TRAIL_JACKET } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

const V1 = 'urn:dpp-service:spec:battery:1.0.0';
/** The two values the audit stored, anchored and served as xs:dateTime (issue 33 item 3). */
const AUDIT = ['9999-99-99T99:99:99Z', '2026-02-30T25:61:00Z'];

/**
 * Impossible dates are refused on every write path with the path's usual 400, and nothing is stored: content (PUT)
 * and dynamic data (content_invalid naming the member), mint's custom data and the dead-letter replay window
 * (validation_failed). The rule itself: test/unit/time/rfc3339.test.ts.
 */
describe('impossible dates are refused on every write path', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let dppId: string;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: brand.testKey, ...(body === undefined ? {} : { body }) });
  const content = () => `/v1/dpps/${encodeURIComponent(dppId)}/content/${encodeURIComponent(V1)}`;
  const versionCount = async () => {
    const list = await call('GET', `/v1/dpps/${encodeURIComponent(dppId)}/versions?limit=100`);
    assert.equal(list.status, 200, list.text);
    return list.body.items.length as number;
  };

  const mintPassport = async (chipUid: string): Promise<string> => {
    const tokenId = await enrollAndMint((m, p, b) => call(m, p, b), chipUid);
    const view = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, { env: null });
    assert.equal(view.status, 200, view.text);
    return view.body.dppHeader.digitalProductPassportId;
  };

  beforeAll(async () => {
    stack = await startTestStack();
    brand = await stack.api.createTenant('Voltaic Cells');
    dppId = await mintPassport('04A1DA7E5A0102');
  }, 600_000);
  afterAll(() => stack?.close());

  test('PUT content: an impossible measuredAt or manufacturingDate → 400 content_invalid naming it', async () => {
    for (const value of AUDIT) {
      const data: Json = fullBatteryData();
      data.performanceAndDurability.batteryCondition.measuredAt = value;
      const refused = await call('PUT', content(), data);
      assert.equal(refused.status, 400, refused.text);
      assert.equal(refused.body.code, 'content_invalid');
      assert.deepEqual(
        refused.body.errors.map((e: Json) => e.path),
        ['/performanceAndDurability/batteryCondition/measuredAt'],
        value,
      );
    }
    const data: Json = fullBatteryData();
    data.generalProductInformation.manufacturingDate = '2026-02-29';
    const refused = await call('PUT', content(), data);
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(
      refused.body.errors.map((e: Json) => e.path),
      ['/generalProductInformation/manufacturingDate'],
    );
    assert.equal((await call('GET', content())).status, 404, 'nothing stored');
  });

  test('dynamic data: an impossible measuredAt or occurredAt → 400 content_invalid naming it, no version', async () => {
    dppId = await mintPassport('04A1DA7E5A0105'); // its own passport: independent of the PUT test's outcome
    const written = await call('PUT', content(), fullBatteryData());
    assert.equal(written.status, 201, written.text);
    const before = await versionCount();
    for (const value of AUDIT) {
      const refused = await call('POST', `${content()}/dynamic`, {
        batteryCondition: { measuredAt: value, stateOfHealthPercent: 91 },
        negativeEvents: [{ description: 'Cell imbalance above 80 mV', occurredAt: value }],
      });
      assert.equal(refused.status, 400, refused.text);
      assert.equal(refused.body.code, 'content_invalid');
      assert.deepEqual(
        refused.body.errors.map((e: Json) => e.path).sort(),
        ['/batteryCondition/measuredAt', '/negativeEvents/0/occurredAt'],
        value,
      );
    }
    assert.equal(await versionCount(), before, 'no version written');
    const current = await call('GET', content());
    assert.equal(
      current.body.data.performanceAndDurability.batteryCondition.measuredAt,
      (fullBatteryData() as Json).performanceAndDurability.batteryCondition.measuredAt,
    );
  });

  test('mint: custom_dpp_data.manufacturingDate must be a real day (year 0000 and 30 February refused)', async () => {
    for (const [chipUid, manufacturingDate] of [
      ['04A1DA7E5A0103', '0000-01-01'],
      ['04A1DA7E5A0104', '2026-02-30'],
    ] as const) {
      assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid })).status, 201);
      const refused = await call(
        'POST',
        '/v1/dpp/mint',
        mintBody({
          chipUid,
          ...TRAIL_JACKET,
          custom_dpp_data: { gtin: GTIN, conformity_url: CONFORMITY_URL, manufacturingDate },
        }),
      );
      assert.equal(refused.status, 400, `${manufacturingDate}: ${refused.text}`);
      assert.equal(refused.body.code, 'validation_failed', refused.text);
    }
  });

  test('dead-letter replay window: from/to must be real instants within xs:dateTime’s offsets', async () => {
    for (const [from, to] of [
      ['2026-02-30T00:00:00Z', '2026-03-02T00:00:00Z'],
      ['2026-11-01T00:00:00+15:00', '2026-11-27T00:00:00Z'],
      ['0000-01-01T00:00:00Z', '2026-11-27T00:00:00Z'],
    ]) {
      const refused = await call('POST', '/v1/webhooks/dead-letters/replay', { from, to });
      assert.equal(refused.status, 400, `${from}: ${refused.text}`);
      assert.equal(refused.body.code, 'validation_failed', refused.text);
    }
    // The listing's filter takes the same rule.
    const listed = await call('GET', '/v1/webhooks/dead-letters?from=2026-02-30T00:00:00Z');
    assert.equal(listed.status, 400, listed.text);
    const offset = await call('GET', '/v1/webhooks/dead-letters?from=2026-11-01T00:00:00%2B15:00');
    assert.equal(offset.status, 400, offset.text);
  });
});
