import assert from 'node:assert/strict';
import { decodeList } from '@digitalbazaar/vc-bitstring-status-list';
import { describe, test } from 'vitest';
import { base58btcDecode, base58btcEncode } from '../../../src/standards/credentials/multibase.ts';
import {
  encodeStatusList,
  STATUS_LIST_SIZE,
  statusBit,
} from '../../../src/standards/credentials/status-list.ts';

describe('base58btc', () => {
  test('round-trips bytes, leading zeros included, with the Bitcoin alphabet', () => {
    for (const hex of ['', '00', '0000ff', '61', `ed01${'ab'.repeat(32)}`, `${'00'.repeat(5)}0102`]) {
      const bytes = Buffer.from(hex, 'hex');
      assert.deepEqual(base58btcDecode(base58btcEncode(bytes)), bytes, hex);
    }
    assert.equal(base58btcEncode(Buffer.from('hello world')), 'StV1DL6CwTryKyV');
    assert.equal(base58btcEncode(Buffer.from('0000287fb4cd', 'hex')), '11233QC4');
    assert.throws(() => base58btcDecode('0OIl'));
  });
});

describe('BitstringStatusList encoding', () => {
  test('131,072 entries; the bits we set are the ones a verifier library reads', async () => {
    const set = [0, 7, 8, 12_345, STATUS_LIST_SIZE - 1];
    const encoded = encodeStatusList(set);
    assert.ok(encoded.startsWith('u'), 'multibase base64url');
    assert.doesNotMatch(encoded.slice(1), /[+/=]/, 'base64url without padding');
    const list = await decodeList({ encodedList: encoded });
    assert.equal(list.length, STATUS_LIST_SIZE);
    for (const index of [...set, 1, 6, 9, 12_344, 12_346, STATUS_LIST_SIZE - 2]) {
      assert.equal(list.getStatus(index), set.includes(index), `bit ${index}`);
      assert.equal(statusBit(encoded, index), set.includes(index), `our reading of bit ${index}`);
    }
    // GZIP: a list of zeros is tiny.
    assert.ok(encodeStatusList([]).length < 200);
    assert.throws(() => encodeStatusList([STATUS_LIST_SIZE]));
  });
});
