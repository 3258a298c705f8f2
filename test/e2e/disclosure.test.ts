import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { BATTERY_1_0_0 } from '../../src/passport/content/battery/battery-1.0.0.ts';
import { fieldPattern, ROLES, type Role } from '../../src/passport/content/disclosure.ts';
import type { TestTenant } from '../support/api.ts';
import {
  BATTERY_LEAVES,
  leafPointers,
  leafValue,
  readableBy,
  secretsFor,
  startDisclosedBattery,
  withoutIdentifiers,
} from '../support/battery-disclosure.ts';
import {
  contentPath as contentOf,
  BATTERY_DATA as DATA,
  BATTERY_V1 as V1,
} from '../support/fixtures/battery.ts';
import { GTIN } from '../support/fixtures/products.ts';
import { tapQuery } from '../support/fixtures/sun.ts';
import type { TestStack } from '../support/stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

const CHIP = '04D15C105E0001';

/**
 * Who may see what, enforced by the server (issue 25 item 1, docs/disclosure.md): a battery passport with the
 * full data model, read by each audience through every representation that serialises its battery data; each
 * answer holds exactly the fields the audience's roles read.
 */
describe('disclosure: every field of the battery model × every role × every representation', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let repairer: TestTenant;
  let recycler: TestTenant;
  let authority: TestTenant;
  let notifiedBody: TestTenant;
  let stranger: TestTenant;
  let dppId: string;
  let tokenId: string;
  let counter = 1;

  const contentPath = () => contentOf(dppId);
  const freshTap = () => {
    counter += 1;
    return tapQuery(CHIP, counter);
  };

  /** How each audience proves itself on a request: a credential, a fresh tap's query, or nothing. */
  type Audience = { name: string; roles: Role[]; key?: () => string; tap?: true };
  const audiences = (): Audience[] => [
    { name: 'public (no credential)', roles: ['public'] },
    { name: 'customer (fresh tap)', roles: ['public', 'customer'], tap: true },
    { name: 'repairer (granted)', roles: ['public', 'repairer'], key: () => repairer.testKey },
    { name: 'recycler (granted)', roles: ['public', 'recycler'], key: () => recycler.testKey },
    { name: 'authority (register)', roles: ['public', 'authority'], key: () => authority.testKey },
    { name: 'notified body (granted)', roles: ['public', 'notifiedBody'], key: () => notifiedBody.testKey },
    { name: 'another company, no grant', roles: ['public'], key: () => stranger.testKey },
    { name: 'the brand (operator)', roles: [...ROLES], key: () => brand.testKey },
  ];

  /** GET as an audience; a tap audience's query carries a fresh SUN message each time. */
  const read = (audience: Audience, path: string) => {
    const query = audience.tap ? freshTap() : '';
    const target = query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path;
    return stack.api.call('GET', target, { key: audience.key?.() ?? null });
  };

  beforeAll(async () => {
    ({ stack, brand, repairer, recycler, authority, notifiedBody, stranger, dppId, tokenId } =
      await startDisclosedBattery(CHIP));
  }, 600_000);
  afterAll(async () => {
    await stack?.close();
  });

  test('the policy names a role for every field of the model (else the table below proves nothing)', () => {
    for (const pointer of BATTERY_LEAVES) assert.ok(BATTERY_1_0_0.policy[fieldPattern(pointer)], pointer);
    assert.equal(readableBy([...ROLES]).length, BATTERY_LEAVES.length);
  });

  test.each(audiences().map((audience) => [audience.name, audience] as const))(
    'GET /v1/dpps/{dppId}/content/{specId} as %s: exactly the fields its roles read',
    async (_name, audience) => {
      const answer = await read(audience, contentPath());
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(leafPointers(answer.body.data).sort(), readableBy(audience.roles));
      assert.deepEqual([...answer.body.roles].sort(), [...audience.roles].sort());
      for (const secret of secretsFor(audience.roles)) {
        assert.ok(!withoutIdentifiers(answer.text).includes(secret), `${secret} served to ${audience.name}`);
      }
      if (audience.tap) assert.equal(answer.body.tap, 'authentic');
    },
  );

  test.each(audiences().map((audience) => [audience.name, audience] as const))(
    '?format=aas as %s: only the battery submodels and elements its roles read',
    async (_name, audience) => {
      const answer = await read(audience, `${contentPath()}?format=aas`);
      assert.equal(answer.status, 200, answer.text);
      for (const secret of secretsFor(audience.roles)) {
        assert.ok(!withoutIdentifiers(answer.text).includes(secret), `${secret} served to ${audience.name}`);
      }
      const idShorts = answer.body.submodels.map((s: Json) => s.idShort);
      // A battery submodel is served only whole (as the AAS API serves it, docs/aas-api.md): its template's
      // mandatory elements need every tier the submodel is built from. Nameplate holds the test reports (tier
      // 3), Circularity dismantling and safety (tier 2), Product Condition the use data (tier 4); Technical
      // Data and Carbon Footprint are tier 1 (Technical Data's optional CapacityFade is cut for others).
      const holds = (...roles: string[]) => audience.roles.some((role) => roles.includes(role));
      const expected = {
        BatteryNameplate: holds('authority', 'notifiedBody'),
        BatteryTechnicalData: true,
        BatteryCarbonFootprint: true,
        BatteryProductCondition: holds('customer', 'repairer', 'recycler', 'authority'),
        BatteryCircularity: holds('repairer', 'recycler', 'authority', 'notifiedBody'),
      };
      for (const [idShort, served] of Object.entries(expected)) {
        assert.equal(idShorts.includes(idShort), served, `${idShort} in ${idShorts.join(', ')}`);
      }
      // The shell lists exactly the submodels served.
      assert.equal(answer.body.assetAdministrationShells[0].submodels.length, answer.body.submodels.length);
      const testReport = DATA.conformityAndLabels as { testReportsProvingCompliance: string[] };
      assert.equal(
        answer.text.includes(testReport.testReportsProvingCompliance[0]!),
        expected.BatteryNameplate,
      );
    },
  );

  test.each(audiences().map((audience) => [audience.name, audience] as const))(
    'EN 18222 reads (compressed, full, element by path) as %s: no field its roles do not read',
    async (_name, audience) => {
      const path = `/v1/dpps/${encodeURIComponent(dppId)}`;
      for (const representation of ['compressed', 'full']) {
        const answer = await read(audience, `${path}?representation=${representation}`);
        assert.equal(answer.status, 200, answer.text);
        for (const secret of secretsFor(audience.roles)) {
          assert.ok(
            !withoutIdentifiers(answer.text).includes(secret),
            `${secret} served to ${audience.name} (${representation})`,
          );
        }
        if (representation === 'compressed') {
          assert.deepEqual(leafPointers(answer.body[V1]).sort(), readableBy(audience.roles));
        }
      }
      const document = await read(audience, path);
      assert.ok(document.body[V1], 'the battery section is in the EN 18222 document');
      const element = `$['${V1}']['conformityAndLabels']['testReportsProvingCompliance']`;
      const answer = await read(audience, `${path}/elements/${encodeURIComponent(element)}`);
      const reads = audience.roles.includes('authority') || audience.roles.includes('notifiedBody');
      if (reads) {
        assert.equal(answer.status, 200, answer.text);
      } else {
        assert.equal(answer.status, audience.key ? 403 : 401, answer.text);
        assert.ok(!answer.text.includes('report-ul-1973'), answer.text);
      }
    },
  );

  test('the public view and the verification page are the public’s: exactly the public fields, whoever asks', async () => {
    // (A tapped URL on the resolver is a tap: it redirects to the verification page, tested elsewhere.)
    for (const audience of audiences().filter((a) => !a.tap)) {
      const view = await read(audience, `/test/01/${GTIN}/21/${tokenId}?format=public`);
      assert.equal(view.status, 200, view.text);
      assert.deepEqual(leafPointers(view.body.productGroupData[V1]).sort(), readableBy(['public']));
      for (const secret of secretsFor(['public'])) {
        assert.ok(
          !withoutIdentifiers(view.text).includes(secret),
          `${secret} in the public view (${audience.name})`,
        );
      }
    }
    const page = await stack.api.call('GET', `/test/verify/01/${GTIN}/21/${tokenId}`, { env: null });
    assert.equal(page.status, 200, page.text);
    assert.match(page.text, /id="product-group-0"/);
    const publicValues = readableBy(['public']).flatMap((pointer) => [leafValue(pointer)].flat());
    for (const value of publicValues.filter((v) => /^[\w .-]+$/.test(String(v)))) {
      // The page writes numbers the reader's way (English here: 2000 → "2,000").
      const shown = typeof value === 'number' ? value.toLocaleString('en') : String(value);
      assert.ok(page.text.includes(shown), `public value ${shown} on the page`);
    }
    for (const secret of secretsFor(['public'])) {
      assert.ok(!withoutIdentifiers(page.text).includes(secret), `${secret} on the verification page`);
    }
  });

  test('the ERP view is the brand’s: every field; nobody else reads it', async () => {
    const erp = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=erp`, {
      env: null,
      key: brand.testKey,
    });
    assert.equal(erp.status, 200, erp.text);
    assert.deepEqual(leafPointers(erp.body.productGroupData[V1]).sort(), readableBy([...ROLES]));
    for (const audience of audiences().filter((a) => a.key && a.name !== 'the brand (operator)')) {
      const refused = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=erp`, {
        env: null,
        key: audience.key!(),
      });
      assert.equal(refused.status, 403, `${audience.name}: ${refused.text}`);
      assert.ok(!refused.text.includes('Voltaic'), refused.text);
    }
  });

  test('a replayed tap unlocks nothing; the next fresh tap does, once', async () => {
    const tap = freshTap();
    const first = await stack.api.call('GET', `${contentPath()}?${tap}`, { key: null });
    assert.equal(first.body.tap, 'authentic', first.text);
    assert.ok(first.body.data.performanceAndDurability.batteryCondition, 'use data for the owner’s tap');
    const replayed = await stack.api.call('GET', `${contentPath()}?${tap}`, { key: null });
    assert.equal(replayed.status, 200, replayed.text);
    assert.equal(replayed.body.tap, 'replayed');
    assert.deepEqual(replayed.body.roles, ['public']);
    assert.deepEqual(leafPointers(replayed.body.data).sort(), readableBy(['public']));
    // An older counter than the last one seen is a replay too.
    const older = await stack.api.call('GET', `${contentPath()}?${tapQuery(CHIP, 2)}`, { key: null });
    assert.equal(older.body.tap, 'replayed', older.text);
    assert.equal(older.body.data.performanceAndDurability?.batteryCondition, undefined);
    // A forged signature: no customer either.
    const forged = await stack.api.call(
      'GET',
      `${contentPath()}?picc_data=${'0'.repeat(32)}&cmac=${'0'.repeat(16)}`,
      {
        key: null,
      },
    );
    assert.equal(forged.status, 200, forged.text);
    assert.notEqual(forged.body.tap, 'authentic');
    assert.deepEqual(forged.body.roles, ['public']);
  });
});
