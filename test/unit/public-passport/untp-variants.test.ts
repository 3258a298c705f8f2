import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { BUILT_IN_SPECIFICATIONS } from '../../../src/passport/content/content-specification.ts';
import { ROLES } from '../../../src/passport/content/disclosure.ts';
import {
  ACCESS_ROLES,
  claimStubs,
  mayReadVariant,
  VARIANT_ROLES,
} from '../../../src/passport/credentials/untp-variants.ts';
import { fullBatteryData } from '../../fixtures/battery-passport-data.ts';

describe('UNTP per-audience variants', () => {
  test('every disclosure role reads some variant beyond the public one but public itself', () => {
    for (const role of ROLES.filter((r) => r !== 'public')) {
      const readable = ACCESS_ROLES.filter((a) =>
        mayReadVariant({ owner: false, roles: new Set([role]) }, a),
      );
      assert.ok(readable.length >= 2 && readable.includes('Anonymous'), `${role}: ${readable.join(', ')}`);
    }
    assert.deepEqual(
      ACCESS_ROLES.filter((a) => mayReadVariant({ owner: false, roles: new Set(['public']) }, a)),
      ['Anonymous'],
    );
  });

  test('repairers share the Recycler variant only while the policies give both roles the same fields', () => {
    for (const spec of BUILT_IN_SPECIFICATIONS) {
      for (const [field, entry] of Object.entries(spec.policy)) {
        assert.equal(
          entry.roles.includes('repairer'),
          entry.roles.includes('recycler'),
          `${spec.id} ${field}: repairer and recycler differ, so they need their own variants`,
        );
      }
    }
    assert.deepEqual(VARIANT_ROLES.Recycler, ['public', 'recycler', 'repairer']);
  });

  test('claim stubs name restricted data and its audiences, never a value', () => {
    const spec = BUILT_IN_SPECIFICATIONS[0]!;
    const data = fullBatteryData() as unknown as Record<string, unknown>;
    const stubs = claimStubs(spec.id, data, spec.policy);
    const text = JSON.stringify(stubs);
    for (const value of ['98.6', 'BMU-8-2026', 'report-ul-1973']) assert.ok(!text.includes(value), value);
    const names = stubs.map((stub) => stub.name);
    assert.ok(names.includes('/performanceAndDurability/batteryCondition'), names.join(', '));
    assert.ok(
      !names.some((name) => String(name).startsWith('/carbonFootprint')),
      'public cluster has no stub',
    );
    // Without restricted data there is nothing to stub.
    assert.deepEqual(claimStubs(spec.id, { carbonFootprint: { totalKgCo2ePerKwh: 1 } }, spec.policy), []);
  });
});
