import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { aesCbcEncrypt } from '../../../src/standards/sun/aes-cmac.ts';
import {
  counterFromBytes,
  counterToBytes,
  decryptPiccData,
  encryptPiccData,
  parsePiccData,
} from '../../../src/standards/sun/picc-data.ts';
import { BRIEF_TYPO_PICC_DATA, hex, PICC_ONLY, WITH_ENC_FILE_DATA, ZERO_KEY } from './an12196-vectors.ts';

function encryptRaw(plainHex: string): Buffer {
  return aesCbcEncrypt(ZERO_KEY, Buffer.alloc(16), hex(plainHex));
}

describe('PICCData', () => {
  it('decrypts the AN12196 vector to tag C7, UID 04DE5F1EACC040, counter 61', () => {
    const result = decryptPiccData(ZERO_KEY, hex(PICC_ONLY.piccData));
    assert.ok(result.ok, result.ok ? '' : result.message);
    assert.equal(result.picc.tag, 0xc7);
    assert.equal(result.picc.uid.toString('hex').toUpperCase(), PICC_ONLY.uid);
    assert.equal(result.picc.counterBytes.toString('hex').toUpperCase(), PICC_ONLY.counterBytes);
    assert.equal(result.picc.counter, 61);
  });

  it('decrypts the AN12196 file-data vector to UID 04958CAA5C5E80, counter 8', () => {
    const result = decryptPiccData(ZERO_KEY, hex(WITH_ENC_FILE_DATA.piccData));
    assert.ok(result.ok);
    assert.equal(result.picc.uid.toString('hex').toUpperCase(), WITH_ENC_FILE_DATA.uid);
    assert.equal(result.picc.counter, 8);
  });

  it('re-encrypts to the vector given the same padding', () => {
    const enc = encryptPiccData(ZERO_KEY, hex(PICC_ONLY.uid), 61, hex(PICC_ONLY.piccPadding));
    assert.equal(enc.toString('hex').toUpperCase(), PICC_ONLY.piccData);
  });

  it('rejects a UID length other than 7', () => {
    const result = decryptPiccData(ZERO_KEY, encryptRaw('C404DE5F1EACC0403D0000DA5CF60941'));
    assert.equal(result.ok, false);
    assert.match(result.ok ? '' : result.message, /UID length of 4, NTAG 424 DNA uses 7/);
  });

  it('rejects PICCData without counter or UID mirroring, or with RFU bits set', () => {
    for (const tag of ['87', '47', 'F7']) {
      const result = decryptPiccData(ZERO_KEY, encryptRaw(`${tag}04DE5F1EACC0403D0000DA5CF60941`));
      assert.equal(result.ok, false, `tag ${tag}`);
    }
  });

  it('rejects with a wrong meta-read key (garbage tag)', () => {
    const wrongKey = Buffer.alloc(16, 1);
    assert.equal(decryptPiccData(wrongKey, hex(PICC_ONLY.piccData)).ok, false);
  });

  it('rejects the brief PICCData variant ...10E8DD6B (decrypts to tag 0xDB)', () => {
    const result = decryptPiccData(ZERO_KEY, hex(BRIEF_TYPO_PICC_DATA));
    assert.equal(result.ok, false);
    assert.match(result.ok ? '' : result.message, /0xDB/);
  });

  it('rejects PICCData that is not 16 bytes', () => {
    assert.equal(parsePiccData(Buffer.alloc(15)).ok, false);
    assert.equal(decryptPiccData(ZERO_KEY, Buffer.alloc(32)).ok, false);
  });
});

describe('SDMReadCtr encoding (LSB first)', () => {
  it('round-trips', () => {
    assert.equal(counterFromBytes(hex('3D0000')), 61);
    assert.equal(counterFromBytes(hex('010203')), 0x030201);
    assert.equal(counterToBytes(0xfffffe).toString('hex'), 'feffff');
    assert.equal(counterFromBytes(counterToBytes(123456)), 123456);
  });

  it('rejects counters outside 24 bits', () => {
    assert.throws(() => counterToBytes(-1), RangeError);
    assert.throws(() => counterToBytes(0x1000000), RangeError);
    assert.throws(() => counterToBytes(1.5), RangeError);
  });
});
