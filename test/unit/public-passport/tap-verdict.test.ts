import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import {
  readVerdict,
  signVerdict,
  VERDICT_TTL_SECONDS,
  verdictKey,
} from '../../../src/passport/views/tap-verdict.ts';

describe('tap verdict tokens (what the verification page shows after a tap)', () => {
  const key = verdictKey(Buffer.alloc(32, 1));
  const checkedAt = 1_800_000_000;
  const claims = { verdict: 'authentic' as const, environment: 'live' as const, tokenId: '42', checkedAt };
  const at = (seconds: number) => ({
    environment: 'live' as const,
    tokenId: '42',
    now: new Date(seconds * 1000),
  });

  test('a token we signed reads back for its passport while fresh', () => {
    const token = signVerdict(key, claims);
    assert.match(token, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    assert.deepEqual(readVerdict(key, token, at(checkedAt + 5)), { ok: true, claims });
    for (const verdict of ['replayed', 'forged'] as const) {
      const read = readVerdict(key, signVerdict(key, { ...claims, verdict }), at(checkedAt));
      assert.equal(read.ok && read.claims.verdict, verdict);
    }
  });

  test('expires after ten minutes', () => {
    const token = signVerdict(key, claims);
    assert.deepEqual(readVerdict(key, token, at(checkedAt + VERDICT_TTL_SECONDS + 1)), {
      ok: false,
      reason: 'expired',
    });
  });

  test('cannot be forged, altered or moved to another passport or environment', () => {
    const token = signVerdict(key, { ...claims, verdict: 'forged' });
    const [payload, mac] = token.split('.') as [string, string];
    const claimsAuthentic = Buffer.from(JSON.stringify(['a', 'live', '42', checkedAt])).toString('base64url');
    const invalid = { ok: false, reason: 'invalid' };
    assert.deepEqual(readVerdict(key, `${claimsAuthentic}.${mac}`, at(checkedAt)), invalid, 'altered');
    assert.deepEqual(
      readVerdict(verdictKey(Buffer.alloc(32, 2)), token, at(checkedAt)),
      invalid,
      'other key',
    );
    assert.deepEqual(readVerdict(key, token, { ...at(checkedAt), tokenId: '43' }), invalid, 'other passport');
    assert.deepEqual(
      readVerdict(key, token, { ...at(checkedAt), environment: 'test' }),
      invalid,
      'other env',
    );
    assert.deepEqual(readVerdict(key, `${payload}`, at(checkedAt)), invalid, 'no MAC');
    assert.deepEqual(readVerdict(key, 'garbage', at(checkedAt)), invalid);
  });
});
