import assert from 'node:assert/strict';
import { test } from 'vitest';
import { delayAfter, MAX_DELAY_SECONDS } from '../../src/accounts/identity/login-throttle.ts';

test('an address (or a known device) has five free failures, then 1, 2, 4, 8, 16 s and at most 30 s', () => {
  for (const kind of ['account', 'device'] as const) {
    assert.deepEqual(
      Array.from({ length: 12 }, (_, i) => delayAfter(kind, i + 1)),
      [0, 0, 0, 0, 1, 2, 4, 8, 16, 30, 30, 30],
    );
  }
  assert.equal(delayAfter('account', 10_000), MAX_DELAY_SECONDS, 'never a lock: the delay stops growing');
  assert.ok(MAX_DELAY_SECONDS < 60, 'the owner is in within a minute');
});

test('a client, which counts every address it tries, has twenty free failures', () => {
  assert.equal(delayAfter('client', 19), 0);
  assert.equal(delayAfter('client', 20), 1);
  assert.equal(delayAfter('client', 25), 30);
});
