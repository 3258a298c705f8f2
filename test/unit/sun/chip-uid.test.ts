import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { chipUidFromBytes, normalizeChipUid } from '../../../src/standards/sun/index.ts';

describe('normalizeChipUid', () => {
  it('canonicalises to upper-case hex without separators', () => {
    for (const input of [
      '04:de:5f:1e:ac:c0:40',
      '04DE5F1EACC040',
      '04de5f1eacc040',
      ' 04:DE:5F:1E:AC:C0:40 ',
    ]) {
      assert.deepEqual(normalizeChipUid(input), { ok: true, uid: '04DE5F1EACC040' }, input);
    }
  });

  it('rejects other lengths, bad separators and non-hex with a message', () => {
    const cases: Array<[unknown, RegExp]> = [
      ['04DE5F1EACC0', /7 bytes \(14 hex digits\).*got 12/],
      ['04DE5F1EACC04011', /got 16/],
      ['04:de:5f:1e:ac:c0', /got 12/],
      ['04de:5f1e:acc040', /colon-separated byte pairs/],
      ['04:de:5f:1e:ac:c0:40:', /colon-separated byte pairs/],
      ['04-DE-5F-1E-AC-C0-40', /not hex digits/],
      ['04DE5F1EACC04G', /not hex digits/],
      ['', /empty/],
      [null, /must be a string/],
    ];
    for (const [input, pattern] of cases) {
      const result = normalizeChipUid(input);
      assert.equal(result.ok, false, String(input));
      assert.match(result.ok ? '' : result.message, pattern, String(input));
    }
  });

  it('formats raw bytes canonically', () => {
    assert.equal(chipUidFromBytes(Buffer.from([0x04, 0xde, 0x5f, 0x1e, 0xac, 0xc0, 0x40])), '04DE5F1EACC040');
  });
});
