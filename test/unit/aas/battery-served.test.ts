import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import {
  BATTERY_SUBMODEL_ID_SHORTS,
  servedBatterySubmodels,
  servesBatterySubmodel,
} from '../../../src/passport/aas/battery/battery-served.ts';
import { BATTERY_1_0_0 } from '../../../src/passport/content/battery/battery-1.0.0.ts';
import { ANNEX_XIII_TIERS } from '../../../src/passport/content/battery/battery-1.0.0-policy.ts';
import { ROLES, type Role } from '../../../src/passport/content/disclosure.ts';
import { fullBatteryData } from '../../fixtures/battery-passport-data.ts';

const facts = {
  shellId: 'https://dpp.example/aas/live/7',
  digitalLink: 'https://dpp.example/01/04012345678901/21/7',
  serialNumber: '7',
};
const content = {
  specificationId: BATTERY_1_0_0.id,
  data: fullBatteryData() as unknown as Record<string, unknown>,
};
const served = (roles: Role[]) =>
  servedBatterySubmodels(facts, content, new Set(roles)).served.map((s) => s.idShort);

/** Which battery submodels the AAS API serves to each role (docs/aas-api.md "Battery passports"). */
describe('battery submodels served whole per role (src/passport/aas/battery/battery-served.ts)', () => {
  test.each([
    ['public', ['BatteryTechnicalData', 'BatteryCarbonFootprint']],
    ['customer', ['BatteryTechnicalData', 'BatteryCarbonFootprint', 'BatteryProductCondition']],
    [
      'repairer',
      ['BatteryTechnicalData', 'BatteryCarbonFootprint', 'BatteryProductCondition', 'BatteryCircularity'],
    ],
    [
      'recycler',
      ['BatteryTechnicalData', 'BatteryCarbonFootprint', 'BatteryProductCondition', 'BatteryCircularity'],
    ],
    ['authority', [...BATTERY_SUBMODEL_ID_SHORTS]],
    [
      'notifiedBody',
      ['BatteryNameplate', 'BatteryTechnicalData', 'BatteryCarbonFootprint', 'BatteryCircularity'],
    ],
  ] as const)('%s', (role, expected) => {
    assert.deepEqual(served(['public', role]), [...expected]);
    const withheld = servedBatterySubmodels(facts, content, new Set<Role>(['public', role])).withheld;
    assert.deepEqual(
      [...withheld].sort(),
      BATTERY_SUBMODEL_ID_SHORTS.filter(
        (idShort) => !(expected as readonly string[]).includes(idShort),
      ).sort(),
    );
  });

  test('every role (the brand): all five, uncut', () => {
    assert.deepEqual(served([...ROLES]), [...BATTERY_SUBMODEL_ID_SHORTS]);
  });

  test('an optional element the caller may not read is cut, the submodel kept; a reader of it keeps it', () => {
    const technical = (roles: Role[]) =>
      JSON.stringify(
        servedBatterySubmodels(facts, content, new Set(roles)).served.find(
          (s) => s.idShort === 'BatteryTechnicalData',
        ),
      );
    assert.ok(!technical(['public']).includes('"CapacityFade"'));
    assert.ok(technical(['public', 'customer']).includes('"CapacityFade"'));
  });

  test('a field made restricted behind a mandatory element withholds its submodel (the rule reads the policy)', () => {
    const policy = {
      ...BATTERY_1_0_0.policy,
      '/carbonFootprint/totalKgCo2ePerKwh': ANNEX_XIII_TIERS.legitimateInterest,
    };
    const publicOnly = new Set<Role>(['public']);
    assert.equal(servesBatterySubmodel('BatteryCarbonFootprint', BATTERY_1_0_0.policy, publicOnly), true);
    assert.equal(servesBatterySubmodel('BatteryCarbonFootprint', policy, publicOnly), false);
    assert.equal(servesBatterySubmodel('BatteryCarbonFootprint', policy, new Set<Role>(['recycler'])), true);
  });

  test('an unknown specification serves nothing (fail closed)', () => {
    const unknown = { ...content, specificationId: 'urn:dpp-service:spec:battery:9.9.9' };
    assert.deepEqual(servedBatterySubmodels(facts, unknown, new Set<Role>(['public'])).served, []);
  });

  test('an element left empty in the data stays in a served submodel (the template may want it)', () => {
    const condition = servedBatterySubmodels(
      facts,
      content,
      new Set<Role>(['public', 'customer']),
    ).served.find((s) => s.idShort === 'BatteryProductCondition')!;
    assert.ok(condition.submodelElements.some((e) => e.idShort === 'InformationOnAccidents'));
  });
});
