import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { BATTERY_1_0_0 } from '../../../src/passport/content/battery/battery-1.0.0.ts';
import {
  applyDynamicUpdate,
  bodyPointer,
  dynamicUpdateSchema,
  validateDynamicUpdate,
} from '../../../src/passport/content/battery/battery-dynamic.ts';
import { fullBatteryData } from '../../fixtures/battery-passport-data.ts';

const schema = dynamicUpdateSchema(BATTERY_1_0_0.schema)!;
const data = () => fullBatteryData() as unknown as Record<string, unknown>;

describe('battery dynamic data', () => {
  test('the update schema takes exactly the model’s dynamic fields', () => {
    assert.deepEqual(Object.keys(schema.properties!).sort(), [
      'accidentReports',
      'batteryCondition',
      'batteryStatus',
      'negativeEvents',
    ]);
    // The measured values are the model's own definitions (same bounds), minus the appended lists.
    const condition = schema.properties!.batteryCondition!.properties!;
    assert.equal(condition.stateOfHealthPercent!.maximum, 100);
    assert.equal(condition.negativeEvents, undefined);
    assert.deepEqual(validateDynamicUpdate(schema, { batteryStatus: 'waste' }), []);
    assert.deepEqual(
      validateDynamicUpdate(schema, { batteryCondition: { stateOfHealthPercent: 90 } }).map((v) => v.pointer),
      ['/batteryCondition/measuredAt'],
    );
    assert.deepEqual(
      validateDynamicUpdate(schema, {}).map((v) => v.pointer),
      ['/'],
    );
  });

  test('merging: measured values replace, lists are appended, the stored data is not changed', () => {
    const stored = data();
    const { data: next, changed } = applyDynamicUpdate(stored, {
      batteryCondition: { measuredAt: '2026-11-24T08:00:00Z', stateOfHealthPercent: 90 },
      negativeEvents: [{ description: 'x', occurredAt: '2026-11-24T07:00:00Z' }],
      accidentReports: ['https://example.com/a/1'],
    });
    const condition = (next.performanceAndDurability as Record<string, Record<string, unknown>>)
      .batteryCondition!;
    assert.equal(condition.stateOfHealthPercent, 90);
    assert.equal(condition.capacityFadePercent, 1.4, 'values not in the update stay');
    assert.equal((condition.negativeEvents as unknown[]).length, 2);
    assert.deepEqual(condition.accidentReports, ['https://example.com/a/1']);
    assert.deepEqual(changed, [
      '/performanceAndDurability/batteryCondition/measuredAt',
      '/performanceAndDurability/batteryCondition/stateOfHealthPercent',
      '/performanceAndDurability/batteryCondition/negativeEvents',
      '/performanceAndDurability/batteryCondition/accidentReports',
    ]);
    assert.equal(
      (stored.performanceAndDurability as Record<string, Record<string, unknown>>).batteryCondition!
        .stateOfHealthPercent,
      98.6,
    );
  });

  test('a violation of the merged data points at the member of the body', () => {
    const before = { negativeEvents: 3, accidentReports: 1 };
    const C = '/performanceAndDurability/batteryCondition';
    assert.equal(bodyPointer('/generalProductInformation/batteryStatus', before), '/batteryStatus');
    assert.equal(bodyPointer(`${C}/stateOfChargePercent`, before), '/batteryCondition/stateOfChargePercent');
    assert.equal(bodyPointer(`${C}/negativeEvents/4/occurredAt`, before), '/negativeEvents/1/occurredAt');
    assert.equal(bodyPointer(`${C}/accidentReports/1`, before), '/accidentReports/0');
    assert.equal(bodyPointer(`${C}/negativeEvents`, before), '/negativeEvents');
  });
});
