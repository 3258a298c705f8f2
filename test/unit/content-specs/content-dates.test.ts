import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { BATTERY_1_0_0 } from '../../../src/passport/content/battery/battery-1.0.0.ts';
import {
  dynamicUpdateSchema,
  validateDynamicUpdate,
} from '../../../src/passport/content/battery/battery-dynamic.ts';
import { contentSpecifications } from '../../../src/passport/content/content-specification.ts';
import { fullBatteryData } from '../../fixtures/battery-passport-data.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON fixture
type Json = any;

const V1 = BATTERY_1_0_0.id;
const AUDIT = ['9999-99-99T99:99:99Z', '2026-02-30T25:61:00Z'];

/** Issue 33 item 3: the content validators hold dates to real days and instants, not just their shape. */
describe('content dates are real days and instants', () => {
  test('a content write with an impossible date-time or date names the member', () => {
    for (const value of AUDIT) {
      const data: Json = fullBatteryData();
      data.performanceAndDurability.batteryCondition.measuredAt = value;
      data.generalProductInformation.manufacturingDate = '2026-02-29';
      assert.deepEqual(
        contentSpecifications.validate(V1, data).map((v) => [v.pointer, v.keyword]),
        [
          ['/generalProductInformation/manufacturingDate', 'format'],
          ['/performanceAndDurability/batteryCondition/measuredAt', 'format'],
        ],
        value,
      );
    }
    const leapDay: Json = fullBatteryData();
    leapDay.generalProductInformation.manufacturingDate = '2024-02-29';
    leapDay.performanceAndDurability.batteryCondition.measuredAt = '2024-02-29T23:59:59.5+01:00';
    assert.deepEqual(contentSpecifications.validate(V1, leapDay), []);
  });

  test('a dynamic update with an impossible measuredAt or occurredAt names the member', () => {
    const schema = dynamicUpdateSchema(BATTERY_1_0_0.schema)!;
    for (const value of AUDIT) {
      const pointers = validateDynamicUpdate(schema, {
        batteryCondition: { measuredAt: value, stateOfHealthPercent: 90 },
        negativeEvents: [{ description: 'Overheating', occurredAt: value }],
      }).map((v) => v.pointer);
      assert.deepEqual(pointers, ['/batteryCondition/measuredAt', '/negativeEvents/0/occurredAt'], value);
    }
  });
});
