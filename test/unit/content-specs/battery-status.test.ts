import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { keepBatteryUseData } from '../../../src/passport/content/battery/battery-kept.ts';
import { batteryStatusRefusal } from '../../../src/passport/content/battery/battery-status.ts';
import { changedPointers } from '../../../src/passport/content/changed-pointers.ts';
import { fullBatteryData } from '../../fixtures/battery-passport-data.ts';

// biome-ignore lint/suspicious/noExplicitAny: battery data as JSON
type Json = any;

const code = (from: unknown, to: unknown, role: 'operator' | 'repairer' | 'recycler' = 'operator') =>
  batteryStatusRefusal(from, to, role)?.code;

describe('battery status: one rule for every write path', () => {
  test('waste is final, nothing returns to original (moved from battery-dynamic.test.ts)', () => {
    assert.equal(code('original', 'repurposed'), undefined);
    assert.equal(code('repurposed', 'remanufactured'), undefined);
    assert.equal(code('waste', 'waste'), undefined);
    assert.equal(code('waste', 'repurposed'), 'battery_status_final');
    assert.equal(code('waste', 'original'), 'battery_status_final');
    for (const from of ['reused', 'repurposed', 'remanufactured']) {
      assert.equal(code(from, 'original'), 'battery_status_final', from);
    }
    assert.equal(code('original', undefined), undefined);
    // The first write may say original (or anything else).
    assert.equal(code(undefined, 'original'), undefined);
  });

  test('waste is declared by the brand or a recycler, never a repairer', () => {
    assert.equal(code('original', 'waste', 'operator'), undefined);
    assert.equal(code('reused', 'waste', 'recycler'), undefined);
    assert.equal(code('original', 'waste', 'repairer'), 'waste_declaration_forbidden');
    assert.equal(batteryStatusRefusal('original', 'waste', 'repairer')?.kind, 'forbidden');
    assert.equal(code('original', 'repurposed', 'repairer'), undefined);
  });
});

describe('a PUT without If-Match keeps the appended use data', () => {
  const condition = (data: Json) => data.performanceAndDurability.batteryCondition;

  test('appended items stay in their place, the body’s new ones follow', () => {
    const stored: Json = fullBatteryData();
    condition(stored).accidentReports = ['https://example.com/r/1'];
    condition(stored).negativeEvents.push({ description: 'Overheating', occurredAt: '2026-11-25T01:00:00Z' });
    const body: Json = fullBatteryData();
    condition(body).accidentReports = ['https://example.com/r/2'];
    const kept: Json = keepBatteryUseData(stored, body);
    assert.deepEqual(condition(kept).accidentReports, ['https://example.com/r/1', 'https://example.com/r/2']);
    assert.deepEqual(
      condition(kept).negativeEvents.map((e: Json) => e.description),
      ['Deep discharge below 2.5 V/cell', 'Overheating'],
    );
    // Repeated items are counted: a body repeating a stored item adds it once more only if it lists it twice.
    condition(body).accidentReports = ['https://example.com/r/1', 'https://example.com/r/1'];
    assert.deepEqual(condition(keepBatteryUseData(stored, body)).accidentReports, [
      'https://example.com/r/1',
      'https://example.com/r/1',
    ]);
    // The body itself is not modified.
    assert.deepEqual(condition(body).negativeEvents.length, 1);
  });

  test('a body without batteryCondition keeps the stored one; an older measurement does not replace a newer', () => {
    const stored: Json = fullBatteryData();
    const { batteryCondition: _dropped, ...rest } = (fullBatteryData() as Json).performanceAndDurability;
    const body: Json = { ...fullBatteryData(), performanceAndDurability: rest };
    assert.deepEqual(condition(keepBatteryUseData(stored, body)), condition(stored));

    condition(stored).measuredAt = '2026-11-26T00:00:00Z';
    condition(stored).stateOfHealthPercent = 90;
    const older: Json = fullBatteryData();
    condition(older).stateOfHealthPercent = 99;
    assert.equal(condition(keepBatteryUseData(stored, older)).stateOfHealthPercent, 90);
    const newer: Json = fullBatteryData();
    condition(newer).measuredAt = '2026-11-27T00:00:00Z';
    condition(newer).stateOfHealthPercent = 88;
    assert.equal(condition(keepBatteryUseData(stored, newer)).stateOfHealthPercent, 88);
  });

  test('changed pointers: members compared inside objects, arrays and values whole', () => {
    const before: Json = fullBatteryData();
    const after: Json = fullBatteryData();
    after.generalProductInformation.warrantyPeriod = 'P9Y';
    condition(after).accidentReports = ['x'];
    delete after.generalProductInformation.puttingIntoServiceDate;
    assert.deepEqual(changedPointers(before, after), [
      '/generalProductInformation/puttingIntoServiceDate',
      '/generalProductInformation/warrantyPeriod',
      '/performanceAndDurability/batteryCondition/accidentReports',
    ]);
    assert.deepEqual(changedPointers(before, fullBatteryData() as Json), []);
    assert.deepEqual(changedPointers({ 'a/b': 1 }, { 'a/b': 2 }), ['/a~1b']);
  });
});
