import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { BATTERY_1_0_0 } from '../../../src/passport/content/battery/battery-1.0.0.ts';
import { ANNEX_XIII_TIERS } from '../../../src/passport/content/battery/battery-1.0.0-policy.ts';
import {
  BUILT_IN_SPECIFICATIONS,
  type ContentSpecification,
  ContentSpecificationRegistry,
} from '../../../src/passport/content/content-specification.ts';
import { fieldPattern, ROLES, schemaFields } from '../../../src/passport/content/disclosure.ts';
import { fullBatteryData } from '../../fixtures/battery-passport-data.ts';

/** Policy problems of a specification: fields without an entry, entries for no field, malformed entries. */
function policyProblems(spec: ContentSpecification): string[] {
  const fields = schemaFields(spec.schema);
  const problems: string[] = [];
  for (const field of fields) {
    const entry = spec.policy[field];
    if (!entry) problems.push(`${field}: no disclosure policy`);
    else if (entry.roles.length === 0) problems.push(`${field}: nobody may read it`);
    else if (!entry.roles.every((role) => (ROLES as readonly string[]).includes(role))) {
      problems.push(`${field}: unknown role in ${entry.roles.join(', ')}`);
    }
  }
  for (const pattern of Object.keys(spec.policy)) {
    if (!fields.includes(pattern)) problems.push(`${pattern}: policy for a field the schema does not have`);
  }
  return problems;
}

describe('disclosure policy of every content specification', () => {
  // One row per built-in specification: a field added to a schema without a policy entry fails here.
  test.each(BUILT_IN_SPECIFICATIONS.map((spec) => [spec.id, spec] as const))(
    '%s: every field has a policy entry and every entry a field',
    (_id, spec) => {
      assert.deepEqual(policyProblems(spec), []);
    },
  );

  // Table-driven over every field of the battery model: its roles are exactly one Annex XIII tier's.
  const tiers = Object.values(ANNEX_XIII_TIERS);
  test.each(schemaFields(BATTERY_1_0_0.schema).map((field) => [field] as const))(
    'battery 1.0.0 %s: the roles of an Annex XIII tier',
    (field) => {
      const entry = BATTERY_1_0_0.policy[field];
      assert.ok(entry, `${field} has no policy`);
      const tier = tiers.find((t) => t.tier === entry.tier);
      assert.ok(tier, `${field}: ${entry.tier} is not an Annex XIII tier`);
      assert.deepEqual([...entry.roles], [...tier.roles]);
    },
  );

  test('the checker catches a field added without a policy and a policy left without its field', () => {
    const schema = structuredClone(BATTERY_1_0_0.schema);
    schema.properties!.circularity!.properties!.sortingCode = { type: 'string', description: 'New.' };
    const { '/circularity/renewableContentSharePercent': _dropped, ...policy } = BATTERY_1_0_0.policy;
    const problems = policyProblems({
      ...BATTERY_1_0_0,
      schema,
      policy: { ...policy, '/gone': policy['/circularity/wastePreventionInformation']! },
    });
    assert.deepEqual(problems.sort(), [
      '/circularity/renewableContentSharePercent: no disclosure policy',
      '/circularity/sortingCode: no disclosure policy',
      '/gone: policy for a field the schema does not have',
    ]);
  });

  test('Annex XIII tiers as roles: public reads tier 1 only, notified bodies not the individual battery', () => {
    const readable = (role: string) =>
      Object.entries(BATTERY_1_0_0.policy)
        .filter(([, entry]) => (entry.roles as readonly string[]).includes(role))
        .map(([field]) => field);
    assert.ok(!readable('public').includes('/conformityAndLabels/testReportsProvingCompliance'));
    assert.ok(!readable('public').includes('/materialsAndComposition/detailedComposition/*/material'));
    assert.ok(
      !readable('public').includes('/performanceAndDurability/batteryCondition/stateOfHealthPercent'),
    );
    assert.ok(
      readable('authority').includes('/performanceAndDurability/batteryCondition/stateOfHealthPercent'),
    );
    assert.ok(
      readable('customer').includes('/performanceAndDurability/batteryCondition/stateOfHealthPercent'),
    );
    assert.ok(!readable('customer').includes('/circularity/dismantlingInformation'));
    assert.ok(readable('recycler').includes('/circularity/dismantlingInformation'));
    assert.ok(!readable('notifiedBody').includes('/performanceAndDurability/batteryCondition/fullCycles'));
    assert.ok(readable('notifiedBody').includes('/conformityAndLabels/testReportsProvingCompliance'));
    // Every role reads every public field.
    for (const role of ROLES) assert.ok(readable(role).includes('/carbonFootprint/totalKgCo2ePerKwh'), role);
  });

  test('fieldPattern maps a concrete pointer to its policy pattern', () => {
    assert.equal(
      fieldPattern('/circularity/sparePartSources/0/components/12/partNumber'),
      '/circularity/sparePartSources/*/components/*/partNumber',
    );
    assert.ok(BATTERY_1_0_0.policy[fieldPattern('/circularity/sparePartSources/0/components/12/partNumber')]);
  });
});

describe('content specification registry', () => {
  test('the full battery fixture follows 1.0.0; offending fields are named by JSON pointer', () => {
    const registry = new ContentSpecificationRegistry([BATTERY_1_0_0]);
    assert.deepEqual(registry.validate(BATTERY_1_0_0.id, fullBatteryData()), []);
    const data = fullBatteryData() as unknown as Record<string, Record<string, unknown>>;
    delete data.generalProductInformation!.manufacturerName;
    data.generalProductInformation!.nickname = 'Sparky';
    data.circularity!.renewableContentSharePercent = '2.5';
    assert.deepEqual(
      registry
        .validate(BATTERY_1_0_0.id, data)
        .map((v) => [v.pointer, v.keyword])
        .sort(),
      [
        ['/circularity/renewableContentSharePercent', 'type'],
        ['/generalProductInformation/manufacturerName', 'required'],
        ['/generalProductInformation/nickname', 'additionalProperties'],
      ],
    );
    assert.deepEqual(
      registry.validate(BATTERY_1_0_0.id, 'a battery').map((v) => v.pointer),
      ['/'],
    );
  });

  test('ids are urn:dpp-service:spec:<group>:<semver>; a registered version is immutable', () => {
    const registry = new ContentSpecificationRegistry([BATTERY_1_0_0]);
    assert.throws(() => registry.register(BATTERY_1_0_0), /already registered/);
    assert.throws(
      () => registry.register({ ...BATTERY_1_0_0, id: 'urn:dpp-service:spec:battery:1.0' }),
      /not urn/,
    );
    assert.throws(
      () => registry.register({ ...BATTERY_1_0_0, id: 'urn:dpp-service:spec:textile:1.0.1' }),
      /not urn/,
    );
    registry.register({ ...BATTERY_1_0_0, id: 'urn:dpp-service:spec:battery:1.0.1', version: '1.0.1' });
    assert.deepEqual(
      registry.list().map((s) => s.id),
      [BATTERY_1_0_0.id, 'urn:dpp-service:spec:battery:1.0.1'],
    );
  });
});
