import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import {
  currencyDecimals,
  formatMinorUnits,
  MAX_CHARGE_AMOUNT,
  type SaleProceeds,
  splitProceeds,
  THREE_DECIMAL,
  ZERO_DECIMAL,
} from '../../src/lifecycle/resale/money.ts';

/** Every currency class Stripe has: all zero- and three-decimal ones, and the two-decimal ones we see most. */
const CURRENCIES = [...ZERO_DECIMAL, ...THREE_DECIMAL, 'eur', 'usd', 'gbp', 'chf', 'sek', 'pln', 'huf'];

/** A deterministic pseudo-random sequence (mulberry32), so a failure names a case that can be rerun. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fees a card charge can carry: none, percentage + fixed part in the currency's minor units, or all of it. */
function feesFor(gross: number, currency: string): number[] {
  const fixed = currencyDecimals(currency) === 0 ? 40 : currencyDecimals(currency) === 3 ? 250 : 25;
  return [
    0,
    1,
    Math.round(gross * 0.015) + fixed,
    Math.round(gross * 0.029) + fixed,
    Math.round(gross * 0.034) + fixed,
    gross,
    gross + 1,
  ];
}

function checkParts(split: SaleProceeds, gross: number, fee: number, what: string) {
  const parts = [split.seller, split.brand, split.platform];
  for (const part of parts) {
    assert.ok(Number.isSafeInteger(part) && part >= 0, `${what}: ${JSON.stringify(split)}`);
  }
  assert.equal(split.net, Math.max(0, gross - fee), what);
  assert.equal(split.seller + split.brand + split.platform, split.net, `${what}: parts add up to the net`);
  // Each share is its percentage of the net, rounded down; the platform keeps at least its 1 %.
  assert.ok(split.seller * 100 <= split.net * 94 && (split.seller + 1) * 100 > split.net * 94, what);
  assert.ok(split.brand * 100 <= split.net * 5 && (split.brand + 1) * 100 > split.net * 5, what);
  assert.ok(split.platform * 100 >= split.net, `${what}: the platform keeps at least 1 %`);
  assert.ok(split.platform * 100 < split.net + 200, `${what}: the platform keeps 1 % and at most 2 units`);
}

describe('the 94/5/1 split of a sale net of the payment provider’s fee', () => {
  test('the worked example of docs/resale.md: 129.00 EUR with a 2.19 EUR card fee', () => {
    assert.deepEqual(splitProceeds({ gross: 12900, fee: 219, currency: 'EUR' }), {
      currency: 'eur',
      gross: 12900,
      fee: 219,
      net: 12681,
      seller: 11920,
      brand: 634,
      platform: 127,
    });
    // Splitting the gross instead left the platform 129 − 219 = −90: a loss on every such sale.
  });

  test('every amount from 1 to 100,000 minor units and the largest ones, without a fee', () => {
    const amounts = [
      ...Array.from({ length: 100_000 }, (_, i) => i + 1),
      ...Array.from({ length: 1000 }, (_, i) => MAX_CHARGE_AMOUNT - i),
    ];
    for (const gross of amounts)
      checkParts(splitProceeds({ gross, fee: 0, currency: 'eur' }), gross, 0, `${gross}`);
  });

  test('amounts from 1 minor unit to 99,999,999 in every currency class, with realistic and extreme fees', () => {
    const next = random(20);
    for (const currency of CURRENCIES) {
      const amounts = [1, 2, 49, 50, 99, 100, 101, 12900, MAX_CHARGE_AMOUNT - 1, MAX_CHARGE_AMOUNT];
      for (let i = 0; i < 2000; i++) amounts.push(1 + Math.floor(next() * MAX_CHARGE_AMOUNT));
      for (const gross of amounts) {
        for (const fee of feesFor(gross, currency)) {
          const split = splitProceeds({ gross, fee, currency });
          checkParts(split, gross, fee, `${gross} ${currency}, fee ${fee}`);
          assert.equal(split.currency, currency);
          // The decimal strings add up too, in the currency's own minor units.
          const decimals = currencyDecimals(currency);
          const sum = [split.seller, split.brand, split.platform]
            .map((part) => Number(formatMinorUnits(part, currency).replace('.', '')))
            .reduce((a, b) => a + b, 0);
          assert.equal(sum, split.net, `${gross} ${currency} (${decimals} decimals)`);
        }
      }
    }
  });

  test('a fee at or above the amount leaves nothing to share, and nobody a negative transfer', () => {
    assert.deepEqual(splitProceeds({ gross: 50, fee: 75, currency: 'eur' }), {
      currency: 'eur',
      gross: 50,
      fee: 50,
      net: 0,
      seller: 0,
      brand: 0,
      platform: 0,
    });
  });

  test('amounts that are not whole non-negative minor units are refused', () => {
    for (const [gross, fee] of [
      [12.5, 0],
      [-1, 0],
      [100, -1],
      [100, 0.5],
      [Number.NaN, 0],
      [2 ** 53, 0],
    ] as const) {
      assert.throws(() => splitProceeds({ gross, fee, currency: 'eur' }), RangeError, `${gross}, ${fee}`);
    }
  });
});
