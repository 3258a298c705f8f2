import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { newContentAjv } from '../../../src/passport/content/content-ajv.ts';
import { isRfc3339DateTime, isRfc3339FullDate } from '../../../src/standards/time/rfc3339.ts';
import { dateTimeField, fullDateField } from '../../../src/standards/time/zod-rfc3339.ts';

/**
 * The date rule against independent oracles: JavaScript's proleptic Gregorian calendar (a day is real when
 * Date keeps it as given instead of rolling it over) and a round trip of the offset through minutes.
 */
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const day = (y: number, m: number, d: number) => `${pad(y, 4)}-${pad(m)}-${pad(d)}`;

function realDay(y: number, m: number, d: number): boolean {
  const t = new Date(0);
  t.setUTCFullYear(y, m - 1, d); // not Date.UTC: it maps years 0–99 to 1900–1999
  return y >= 1 && t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** Deterministic generator (mulberry32), so a failure names a reproducible case. */
function random(seed: number) {
  let a = seed >>> 0;
  return (below: number): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  };
}

describe('RFC 3339 dates and date-times (one rule for every write path)', () => {
  test('every day of a 400-year Gregorian cycle, and the days just past each month’s end', () => {
    let real = 0;
    for (let y = 2000; y < 2400; y++) {
      for (let m = 0; m <= 13; m++) {
        for (let d = 0; d <= 32; d++) {
          const expected = realDay(y, m, d) && m >= 1 && m <= 12;
          assert.equal(isRfc3339FullDate(day(y, m, d)), expected, day(y, m, d));
          if (expected) real++;
        }
      }
    }
    assert.equal(real, 146_097); // the days of a Gregorian cycle
  });

  test('month ends in every year 0001–9999 (leap years by the Gregorian rules), year 0000 refused', () => {
    for (let y = 0; y <= 9999; y++) {
      for (let m = 1; m <= 12; m++) {
        for (let d = 28; d <= 32; d++) {
          assert.equal(isRfc3339FullDate(day(y, m, d)), realDay(y, m, d), day(y, m, d));
        }
      }
    }
  });

  test('random date-times and offsets against Date and an offset round trip; Ajv and zod agree', () => {
    const next = random(20261127);
    const ajv = newContentAjv();
    const ajvDateTime = ajv.compile({ type: 'string', format: 'date-time' });
    const zodDateTime = dateTimeField();
    let valid = 0;
    for (let i = 0; i < 50_000; i++) {
      const [y, m, d] = [next(10) === 0 ? next(3) : 1 + next(9999), next(14), next(33)];
      const [h, min, s] = [next(26), next(62), next(62)];
      const digits = next(4) === 0 ? next(11) : -1; // -1: no fraction
      const fraction = digits < 0 ? '' : `.${'7'.repeat(digits)}`;
      const zone = next(3);
      const [oh, om, sign] = [next(26), next(62), next(2) ? '+' : '-'];
      const offset = zone === 0 ? 'Z' : `${sign}${pad(oh)}:${pad(om)}`;
      const value = `${day(y, m, d)}T${pad(h)}:${pad(min)}:${pad(s)}${fraction}${offset}`;

      const t = new Date(0);
      t.setUTCFullYear(y, m - 1, d);
      t.setUTCHours(h, min, s);
      const keptAsGiven =
        realDay(y, m, d) &&
        t.getUTCFullYear() === y &&
        t.getUTCDate() === d &&
        t.getUTCHours() === h &&
        t.getUTCMinutes() === min &&
        t.getUTCSeconds() === s;
      const offsetMinutes = zone === 0 ? 0 : oh * 60 + om;
      const offsetRoundTrips =
        zone === 0 || (Math.floor(offsetMinutes / 60) === oh && offsetMinutes % 60 === om);
      const expected =
        keptAsGiven && offsetRoundTrips && offsetMinutes <= 14 * 60 && digits !== 0 && digits <= 9;

      assert.equal(isRfc3339DateTime(value), expected, value);
      assert.equal(ajvDateTime(value), expected, `ajv ${value}`);
      assert.equal(zodDateTime.safeParse(value).success, expected, `zod ${value}`);
      if (expected && fraction === '') {
        const signed = zone === 0 ? 0 : (sign === '+' ? 1 : -1) * offsetMinutes;
        assert.equal(Date.parse(value), t.getTime() - signed * 60_000, `Date.parse ${value}`);
      }
      if (expected) valid++;
    }
    assert.ok(valid > 1000, `only ${valid} valid cases generated`);
  });

  test('the audit’s values and the edges of the rule', () => {
    for (const value of [
      '9999-99-99T99:99:99Z',
      '2026-02-30T25:61:00Z',
      '2026-02-29T00:00:00Z',
      '1900-02-29T00:00:00Z',
      '2026-04-31T12:00:00Z',
      '2026-12-31T23:59:60Z', // leap second: refused (xs:dateTime has none)
      '2026-01-01T24:00:00Z',
      '2026-01-01T00:00:00+14:01',
      '2026-01-01T00:00:00-15:00',
      '2026-01-01T00:00:00+0100',
      '2026-01-01T00:00:00',
      '2026-01-01t00:00:00z',
      '2026-01-01 00:00:00Z',
      '2026-01-01T00:00Z',
      '2026-01-01T00:00:00.Z',
      '2026-01-01T00:00:00.1234567890Z',
      '0000-01-01T00:00:00Z',
      '２０２６-01-01T00:00:00Z',
      '',
    ]) {
      assert.equal(isRfc3339DateTime(value), false, value);
    }
    for (const value of [
      '2024-02-29T23:59:59Z',
      '2000-02-29T00:00:00Z',
      '0001-01-01T00:00:00Z',
      '9999-12-31T23:59:59.999999999Z',
      '2026-11-27T16:00:00+14:00',
      '2026-11-27T16:00:00-12:00',
      '2026-11-27T16:00:00-00:00',
      '2026-11-27T16:00:00.5+05:45',
    ]) {
      assert.equal(isRfc3339DateTime(value), true, value);
    }
    const ajvDate = newContentAjv().compile({ type: 'string', format: 'date' });
    for (const [value, expected] of [
      ['2026-02-28', true],
      ['2024-02-29', true],
      ['2026-02-29', false],
      ['9999-99-99', false],
      ['2026-2-28', false],
      ['0000-01-01', false],
      ['2026-02-28T00:00:00Z', false],
    ] as const) {
      assert.equal(isRfc3339FullDate(value), expected, value);
      assert.equal(ajvDate(value), expected, `ajv ${value}`);
      assert.equal(fullDateField().safeParse(value).success, expected, `zod ${value}`);
    }
  });
});
