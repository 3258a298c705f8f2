import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { aesCmac, aesEncryptBlock, cmacSubkeys, truncateMac } from '../../../src/standards/sun/aes-cmac.ts';
import { hex, RFC4493 } from './an12196-vectors.ts';

describe('AES-CMAC (RFC 4493)', () => {
  const key = hex(RFC4493.key);

  it('derives the published subkeys L, K1, K2', () => {
    assert.equal(aesEncryptBlock(key, Buffer.alloc(16)).toString('hex'), RFC4493.l);
    const { k1, k2 } = cmacSubkeys(key);
    assert.equal(k1.toString('hex'), RFC4493.k1);
    assert.equal(k2.toString('hex'), RFC4493.k2);
  });

  for (const example of RFC4493.examples) {
    it(`matches example with Mlen = ${example.len}`, () => {
      const message = hex(RFC4493.message).subarray(0, example.len);
      assert.equal(aesCmac(key, message).toString('hex'), example.mac);
    });
  }

  it('rejects keys that are not 16 bytes', () => {
    assert.throws(() => aesCmac(Buffer.alloc(15), Buffer.alloc(0)), TypeError);
  });
});

describe('truncateMac', () => {
  it('keeps the odd-indexed bytes 1, 3, ..., 15', () => {
    assert.equal(truncateMac(hex('00112233445566778899aabbccddeeff')).toString('hex'), '1133557799bbddff');
  });

  it('rejects a MAC that is not 16 bytes', () => {
    assert.throws(() => truncateMac(Buffer.alloc(8)), TypeError);
  });
});
