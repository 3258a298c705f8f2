import assert from 'node:assert/strict';
import { test } from 'vitest';
import { gs1CheckDigit, isValidGtin14, withCheckDigit } from '../../src/standards/gs1/gtin.ts';

test('GS1 check digits match published examples', () => {
  // GS1 General Specifications example: GTIN-13 629104150021 → check digit 3.
  assert.equal(gs1CheckDigit('629104150021'), 3);
  assert.ok(isValidGtin14('00012345600012'));
  assert.ok(isValidGtin14(withCheckDigit('0950600013435')));
});

test('wrong length, letters or a wrong check digit are refused', () => {
  for (const bad of ['0001234560001', '000123456000123', '0001234560001X', '00012345600013']) {
    assert.equal(isValidGtin14(bad), false, bad);
  }
});
