import assert from 'node:assert/strict';
import { test } from 'vitest';
import { apiKeyMatches, generateApiKey, parseApiKey } from '../../src/accounts/keys/api-key-format.ts';

test('keys carry their environment in the prefix and are unique', () => {
  const live = generateApiKey('live');
  const test = generateApiKey('test');
  assert.match(live.key, /^sk_live_[0-9A-Za-z]{40}$/);
  assert.match(test.key, /^sk_test_[0-9A-Za-z]{40}$/);
  const many = new Set(Array.from({ length: 1000 }, () => generateApiKey('test').key));
  assert.equal(many.size, 1000);
});

test('parse recovers environment and lookup id; anything else is refused', () => {
  const generated = generateApiKey('live');
  assert.deepEqual(parseApiKey(generated.key), { environment: 'live', lookupId: generated.lookupId });
  for (const bad of [
    '',
    'sk_prod_abc',
    `sk_test_${'a'.repeat(39)}`,
    `${generated.key} `,
    `pk_live_${'a'.repeat(40)}`,
  ]) {
    assert.equal(parseApiKey(bad), undefined, bad);
  }
});

test('only the exact key matches its stored hash', () => {
  const generated = generateApiKey('test');
  assert.ok(apiKeyMatches(generated.key, generated.secretHash));
  // Another last character (a key that already ends in '0' must not be "changed" into itself).
  const other = generated.key.endsWith('0') ? '1' : '0';
  assert.ok(!apiKeyMatches(`${generated.key.slice(0, -1)}${other}`, generated.secretHash));
  assert.ok(!apiKeyMatches(generated.key, 'ab'));
});
