import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import {
  decryptFileData,
  encryptFileData,
  sessionMacKey,
  sessionVector1,
  sessionVector2,
} from '../../../src/standards/sun/session-keys.ts';
import { hex, PICC_ONLY, WITH_ENC_FILE_DATA, ZERO_KEY } from './an12196-vectors.ts';

describe('SDM session keys (AES mode)', () => {
  it('builds SV2 = 3CC3 0001 0080 || UID || SDMReadCtr (16 bytes)', () => {
    const sv2 = sessionVector2(hex(PICC_ONLY.uid), hex(PICC_ONLY.counterBytes));
    assert.equal(sv2.toString('hex').toUpperCase(), PICC_ONLY.sv2);
  });

  it('builds SV1 with the C33C prefix', () => {
    const sv1 = sessionVector1(hex(PICC_ONLY.uid), hex(PICC_ONLY.counterBytes));
    assert.equal(sv1.toString('hex').toUpperCase(), 'C33C0001008004DE5F1EACC0403D0000');
  });

  it('zero-pads a short vector to 16 bytes', () => {
    assert.equal(
      sessionVector2(Buffer.alloc(0), hex('010000')).toString('hex'),
      '3cc30001008001000000000000000000',
    );
  });

  it('derives K_SesSDMFileReadMAC of both AN12196 examples', () => {
    const a = sessionMacKey(ZERO_KEY, hex(PICC_ONLY.uid), hex(PICC_ONLY.counterBytes));
    assert.equal(a.toString('hex').toUpperCase(), PICC_ONLY.sesMacKey);
    const b = sessionMacKey(ZERO_KEY, hex(WITH_ENC_FILE_DATA.uid), hex(WITH_ENC_FILE_DATA.counterBytes));
    assert.equal(b.toString('hex').toUpperCase(), WITH_ENC_FILE_DATA.sesMacKey);
  });

  it('decrypts the AN12196 SDMENCFileData to "xxxxxxxxxxxxxxxx" and re-encrypts it', () => {
    const uid = hex(WITH_ENC_FILE_DATA.uid);
    const ctr = hex(WITH_ENC_FILE_DATA.counterBytes);
    const plain = decryptFileData(ZERO_KEY, uid, ctr, hex(WITH_ENC_FILE_DATA.encFileData));
    assert.equal(plain.toString('ascii'), WITH_ENC_FILE_DATA.fileData);
    const enc = encryptFileData(ZERO_KEY, uid, ctr, plain);
    assert.equal(enc.toString('hex').toUpperCase(), WITH_ENC_FILE_DATA.encFileData);
  });
});
