import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { BATTERY_1_0_0 } from '../../../src/passport/content/battery/battery-1.0.0.ts';
import {
  type DisclosurePolicy,
  fieldPattern,
  ROLES,
  type Role,
} from '../../../src/passport/content/disclosure.ts';
import { discloseContent } from '../../../src/passport/disclosure/disclose-content.ts';
import { fullBatteryData } from '../../fixtures/battery-passport-data.ts';

/** Every leaf's JSON pointer in a value (arrays of scalars are one leaf, as in schemaFields). */
function leafPointers(value: unknown, pointer = ''): string[] {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([name, child]) => leafPointers(child, `${pointer}/${name}`));
  }
  if (Array.isArray(value) && value.some((item) => typeof item === 'object' && item !== null)) {
    return value.flatMap((item, index) => leafPointers(item, `${pointer}/${index}`));
  }
  return [pointer];
}

const policy: DisclosurePolicy = {
  '/a/open': { tier: 't1', roles: ['public', 'repairer'] },
  '/a/closed': { tier: 't2', roles: ['repairer'] },
  '/list/*/x': { tier: 't1', roles: ['public'] },
  '/list/*/y': { tier: 't2', roles: ['recycler'] },
  '/secretList/*/z': { tier: 't2', roles: ['authority'] },
  '/tags': { tier: 't1', roles: ['public'] },
  '/empty': { tier: 't2', roles: ['repairer'] },
};

describe('discloseContent', () => {
  const data = {
    a: { open: 1, closed: 2 },
    list: [
      { x: 'x0', y: 'y0' },
      { x: 'x1', y: 'y1' },
    ],
    secretList: [{ z: 1 }],
    tags: ['t'],
    empty: [],
    unknown: 'no policy',
  };

  test('public: only the public leaves; objects and lists emptied by the filter are dropped', () => {
    assert.deepEqual(discloseContent(data, policy, ['public']), {
      a: { open: 1 },
      list: [{ x: 'x0' }, { x: 'x1' }],
      tags: ['t'],
    });
  });

  test('roles add up; a leaf without a policy entry is never served, not even to every role', () => {
    assert.deepEqual(discloseContent(data, policy, ['public', 'repairer', 'recycler']), {
      a: { open: 1, closed: 2 },
      list: [
        { x: 'x0', y: 'y0' },
        { x: 'x1', y: 'y1' },
      ],
      tags: ['t'],
      empty: [],
    });
    assert.equal('unknown' in discloseContent(data, policy, ROLES), false);
  });

  test('no role: nothing', () => {
    assert.deepEqual(discloseContent(data, policy, []), {});
  });

  test('input not changed', () => {
    const copy = structuredClone(data);
    discloseContent(data, policy, ['public']);
    assert.deepEqual(data, copy);
  });

  // Every field of the full battery model × every role: exactly the fields the policy gives the role.
  const all = leafPointers(fullBatteryData());
  test.each(ROLES.map((role) => [role] as const))(
    'battery model, role %s: exactly its fields',
    (role: Role) => {
      const disclosed = discloseContent({ ...fullBatteryData() }, BATTERY_1_0_0.policy, [role]);
      const expected = all.filter((pointer) =>
        BATTERY_1_0_0.policy[fieldPattern(pointer)]?.roles.includes(role),
      );
      assert.deepEqual(leafPointers(disclosed).sort(), expected.sort());
      assert.ok(expected.length > 0);
    },
  );
});
