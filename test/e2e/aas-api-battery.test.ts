import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  AAS_READ_PROFILES,
  checkAasFile,
  checkAasServer,
  checkSubmodelTemplates,
  obtainAasTools,
} from '../../scripts/dev/aas-tools.ts';
import { BATTERY_1_0_0 } from '../../src/passport/content/battery/battery-1.0.0.ts';
import { ROLES, type Role } from '../../src/passport/content/disclosure.ts';
import type { TestTenant } from '../support/api.ts';
import {
  createBatteryAudiences,
  discloseBattery,
  secretsFor,
  withoutIdentifiers,
} from '../support/battery-disclosure.ts';
import { BATTERY_MAKER, BATTERY_DATA as DATA } from '../support/fixtures/battery.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { tapQuery } from '../support/fixtures/sun.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

// The package's ESM build uses extensionless imports that Node cannot resolve; its CommonJS build works.
const aas: typeof import('@aas-core-works/aas-core3.0-typescript') = createRequire(import.meta.url)(
  '@aas-core-works/aas-core3.0-typescript',
);

// biome-ignore lint/suspicious/noExplicitAny: AAS JSON as served
type Json = any;

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const CHIP = '04BA77E2A50001';
const TEST = '/test/api/v3.0';
const BASE4 = ['Nameplate', 'DppMeta', 'SustainabilityData', 'Security'];

/**
 * The battery passport's IDTA-02035 submodels in the public AAS API (docs/aas-api.md "Battery passports"):
 * each caller is served the submodels its disclosure roles read whole (the same policy as every other
 * representation), in every listing, the shell's references, the serialisation and direct reads; a field it may
 * not read is in no answer; the served environment passes smtv (IDTA templates) and check_file, and
 * check_server passes with the battery passport present.
 */
describe('AAS API v3.0: battery submodels per disclosure role', () => {
  let stack: TestStack;
  const tenants: Record<string, TestTenant> = {};
  let battery: string;
  let plain: string;
  let counter = 1;
  let dir: string;
  let base: string;
  const shellId = (tokenId: string) => `${base}/aas/test/${tokenId}`;
  const submodelId = (tokenId: string, idShort: string) => `${shellId(tokenId)}/submodels/${idShort}`;

  type Audience = { name: string; roles: Role[]; tenant?: string; tap?: true; battery: string[] };
  const ALL = [
    'BatteryNameplate',
    'BatteryTechnicalData',
    'BatteryCarbonFootprint',
    'BatteryProductCondition',
    'BatteryCircularity',
  ];
  const TIER1 = ['BatteryTechnicalData', 'BatteryCarbonFootprint'];
  const AUDIENCES: Audience[] = [
    { name: 'public (no credential)', roles: ['public'], battery: TIER1 },
    {
      name: 'customer (fresh tap)',
      roles: ['public', 'customer'],
      tap: true,
      battery: [...TIER1, 'BatteryProductCondition'],
    },
    {
      name: 'repairer (granted)',
      roles: ['public', 'repairer'],
      tenant: 'repairer',
      battery: [...TIER1, 'BatteryProductCondition', 'BatteryCircularity'],
    },
    {
      name: 'recycler (granted)',
      roles: ['public', 'recycler'],
      tenant: 'recycler',
      battery: [...TIER1, 'BatteryProductCondition', 'BatteryCircularity'],
    },
    { name: 'authority (register)', roles: ['public', 'authority'], tenant: 'authority', battery: ALL },
    {
      name: 'notified body (granted)',
      roles: ['public', 'notifiedBody'],
      tenant: 'notifiedBody',
      battery: ['BatteryNameplate', ...TIER1, 'BatteryCircularity'],
    },
    { name: 'another company, no grant', roles: ['public'], tenant: 'stranger', battery: TIER1 },
    { name: 'the brand', roles: [...ROLES], tenant: 'brand', battery: ALL },
  ];
  const byName = (name: string) => AUDIENCES.find((audience) => audience.name.startsWith(name))!;

  const freshTap = () => {
    counter += 1;
    return tapQuery(CHIP, counter);
  };
  /** GET as an audience (no x-service-env: the /test prefix names the environment). */
  const read = (audience: Audience, path: string) => {
    const target = audience.tap ? `${path}${path.includes('?') ? '&' : '?'}${freshTap()}` : path;
    const key = audience.tenant ? tenants[audience.tenant]!.testKey : null;
    return stack.api.call('GET', target, { key, env: null });
  };
  /** Every page of a listing. */
  const allPages = async (audience: Audience, path: string, limit: number) => {
    const result: Json[] = [];
    const texts: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const page = await read(audience, `${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(page.status, 200, page.text);
      result.push(...page.body.result);
      texts.push(page.text);
      cursor = page.body.paging_metadata.cursor;
      pages += 1;
    } while (cursor && pages < 50);
    return { result, text: texts.join('\n') };
  };

  beforeAll(async () => {
    stack = await startTestStack();
    base = stack.api.config.publicBaseUrl;
    const audiences = await createBatteryAudiences(stack.api);
    Object.assign(tenants, audiences);
    const asBrand = (method: string, path: string, body?: unknown) =>
      stack.api.call(method, path, { key: audiences.brand.testKey, body });
    plain = await enrollAndMint(asBrand, '04BA77E2A50002', BATTERY_MAKER);
    battery = await enrollAndMint(asBrand, CHIP, BATTERY_MAKER);
    // The passport's id from its DppMeta submodel (the EN 18223 header).
    const page = await stack.api.call(
      'GET',
      `${TEST}/submodels/${b64(submodelId(battery, 'DppMeta'))}/$value`,
      {
        env: null,
      },
    );
    await discloseBattery(stack.api, audiences, page.body.DigitalProductPassportId);
    dir = await mkdtemp(join(tmpdir(), 'aas-api-battery-'));
  }, 600_000);
  afterAll(async () => {
    await stack?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test.each(AUDIENCES.map((audience) => [audience.name, audience] as const))(
    'as %s: the shell lists, the serialisation holds and direct reads serve exactly its battery submodels',
    async (_name, audience) => {
      const shell = await read(audience, `${TEST}/shells/${b64(shellId(battery))}`);
      assert.equal(shell.status, 200, shell.text);
      const expected = [...BASE4, ...audience.battery];
      assert.deepEqual(
        shell.body.submodels.map((ref: Json) => ref.keys[0].value),
        expected.map((idShort) => submodelId(battery, idShort)),
      );
      const env = await read(audience, `${TEST}/serialization?aasIds=${b64(shellId(battery))}`);
      assert.equal(env.status, 200, env.text);
      assert.deepEqual(
        env.body.submodels.map((s: Json) => s.idShort),
        expected,
      );
      assert.deepEqual(
        env.body.assetAdministrationShells[0].submodels.map((ref: Json) => ref.keys[0].value),
        expected.map((idShort) => submodelId(battery, idShort)),
      );
      // Tier 4's capacity fade is an optional element of Technical Data: only for readers of use data.
      const readsUseData = audience.roles.some((role) =>
        ['customer', 'repairer', 'recycler', 'authority'].includes(role),
      );
      const technical = env.body.submodels.find((s: Json) => s.idShort === 'BatteryTechnicalData');
      assert.equal(JSON.stringify(technical).includes('"CapacityFade"'), readsUseData);
      for (const idShort of ALL) {
        const direct = await read(audience, `${TEST}/submodels/${b64(submodelId(battery, idShort))}`);
        if (audience.battery.includes(idShort)) {
          assert.equal(direct.status, 200, `${idShort}: ${direct.text}`);
          assert.deepEqual(
            direct.body,
            env.body.submodels.find((s: Json) => s.idShort === idShort),
          );
        } else {
          // Withheld: 401 without a credential, 403 with one that does not read it; never the content.
          assert.equal(direct.status, audience.tenant ? 403 : 401, `${idShort}: ${direct.text}`);
          assert.equal(direct.body.messages[0].code, String(direct.status));
        }
      }
      // The plain passport has no battery submodels: 404 for anyone.
      const none = await read(
        audience,
        `${TEST}/submodels/${b64(submodelId(plain, 'BatteryTechnicalData'))}`,
      );
      assert.equal(none.status, 404, none.text);
    },
  );

  test.each(AUDIENCES.map((audience) => [audience.name, audience] as const))(
    'as %s: no value of a field its roles do not read in any answer (listings, serialisation, every form of each submodel)',
    async (_name, audience) => {
      const texts: string[] = [];
      const listing = async (path: string, limit: number) =>
        texts.push((await allPages(audience, path, limit)).text);
      await listing(`${TEST}/shells`, 1);
      for (const form of ['', '/$value', '/$path', '/$metadata', '/$reference'])
        await listing(`${TEST}/submodels${form}`, 3);
      for (const query of ['', `?aasIds=${b64(shellId(battery))}&includeConceptDescriptions=true`]) {
        texts.push((await read(audience, `${TEST}/serialization${query}`)).text);
      }
      for (const idShort of ALL) {
        const at = `${TEST}/shells/${b64(shellId(battery))}/submodels/${b64(submodelId(battery, idShort))}`;
        for (const form of [
          '',
          '/$value',
          '/$path',
          '/submodel-elements',
          '/submodel-elements/$value',
          '?level=core',
        ]) {
          texts.push((await read(audience, `${at}${form}`)).text);
        }
      }
      const secrets = secretsFor(audience.roles);
      const readsAll = Object.values(BATTERY_1_0_0.policy).every((entry) =>
        entry.roles.some((role) => audience.roles.includes(role)),
      );
      if (!readsAll) assert.ok(secrets.length > 0, 'the check has something to find');
      const all = texts.join('\n');
      for (const secret of secrets)
        assert.ok(!withoutIdentifiers(all).includes(secret), `${secret} served to ${audience.name}`);
    },
  );

  test('listings page through every passport’s served submodels (keyset, idShort cursors); filters by idShort and semanticId', async () => {
    for (const audience of [byName('public'), byName('authority'), byName('customer')]) {
      // A tap counts on operations naming one shell or submodel, never on a listing: the customer lists as public.
      const expected = audience.name.startsWith('authority') ? ALL : TIER1;
      const { result } = await allPages(audience, `${TEST}/submodels`, 3);
      const ids = result.map((s: Json) => s.id);
      assert.deepEqual(ids, [
        ...[plain, battery]
          .sort((a, b) => (a < b ? -1 : 1))
          .flatMap((token) =>
            (token === battery ? [...BASE4, ...expected] : BASE4).map((idShort) =>
              submodelId(token, idShort),
            ),
          ),
      ]);
      const shells = await allPages(audience, `${TEST}/shells`, 1);
      const batteryShell = shells.result.find((s: Json) => s.id === shellId(battery));
      assert.equal(batteryShell.submodels.length, 4 + expected.length, audience.name);
    }
    const public_ = byName('public');
    const carbon = await allPages(public_, `${TEST}/submodels?idShort=BatteryCarbonFootprint`, 1);
    assert.deepEqual(
      carbon.result.map((s: Json) => s.id),
      [submodelId(battery, 'BatteryCarbonFootprint')],
    );
    assert.deepEqual((await allPages(public_, `${TEST}/submodels?idShort=BatteryNameplate`, 5)).result, []);
    const nameplates = await allPages(
      byName('authority'),
      `${TEST}/submodels?semanticId=${b64('https://admin-shell.io/idta/digitalbatterypassport/nameplate/1/0/Nameplate')}`,
      5,
    );
    assert.deepEqual(
      nameplates.result.map((s: Json) => s.id),
      [submodelId(battery, 'BatteryNameplate')],
    );
    const refs = await read(public_, `${TEST}/shells/${b64(shellId(battery))}/submodel-refs?limit=5`);
    const rest = await read(
      public_,
      `${TEST}/shells/${b64(shellId(battery))}/submodel-refs?limit=5&cursor=${refs.body.paging_metadata.cursor}`,
    );
    assert.deepEqual(
      rest.body.result.map((r: Json) => r.keys[0].value),
      [submodelId(battery, 'BatteryCarbonFootprint')],
    );
    assert.equal((await read(public_, `${TEST}/submodels?cursor=${b64(`${battery}.Nope`)}`)).status, 400);
    // A cursor of the earlier form (`tokenId.n`, n an index into the four of every passport) still reads on.
    const legacy = await read(public_, `${TEST}/submodels?limit=2&cursor=${b64(`${battery}.1`)}`);
    assert.equal(legacy.status, 200, legacy.text);
    assert.deepEqual(
      legacy.body.result.map((s: Json) => s.id),
      [submodelId(battery, 'SustainabilityData'), submodelId(battery, 'Security')],
    );
  });

  test('SubmodelElementList: $value arrays, idShortPaths with [n], elements and references of list items; cut elements 401/403', async () => {
    const authority = byName('authority');
    const at = `${TEST}/submodels/${b64(submodelId(battery, 'BatteryCircularity'))}`;
    const value = (await read(authority, `${at}/$value`)).body;
    const data = DATA as Json;
    assert.equal(value.SparePartSources.length, data.circularity.sparePartSources.length);
    assert.deepEqual(value.SparePartSources[0].NameOfSupplier, [
      { en: data.circularity.sparePartSources[0].supplierName },
    ]);
    assert.deepEqual(value.DismantlingAndRemovalInformation, data.circularity.dismantlingInformation);
    assert.equal(typeof value.RenewableContent, 'number');
    const paths = (await read(authority, `${at}/$path`)).body;
    assert.ok(paths.includes('SparePartSources[0].NameOfSupplier'), paths.join(' '));
    assert.ok(paths.includes('SparePartSources[0].Components[0].PartName'), paths.join(' '));
    const supplier = await read(
      authority,
      `${at}/submodel-elements/SparePartSources[0].NameOfSupplier/$value`,
    );
    assert.equal(supplier.status, 200, supplier.text);
    assert.deepEqual(supplier.body, {
      NameOfSupplier: [{ en: data.circularity.sparePartSources[0].supplierName }],
    });
    const item = await read(authority, `${at}/submodel-elements/SparePartSources[0]/$value`);
    assert.equal(item.body.NameOfSupplier[0].en, data.circularity.sparePartSources[0].supplierName);
    const below = (await read(authority, `${at}/submodel-elements/SparePartSources/$path?level=core`)).body;
    assert.deepEqual(below, [
      'SparePartSources',
      ...data.circularity.sparePartSources.map((_: Json, i: number) => `SparePartSources[${i}]`),
    ]);
    const reference = (
      await read(authority, `${at}/submodel-elements/SparePartSources[0].NameOfSupplier/$reference`)
    ).body;
    assert.deepEqual(reference.keys.slice(1), [
      { type: 'SubmodelElementList', value: 'SparePartSources' },
      { type: 'SubmodelElementCollection', value: '0' },
      { type: 'MultiLanguageProperty', value: 'NameOfSupplier' },
    ]);
    assert.equal((await read(authority, `${at}/submodel-elements/SparePartSources[99]`)).status, 404);
    assert.equal((await read(authority, `${at}/submodel-elements/SparePartSources[x]`)).status, 400);
    // Level core: a list below the first level comes without its items.
    const core = (await read(authority, `${at}?level=core`)).body;
    const source = core.submodelElements.find((e: Json) => e.idShort === 'SparePartSources');
    assert.equal(source.value.length, data.circularity.sparePartSources.length);
    assert.deepEqual(source.value[0].value, []);

    // Capacity fade (tier 4) inside Technical Data: cut for the public (401), a stranger (403), read by the authority.
    const fade = `${TEST}/submodels/${b64(submodelId(battery, 'BatteryTechnicalData'))}/submodel-elements/TechnicalPropertyAreas.CapacityEnergyVoltage.CapacityFade`;
    assert.equal((await read(byName('public'), fade)).status, 401);
    assert.equal((await read(byName('another company'), fade)).status, 403);
    const read_ = await read(authority, `${fade}/$value`);
    assert.equal(read_.status, 200, read_.text);
    assert.equal(read_.body.CapacityFade, data.performanceAndDurability.batteryCondition.capacityFadePercent);
    // A tap unlocks the customer's tier once: the same tap replayed is public again.
    const tap = freshTap();
    const condition = `${TEST}/submodels/${b64(submodelId(battery, 'BatteryProductCondition'))}/$value?${tap}`;
    assert.equal((await stack.api.call('GET', condition, { env: null })).status, 200);
    assert.equal((await stack.api.call('GET', condition, { env: null })).status, 401);
    // An invalid credential is refused, never served as public.
    const bad = await stack.api.call('GET', `${TEST}/shells`, { key: 'sk_test_not_a_key', env: null });
    assert.equal(bad.status, 401, bad.text);
  });

  test('each audience’s served environment passes smtv (IDTA templates, no error) and check_file; check_server passes with the battery passport present', {
    timeout: 600_000,
  }, async () => {
    await obtainAasTools();
    for (const audience of AUDIENCES.filter((a) => !a.tap)) {
      const env = await read(audience, `${TEST}/serialization?aasIds=${b64(shellId(battery))}`);
      const parsed = aas.jsonization.environmentFromJsonable(env.body);
      assert.equal(parsed.error, null, parsed.error?.message);
      assert.deepEqual(
        [...aas.verification.verify(parsed.mustValue())].map((e) => `${e.path}: ${e.message}`),
        [],
        audience.name,
      );
      const file = join(dir, `${audience.tenant ?? 'public'}.json`);
      await writeFile(file, env.text);
      const smtv = await checkSubmodelTemplates(file);
      assert.equal(smtv.summary.errors, 0, `${audience.name}: ${JSON.stringify(smtv.findings, null, 2)}`);
      const checked = await checkAasFile(file);
      assert.deepEqual(checked.errors, [], audience.name);
    }
    for (const suite of Object.values(AAS_READ_PROFILES)) {
      const report = await checkAasServer(`${stack.api.baseUrl}${TEST}`, suite);
      assert.deepEqual(report.errors, [], suite);
      assert.equal(report.ok, true, suite);
      // As in aas-api.test.ts: only the tool's own gaps (element kinds and File attachments passports lack).
      assert.deepEqual(
        report.warnings.filter(
          (w) =>
            !/No such element present|No submodel element of type 'File'|Cannot check pagination/.test(w),
        ),
        [],
        suite,
      );
    }
  });
});
