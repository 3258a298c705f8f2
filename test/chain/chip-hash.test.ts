import assert from 'node:assert/strict';
import { keccak256, toUtf8Bytes } from 'ethers';
import { test } from 'vitest';
import { chipHash } from '../../src/adapters/chain/chip-hash.ts';

test('chip hash is keccak256 of the canonical uppercase hex UID, whatever the input spelling', () => {
  const expected = keccak256(toUtf8Bytes('04DE5F1EACC040'));
  assert.equal(chipHash('04DE5F1EACC040'), expected);
  assert.equal(chipHash('04de5f1eacc040'), expected);
  assert.equal(chipHash(' 04:de:5F:1e:ac:c0:40 '), expected);
  assert.notEqual(chipHash('04DE5F1EACC041'), expected);
});

test('an invalid chip UID is refused before anything reaches the chain', () => {
  assert.throws(() => chipHash('04DE5F'), { name: 'TypeError', message: /7 bytes/ });
  assert.throws(() => chipHash('04DE5F1EACC0ZZ'), TypeError);
  assert.throws(() => chipHash(''), TypeError);
});
