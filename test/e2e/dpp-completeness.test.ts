import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { BATTERY_DATA, BATTERY_MAKER, contentPath, BATTERY_V1 as V1 } from '../support/fixtures/battery.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

/**
 * GET /v1/dpps/{id}/completeness (issue 36, docs/console.md "Completeness"): what the UNTP credential, the
 * product-group rules and the EN 18223 header still need, from the same functions that refuse them.
 */
describe('passport completeness', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let other: TestTenant;
  const call = (method: string, path: string, body?: unknown, key = brand.testKey) =>
    stack.api.call(method, path, { key, ...(body === undefined ? {} : { body }) });
  const dppPath = (dppId: string) => `/v1/dpps/${encodeURIComponent(dppId)}`;
  const section = (body: Json, id: string) => body.sections.find((s: Json) => s.id === id);
  const itemDppId = async (tokenId: string) => {
    const view = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, { env: null });
    assert.equal(view.status, 200, view.text);
    return view.body.dppHeader.digitalProductPassportId as string;
  };

  beforeAll(async () => {
    stack = await startTestStack();
    brand = await stack.api.createTenant('Voltaic Cells');
    other = await stack.api.createTenant('Copycat Cells');
  }, 600_000);
  afterAll(async () => {
    await stack?.close();
  });

  test('an item goes from lacking UNTP facts, battery data and header to complete, agreeing with format=untp', async () => {
    const tokenId = await enrollAndMint(call, '04C0A1E5000001', BATTERY_MAKER);
    const dppId = await itemDppId(tokenId);
    const first = await call('GET', `${dppPath(dppId)}/completeness`);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.complete, false);
    assert.deepEqual(
      section(first.body, 'untp').missing.map((m: Json) => m.fix),
      [
        { kind: 'metadata', field: 'custom_dpp_data.hsCode' },
        { kind: 'metadata', field: 'custom_dpp_data.originCountry' },
        { kind: 'setting', setting: 'facilityId' },
      ],
    );
    // The credential is refused for the very facts the panel names.
    const untp = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=untp`, { env: null });
    assert.equal(untp.status, 404, untp.text);
    assert.equal(untp.body.code, 'untp_data_missing');
    for (const missing of section(first.body, 'untp').missing) {
      assert.ok(untp.body.detail.includes(missing.fact), `${missing.fact} in ${untp.body.detail}`);
    }
    // No battery data yet: its seven clusters are missing, each pointing at its field.
    const battery = section(first.body, `content:${V1}`);
    assert.equal(battery.missing.length, 7);
    assert.deepEqual(battery.missing[0].fix, {
      kind: 'content',
      specificationId: V1,
      pointer: '/generalProductInformation',
    });
    assert.deepEqual(
      section(first.body, 'header').missing.map((m: Json) => m.fix.setting),
      ['economicOperatorId', 'facilityId'],
    );

    const written = await call('PUT', contentPath(dppId), BATTERY_DATA);
    assert.equal(written.status, 201, written.text);
    const settings = await call('PATCH', '/v1/company/settings', {
      economicOperatorId: 'DE123456789',
      facilityId: '4012345000016',
    });
    assert.equal(settings.status, 200, settings.text);
    const still = await call('GET', `${dppPath(dppId)}/completeness`);
    assert.equal(section(still.body, `content:${V1}`).missing.length, 0);
    assert.equal(section(still.body, 'header').missing.length, 0);
    assert.deepEqual(
      section(still.body, 'untp').missing.map((m: Json) => m.fix.field),
      ['custom_dpp_data.hsCode', 'custom_dpp_data.originCountry'],
    );

    const full = await enrollAndMint(call, '04C0A1E5000002', { hsCode: '850760', originCountry: 'DE' });
    const fullId = await itemDppId(full);
    assert.equal((await call('PUT', contentPath(fullId), BATTERY_DATA)).status, 201);
    const done = await call('GET', `${dppPath(fullId)}/completeness`);
    assert.equal(done.body.complete, true, done.text);
    const credential = await stack.api.call('GET', `/test/01/${GTIN}/21/${full}?format=untp`, { env: null });
    assert.equal(credential.status, 200, credential.text);

    // Another company's passport: 404, as if absent.
    const foreign = await call('GET', `${dppPath(dppId)}/completeness`, undefined, other.testKey);
    assert.equal(foreign.status, 404, foreign.text);
  });

  test('a model passport: what its items must still supply, and its own UNTP facts', async () => {
    const created = await call('POST', '/v1/dpps', {
      granularity: 'Model',
      gtin: GTIN,
      [V1]: { generalProductInformation: { manufacturerName: 'Voltaic Model Works' } },
    });
    assert.equal(created.status, 201, created.text);
    const answer = await call('GET', `${dppPath(created.body.digitalProductPassportId)}/completeness`);
    assert.equal(answer.status, 200, answer.text);
    const pointers = section(answer.body, `content:${V1}`).missing.map((m: Json) => m.fix.pointer);
    assert.ok(pointers.includes('/generalProductInformation/batteryCategory'), pointers.join(' '));
    assert.ok(!pointers.includes('/generalProductInformation/manufacturerName'));
    assert.deepEqual(
      section(answer.body, 'untp').missing.map((m: Json) => m.fix),
      [{ kind: 'content', specificationId: V1, pointer: '/generalProductInformation/countryOfProduction' }],
    );
  });
});
