import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { checkAasFile, checkSubmodelTemplates, obtainAasTools } from '../../scripts/dev/aas-tools.ts';
import { BATTERY_1_0_0 } from '../../src/passport/content/battery/battery-1.0.0.ts';
import { contentSpecifications } from '../../src/passport/content/content-specification.ts';
import type { JsonSchema } from '../../src/passport/content/disclosure.ts';
import { fullBatteryData } from '../fixtures/battery-passport-data.ts';
import type { TestTenant } from '../support/api.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

const V1 = 'urn:dpp-service:spec:battery:1.0.0';
const V2 = 'urn:dpp-service:spec:battery:2.0.0';

/**
 * Battery passports over HTTP (issue 25 items 2 and 3): minted through the API, their battery data written
 * against the pinned content specification, refused field by field when it does not follow it, unaffected by
 * a later version, and their AAS environment judged by aas-submodel-validate (IDTA-02035 tables) and
 * aas-test-engines.
 */
describe('battery passport: content specification battery 1.0.0', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let other: TestTenant;
  let dir: string;
  const call = (method: string, path: string, body?: unknown, key = tenant.testKey) =>
    stack.api.call(method, path, { key, ...(body === undefined ? {} : { body }) });
  const content = (dppId: string, specId: string) =>
    `/v1/dpps/${encodeURIComponent(dppId)}/content/${encodeURIComponent(specId)}`;
  const mintBattery = async (chipUid: string): Promise<string> => {
    const tokenId = await enrollAndMint(call, chipUid, { manufacturer_name: 'Voltaic Cells SE' });
    const view = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, { env: null });
    assert.equal(view.status, 200, view.text);
    return view.body.dppHeader.digitalProductPassportId;
  };

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.api.createTenant('Voltaic Cells');
    other = await stack.api.createTenant('Someone Else');
    dir = await mkdtemp(join(tmpdir(), 'battery-aas-'));
    await obtainAasTools();
  }, 600_000);
  afterAll(async () => {
    await stack?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('the registry is public: the battery model with its JSON Schema and a policy entry per field', async () => {
    const list = await stack.api.call('GET', '/v1/content-specifications', { env: null });
    assert.equal(list.status, 200, list.text);
    assert.ok(list.body.items.some((item: Json) => item.id === V1 && item.group === 'battery'));
    const one = await stack.api.call('GET', `/v1/content-specifications/${encodeURIComponent(V1)}`, {
      env: null,
    });
    assert.equal(one.status, 200, one.text);
    assert.equal(one.body.schema.properties.performanceAndDurability.type, 'object');
    assert.deepEqual(one.body.policy['/conformityAndLabels/testReportsProvingCompliance'].roles, [
      'authority',
      'notifiedBody',
    ]);
    const unknown = await stack.api.call('GET', `/v1/content-specifications/${encodeURIComponent(V2)}`, {
      env: null,
    });
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal(unknown.body.code, 'content_specification_not_found');
    const malformed = await stack.api.call('GET', '/v1/content-specifications/battery-1', { env: null });
    assert.equal(malformed.status, 400, malformed.text);
  });

  test('a battery passport minted through the API takes the full data model, pins 1.0.0, and its AAS environment passes smtv and check_file', async () => {
    const dppId = await mintBattery('04B0B1B2B3B401');
    const data = fullBatteryData();
    const first = await call('PUT', content(dppId, V1), data);
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.contentSpecificationId, V1);
    assert.deepEqual(first.body.data, data);
    const again = await call('PUT', content(dppId, V1), data);
    assert.equal(again.status, 200, again.text);

    const read = await call('GET', content(dppId, V1));
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body.data, data);
    // Another company without a grant reads only the public fields (test/e2e/disclosure.test.ts has the
    // whole table) and cannot write (as if the passport did not exist).
    const foreign = await call('GET', content(dppId, V1), undefined, other.testKey);
    assert.equal(foreign.status, 200, foreign.text);
    assert.deepEqual(foreign.body.roles, ['public']);
    assert.equal(foreign.body.data.circularity.sparePartSources, undefined);
    assert.equal(foreign.body.data.generalProductInformation.batteryCategory, 'ev');
    const foreignWrite = await call('PUT', content(dppId, V1), data, other.testKey);
    assert.equal(foreignWrite.status, 404, foreignWrite.text);

    const env = await call('GET', `${content(dppId, V1)}?format=aas`);
    assert.equal(env.status, 200, env.text);
    const semanticIds = env.body.submodels.map((s: Json) => s.semanticId.keys[0].value);
    for (const template of [
      'https://admin-shell.io/idta/digitalbatterypassport/nameplate/1/0/Nameplate',
      'https://admin-shell.io/idta/digitalbatterypassport/TechnicalData/1/0',
      'urn:samm:io.admin-shell.idta.batterypass.product_condition:1.0.2#ProductCondition',
      'urn:samm:io.admin-shell.idta.batterypass.circularity:1.0.0#Circularity',
      'https://admin-shell.io/idta/CarbonFootprint/CarbonFootprint/1/0',
    ]) {
      assert.ok(semanticIds.includes(template), `${template} in ${semanticIds.join(', ')}`);
    }
    // The shell lists every submodel of the environment; DppMeta's header names the pinned model.
    assert.equal(env.body.assetAdministrationShells[0].submodels.length, env.body.submodels.length);
    const dppMeta = env.body.submodels.find((s: Json) => s.idShort === 'DppMeta');
    assert.ok(JSON.stringify(dppMeta).includes(V1), JSON.stringify(dppMeta));
    // A value the brand wrote is where the template wants it.
    const technical = env.body.submodels.find((s: Json) => s.idShort === 'BatteryTechnicalData');
    const areas = technical.submodelElements.find((e: Json) => e.idShort === 'TechnicalPropertyAreas');
    const cev = areas.value.find((e: Json) => e.idShort === 'CapacityEnergyVoltage');
    assert.equal(cev.value.find((e: Json) => e.idShort === 'RatedCapacity').value, '230');

    const file = join(dir, 'battery-env.json');
    await writeFile(file, JSON.stringify(env.body));
    const smtv = await checkSubmodelTemplates(file);
    assert.equal(smtv.summary.errors, 0, JSON.stringify(smtv.findings, null, 2));
    assert.equal(smtv.ok, true);
    // Nameplate 3.0, the four battery parts and the carbon footprint judged (DppMeta and ours have no table).
    assert.equal(smtv.summary.submodelsJudged, 6, JSON.stringify(smtv.summary));
    const checked = await checkAasFile(file);
    assert.deepEqual(checked.errors, []);
    assert.equal(checked.ok, true);

    // Without use data yet, Product Condition is left out and the rest still passes. Removing written use data
    // takes a PUT over the data as read (If-Match): without it the use data is kept (issue 33 item 7).
    const { batteryCondition: _condition, ...staticPerformance } = data.performanceAndDurability;
    const staticOnly = { ...data, performanceAndDurability: staticPerformance };
    const correction = await stack.api.call('PUT', content(dppId, V1), {
      key: tenant.testKey,
      body: staticOnly,
      headers: { 'if-match': read.headers.get('etag') as string },
    });
    assert.equal(correction.status, 200, correction.text);
    const env2 = await call('GET', `${content(dppId, V1)}?format=aas`);
    assert.ok(!env2.body.submodels.some((s: Json) => s.idShort === 'BatteryProductCondition'));
    await writeFile(file, JSON.stringify(env2.body));
    assert.equal((await checkSubmodelTemplates(file)).summary.errors, 0);
    assert.equal((await checkAasFile(file)).ok, true);
  }, 300_000);

  test('invalid writes are refused (400 problem) with each offending field named by JSON pointer; nothing is stored', async () => {
    const dppId = await mintBattery('04B0B1B2B3B402');
    const data: Json = fullBatteryData();
    data.generalProductInformation.batteryMassKg = -3;
    data.generalProductInformation.batteryCategory = 'toy';
    delete data.carbonFootprint.totalKgCo2ePerKwh;
    data.materialsAndComposition.detailedComposition[1].massPercent = 140;
    data.circularity.sparePartSources[0].components = [];
    data.performanceAndDurability.batteryCondition.measuredAt = 'yesterday';
    data.performanceAndDurability.colour = 'blue';
    const refused = await call('PUT', content(dppId, V1), data);
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.equal(refused.body.code, 'content_invalid');
    assert.equal(refused.body.contentSpecificationId, V1);
    const paths = refused.body.errors.map((e: Json) => e.path).sort();
    assert.deepEqual(paths, [
      '/carbonFootprint/totalKgCo2ePerKwh',
      '/circularity/sparePartSources/0/components',
      '/generalProductInformation/batteryCategory',
      '/generalProductInformation/batteryMassKg',
      '/materialsAndComposition/detailedComposition/1/massPercent',
      '/performanceAndDurability/batteryCondition/measuredAt',
      '/performanceAndDurability/colour',
    ]);
    for (const error of refused.body.errors) assert.ok(error.message && error.code, JSON.stringify(error));
    // Not an object at all, and an empty object: refused the same way, never a 500.
    const empty = await call('PUT', content(dppId, V1), {});
    assert.equal(empty.status, 400, empty.text);
    assert.equal(empty.body.errors.length, 7, empty.text);
    assert.equal((await call('PUT', content(dppId, V1), [1, 2])).status, 400);
    // Nothing was stored: no pin, no data.
    assert.equal((await call('GET', content(dppId, V1))).status, 404);
    // An unknown version, a malformed id, an unknown passport.
    assert.equal((await call('PUT', content(dppId, 'urn:dpp-service:spec:battery:9.9.9'), {})).status, 404);
    assert.equal((await call('PUT', content(dppId, 'battery'), {})).status, 400);
    const missing = await call(
      'PUT',
      content('urn:uuid:00000000-0000-4000-8000-000000000000', V1),
      fullBatteryData(),
    );
    assert.equal(missing.status, 404, missing.text);
  });

  test('a passport pinned to 1.0.0 is unaffected by registering 2.0.0; a new passport may pin 2.0.0', async () => {
    const pinnedV1 = await mintBattery('04B0B1B2B3B403');
    assert.equal((await call('PUT', content(pinnedV1, V1), fullBatteryData())).status, 201);

    // Version 2.0.0 of the battery model: the carbon footprint must name its third-party verification.
    const schema: JsonSchema = structuredClone(BATTERY_1_0_0.schema);
    const carbon = schema.properties!.carbonFootprint!;
    carbon.properties!.verificationUrl = {
      type: 'string',
      pattern: '^https://',
      description: 'Verification.',
    };
    carbon.required!.push('verificationUrl');
    contentSpecifications.register({
      ...BATTERY_1_0_0,
      id: V2,
      version: '2.0.0',
      schema,
      policy: {
        ...BATTERY_1_0_0.policy,
        '/carbonFootprint/verificationUrl': BATTERY_1_0_0.policy['/carbonFootprint/studyUrl']!,
      },
    });
    assert.ok(
      (await stack.api.call('GET', '/v1/content-specifications', { env: null })).body.items.some(
        (item: Json) => item.id === V2,
      ),
    );

    // The v1 passport: still written and read against 1.0.0 (v1 data without the new field is accepted)…
    const rewrite = await call('PUT', content(pinnedV1, V1), fullBatteryData());
    assert.equal(rewrite.status, 200, rewrite.text);
    assert.equal(rewrite.body.contentSpecificationId, V1);
    // …a field only 2.0.0 has is refused for it…
    const v2Data: Json = fullBatteryData();
    v2Data.carbonFootprint.verificationUrl = 'https://verifier.example/voltaic';
    const v2FieldOnV1 = await call('PUT', content(pinnedV1, V1), v2Data);
    assert.equal(v2FieldOnV1.status, 400, v2FieldOnV1.text);
    assert.deepEqual(
      v2FieldOnV1.body.errors.map((e: Json) => e.path),
      ['/carbonFootprint/verificationUrl'],
    );
    // …and it cannot be moved to 2.0.0 by a write.
    const moved = await call('PUT', content(pinnedV1, V2), v2Data);
    assert.equal(moved.status, 409, moved.text);
    assert.equal(moved.body.code, 'content_specification_pinned');
    const stillV1 = await call('GET', content(pinnedV1, V1));
    assert.equal(stillV1.body.contentSpecificationId, V1);
    assert.equal(stillV1.body.data.carbonFootprint.verificationUrl, undefined);

    // A new passport pins 2.0.0, whose new mandatory field is enforced.
    const pinnedV2 = await mintBattery('04B0B1B2B3B404');
    const lacking = await call('PUT', content(pinnedV2, V2), fullBatteryData());
    assert.equal(lacking.status, 400, lacking.text);
    assert.deepEqual(
      lacking.body.errors.map((e: Json) => e.path),
      ['/carbonFootprint/verificationUrl'],
    );
    const v2Write = await call('PUT', content(pinnedV2, V2), v2Data);
    assert.equal(v2Write.status, 201, v2Write.text);
    assert.equal(v2Write.body.contentSpecificationId, V2);
    // The v1 passport's AAS header still names 1.0.0; the v2 passport's names 2.0.0.
    const env1 = await call('GET', `${content(pinnedV1, V1)}?format=aas`);
    const meta1 = JSON.stringify(env1.body.submodels.find((s: Json) => s.idShort === 'DppMeta'));
    assert.ok(meta1.includes(V1) && !meta1.includes(V2), meta1);
    const env2 = await call('GET', `${content(pinnedV2, V2)}?format=aas`);
    assert.ok(JSON.stringify(env2.body.submodels.find((s: Json) => s.idShort === 'DppMeta')).includes(V2));
  });

  test('the pin is in the EN 18223 header of every representation; pinning records one passport version; the battery data itself is in none of the public ones', async () => {
    const tokenId = await enrollAndMint(call, '04B0B1B2B3B405', {
      manufacturer_name: 'Voltaic Cells SE',
      hsCode: '850760',
      originCountry: 'DE',
      manufacturer_gln: '4012345000009',
    });
    const view = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, { env: null });
    const dppId: string = view.body.dppHeader.digitalProductPassportId;
    const ours = view.body.dppHeader.contentSpecificationIds as string[];
    assert.equal(ours.length, 2);
    const owner = (path: string) => stack.api.call('GET', path, { env: null, key: tenant.testKey });
    const versions = async () =>
      (await owner(`/test/v1/dpps/${encodeURIComponent(dppId)}/versions`)).body.items.length as number;
    const before = await versions();

    assert.equal((await call('PUT', content(dppId, V1), fullBatteryData())).status, 201);
    assert.equal(await versions(), before + 1, 'pinning is a change of the published header');
    assert.equal((await call('PUT', content(dppId, V1), fullBatteryData())).status, 200);
    assert.equal(await versions(), before + 1, 'rewriting the data changes no published content');

    const pinned = [...ours, V1];
    const publicView = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, {
      env: null,
    });
    assert.deepEqual(publicView.body.dppHeader.contentSpecificationIds, pinned);
    const erp = await owner(`/test/01/${GTIN}/21/${tokenId}?format=erp`);
    assert.equal(erp.status, 200, erp.text);
    assert.deepEqual(erp.body.dppHeader.contentSpecificationIds, pinned);
    const en18222 = await stack.api.call('GET', `/test/v1/dpps/${encodeURIComponent(dppId)}`, { env: null });
    assert.equal(en18222.status, 200, en18222.text);
    assert.deepEqual(en18222.body.contentSpecificationIds, pinned);
    const untp = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=untp`, { env: null });
    assert.equal(untp.status, 200, untp.text);
    assert.deepEqual(
      untp.body.credentialSubject.characteristics.passportHeader.contentSpecificationIds,
      pinned,
    );
    const shellId = `${stack.api.config.publicBaseUrl}/aas/test/${tokenId}`;
    const aas = await stack.api.call(
      'GET',
      `/test/api/v3.0/serialization?aasIds=${Buffer.from(shellId).toString('base64url')}`,
      { env: null },
    );
    assert.equal(aas.status, 200, aas.text);
    const dppMeta = aas.body.submodels.find((s: Json) => s.idShort === 'DppMeta');
    assert.ok(JSON.stringify(dppMeta).includes(V1), JSON.stringify(dppMeta));

    // No public form carries restricted battery data (a tier 2 part number, a tier 3 report, a tier 4
    // reading). The EN 18222 document holds the battery section cut to its public (tier 1) fields.
    for (const [form, body] of [
      ['public', publicView.text],
      ['EN 18222', en18222.text],
      ['UNTP', untp.text],
      ['AAS API', aas.text],
    ] as const) {
      for (const value of ['BMU-8-2026', 'report-ul-1973', 'Deep discharge']) {
        assert.ok(!body.includes(value), `${form} shows ${value}`);
      }
    }
    assert.equal(en18222.body[V1].materialsAndComposition.chemistry, 'NMC811');
    assert.equal(en18222.body[V1].materialsAndComposition.detailedComposition, undefined);
  });
});
