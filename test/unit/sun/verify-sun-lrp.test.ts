import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { truncateMac } from '../../../src/standards/sun/aes-cmac.ts';
import { generateSun, NTAG_424_DNA, verifySun, verifySunMessage } from '../../../src/standards/sun/index.ts';
import { chipKey } from '../../../src/standards/sun/key-diversification.ts';
import { cmacLrp, lricbEncrypt, lrpCipher } from '../../../src/standards/sun/lrp.ts';
import {
  lrpSessionMasterKey,
  lrpSessionVector,
  verifySunLrp,
} from '../../../src/standards/sun/verify-sun-lrp.ts';

/*
 * LRP-mode SUN vectors. NXP's AN12196 has no LRP-mode SUN example, so these are NOT NXP-published
 * vectors: they are real-chip captures (NTAG 424 DNA with LRP enabled, all-zero keys) published by the
 * author of nfc-developer/sdm-backend (https://github.com/nfc-developer/sdm-backend), reproduced by
 * several independent implementations:
 *  - SDM_ONLY: tests/test_lrp_sdm.py, test_lrp_sdm (MAC input from the PICCData value: "<PICCData>x");
 *    also gives the decrypted PICCData and K_SesSDMFileReadMaster.
 *  - WITH_FILE: tests/test_lrp_sdm.py, test_lrp_sdm_with_enc_file (MAC input "any.domain/?m=<PICCData>x<enc>x").
 *  - LRP1: tests/test_libsdm.py, test_sdm_lrp1 (SDMENCFileData, MAC input "<enc>&cmac=").
 *  - LRP2: tests/test_libsdm.py, test_sdm_lrp2 (empty MAC input).
 */
const ZERO_KEYS = { metaReadKey: Buffer.alloc(16), fileReadKey: Buffer.alloc(16) };

const SDM_ONLY = {
  piccData: 'AAE1508939ECF6FF26BCE407959AB1A5EC022819A35CD293',
  cmac: '5E3DB82C19E3865F',
  macInput: 'AAE1508939ECF6FF26BCE407959AB1A5EC022819A35CD293x',
  decryptedPiccData: 'c7042e1d222a63806a000016e2ca89d1',
  sessionKey: '99c2fd9c885c2ca3c9089c20057310c0',
  uid: '042E1D222A6380',
  counter: 106,
} as const;

const WITH_FILE = {
  piccData: '65628ED36888CF9C84797E43ECACF114C6ED9A5E101EB592',
  encFileData: '4ADE304B5AB9474CB40AFFCAB0607A85',
  cmac: '87E287E8135BFC06',
  macInput:
    'any.domain/?m=65628ED36888CF9C84797E43ECACF114C6ED9A5E101EB592x4ADE304B5AB9474CB40AFFCAB0607A85x',
  sessionKey: '817133dd9fff11b94fc2fb107aa4d971',
  uid: '042E1D222A6380',
  counter: 123,
  fileData: '0102030400000000',
} as const;

const LRP1 = {
  piccData: '07D9CA2545881D4BFDD920BE1603268C0714420DD893A497',
  encFileData: 'D6E921C47DB4C17C56F979F81559BB83',
  cmac: 'F9481AC7D855BDB6',
  macInput: 'D6E921C47DB4C17C56F979F81559BB83&cmac=',
  uid: '049B112A2F7080',
  counter: 4,
  fileData: 'NTXXb7dz3PsYYBlU',
} as const;

const LRP2 = {
  piccData: '1FCBE61B3E4CAD980CBFDD333E7A4AC4A579569BAFD22C5F',
  cmac: '4231608BA7B02BA9',
  uid: '04940E2A2F7080',
  counter: 3,
} as const;

function flipHexDigit(value: string, index: number): string {
  const digit = value[index] === '0' ? '1' : '0';
  return value.slice(0, index) + digit + value.slice(index + 1);
}

function reason(result: ReturnType<typeof verifySunLrp>): string {
  return result.ok ? 'ok' : result.reason;
}

describe('verifySunLrp: sdm-backend chip captures', () => {
  it('test_lrp_sdm: PICCData + CMAC over "<PICCData>x"', () => {
    const result = verifySunLrp({ ...SDM_ONLY, keys: ZERO_KEYS });
    assert.deepEqual(result, {
      ok: true,
      uid: SDM_ONLY.uid,
      counter: SDM_ONLY.counter,
      chipType: NTAG_424_DNA,
    });
  });

  it('test_lrp_sdm: decrypted PICCData and session key match the published intermediates', () => {
    const plain = Buffer.from(SDM_ONLY.decryptedPiccData, 'hex');
    const uid = plain.subarray(1, 8);
    const counterBytes = plain.subarray(8, 11);
    assert.equal(lrpSessionVector(uid, counterBytes).toString('hex'), '00010080042e1d222a63806a00001ee1');
    assert.equal(
      lrpSessionMasterKey(ZERO_KEYS.fileReadKey, uid, counterBytes).toString('hex'),
      SDM_ONLY.sessionKey,
    );
  });

  it('test_lrp_sdm_with_enc_file: PICCData + SDMENCFileData + CMAC', () => {
    const result = verifySunLrp({ ...WITH_FILE, keys: ZERO_KEYS });
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.uid, WITH_FILE.uid);
    assert.equal(result.counter, WITH_FILE.counter);
    assert.equal(result.fileData?.toString('ascii'), WITH_FILE.fileData);
    const session = lrpSessionMasterKey(
      ZERO_KEYS.fileReadKey,
      Buffer.from(WITH_FILE.uid, 'hex'),
      Buffer.from([WITH_FILE.counter, 0, 0]),
    );
    assert.equal(session.toString('hex'), WITH_FILE.sessionKey);
  });

  it('test_sdm_lrp1: SDMENCFileData with MAC input "<enc>&cmac="', () => {
    const result = verifySunLrp({ ...LRP1, keys: ZERO_KEYS });
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.uid, LRP1.uid);
    assert.equal(result.counter, LRP1.counter);
    assert.equal(result.fileData?.toString('ascii'), LRP1.fileData);
  });

  it('test_sdm_lrp2: PICCData + CMAC over an empty input, lower-case hex and Buffers', () => {
    const result = verifySunLrp({ ...LRP2, keys: ZERO_KEYS });
    assert.deepEqual(result, { ok: true, uid: LRP2.uid, counter: LRP2.counter, chipType: NTAG_424_DNA });
    const lower = verifySunLrp({
      piccData: LRP2.piccData.toLowerCase(),
      cmac: Buffer.from(LRP2.cmac, 'hex'),
      keys: ZERO_KEYS,
      expectedUid: '04:94:0e:2a:2f:70:80',
    });
    assert.equal(lower.ok, true);
  });

  it('the AES verifier does not accept LRP PICCData (24 bytes) and vice versa', () => {
    assert.equal(reason(verifySun({ ...LRP2, keys: ZERO_KEYS })), 'malformed');
    const aes = verifySunLrp({
      piccData: 'EF963FF7828658A599F3041510671E88',
      cmac: '94EED9EE65337086',
      keys: ZERO_KEYS,
    });
    assert.equal(reason(aes), 'malformed');
  });
});

describe('verifySunLrp: rejections', () => {
  const base = { piccData: LRP2.piccData, cmac: LRP2.cmac, keys: ZERO_KEYS };

  it('bad_cmac for every tampered CMAC digit', () => {
    for (let i = 0; i < LRP2.cmac.length; i++) {
      assert.equal(
        reason(verifySunLrp({ ...base, cmac: flipHexDigit(LRP2.cmac, i) })),
        'bad_cmac',
        `digit ${i}`,
      );
    }
  });

  it('bad_cmac when the MAC input or the file data is altered', () => {
    const keys = ZERO_KEYS;
    assert.equal(reason(verifySunLrp({ ...SDM_ONLY, macInput: `${SDM_ONLY.piccData}&`, keys })), 'bad_cmac');
    assert.equal(reason(verifySunLrp({ ...LRP1, macInput: '', encFileData: undefined, keys })), 'bad_cmac');
    const tamperedEnc = flipHexDigit(LRP1.encFileData, 5);
    const result = verifySunLrp({
      ...LRP1,
      encFileData: tamperedEnc,
      macInput: `${tamperedEnc}&cmac=`,
      keys,
    });
    assert.equal(reason(result), 'bad_cmac');
  });

  it('bad_cmac with a wrong file-read key', () => {
    const keys = { metaReadKey: ZERO_KEYS.metaReadKey, fileReadKey: Buffer.alloc(16, 0x11) };
    assert.equal(reason(verifySunLrp({ ...base, keys })), 'bad_cmac');
    assert.equal(reason(verifySunLrp({ ...LRP1, keys })), 'bad_cmac');
  });

  it('bad_tag with a wrong meta-read key', () => {
    // LRICB under a wrong key yields pseudo-random plaintext; its first byte would have to be exactly
    // 0xC7 to pass the tag check (chance 1/256). For these keys it is not (e.g. 0x9B for LRP2), so the
    // tap is rejected as bad_tag before the CMAC is computed.
    const keys = { metaReadKey: Buffer.alloc(16, 0x11), fileReadKey: ZERO_KEYS.fileReadKey };
    for (const vector of [SDM_ONLY, WITH_FILE, LRP1, LRP2]) {
      assert.equal(reason(verifySunLrp({ ...vector, keys })), 'bad_tag', vector.piccData);
    }
  });

  it('bad_tag when PICCRand (the LRICB counter) is altered', () => {
    // A different counter decrypts to a different pseudo-random block (tag 0x9A here), not 0xC7.
    const result = verifySunLrp({ ...base, piccData: flipHexDigit(LRP2.piccData, 0) });
    assert.equal(reason(result), 'bad_tag');
  });

  it('uid_mismatch for a genuine tap from another chip', () => {
    const result = verifySunLrp({ ...base, expectedUid: LRP1.uid });
    assert.equal(reason(result), 'uid_mismatch');
    assert.match(result.ok ? '' : result.message, new RegExp(LRP2.uid));
  });

  it('malformed for wrong lengths, non-hex or wrongly typed input', () => {
    const cases: Array<Record<string, unknown>> = [
      { piccData: LRP2.piccData.slice(0, 32) },
      { piccData: LRP2.piccData.slice(2) },
      { piccData: `${LRP2.piccData}00` },
      { piccData: LRP2.piccData.slice(1) },
      { piccData: `${LRP2.piccData.slice(0, 46)}ZZ` },
      { piccData: 42 },
      { cmac: LRP2.cmac.slice(0, 14) },
      { cmac: '' },
      { encFileData: 'ABCD', macInput: 'ABCD&cmac=' },
      { encFileData: '', macInput: '' },
      { macInput: 7 },
    ];
    for (const patch of cases) {
      const result = verifySunLrp({ ...base, ...patch } as Parameters<typeof verifySunLrp>[0]);
      assert.equal(reason(result), 'malformed', JSON.stringify(patch));
    }
  });

  it('malformed when encFileData is not inside the MAC input', () => {
    assert.equal(reason(verifySunLrp({ ...LRP1, macInput: '', keys: ZERO_KEYS })), 'malformed');
  });

  it('throws only for caller errors (bad key length, invalid expectedUid)', () => {
    assert.throws(
      () => verifySunLrp({ ...base, keys: { metaReadKey: Buffer.alloc(8), fileReadKey: Buffer.alloc(16) } }),
      TypeError,
    );
    assert.throws(() => verifySunLrp({ ...base, expectedUid: '04DE' }), TypeError);
  });
});

describe('verifySunLrp: diversified file-read key (self-generated tap, not a chip capture)', () => {
  it('derives the chip key from the decrypted UID', () => {
    // Builds a tap with the same steps as the chip (checked above against the captures), with the
    // AN10922-diversified K_SDMFileRead: only the key selection is exercised here.
    const master = Buffer.from('000102030405060708090A0B0C0D0E0F', 'hex');
    const systemIdentifier = Buffer.from('DPP', 'ascii');
    const uid = Buffer.from(LRP2.uid, 'hex');
    const counterBytes = Buffer.from([9, 0, 0]);
    const piccRand = Buffer.from('0011223344556677', 'hex');
    const plain = Buffer.concat([Buffer.from([0xc7]), uid, counterBytes, Buffer.alloc(5, 0xa5)]);
    const enc = lricbEncrypt(lrpCipher(ZERO_KEYS.metaReadKey), piccRand, plain, { padding: false });
    const session = lrpSessionMasterKey(chipKey(master, uid, systemIdentifier), uid, counterBytes);
    const cmac = truncateMac(cmacLrp(lrpCipher(session), Buffer.alloc(0)));
    const piccData = Buffer.concat([piccRand, enc]);
    const keys = { metaReadKey: ZERO_KEYS.metaReadKey, fileReadKey: master };

    const diversified = verifySunLrp({
      piccData,
      cmac,
      keys: { ...keys, fileReadKeyDiversification: { systemIdentifier } },
    });
    assert.deepEqual(diversified, { ok: true, uid: LRP2.uid, counter: 9, chipType: NTAG_424_DNA });
    assert.equal(reason(verifySunLrp({ piccData, cmac, keys })), 'bad_cmac');
  });
});

describe('SUN URLs in either mode', () => {
  it('verifySunMessage takes a 24-byte PICCData as LRP mode and a 16-byte one as AES mode', () => {
    const lrp = verifySunMessage(`https://dpp.example/t?e=${LRP2.piccData}&c=${LRP2.cmac}`, {
      keys: ZERO_KEYS,
    });
    assert.deepEqual(lrp.ok && [lrp.uid, lrp.counter], [LRP2.uid, LRP2.counter]);
    const aes = generateSun({ uid: '04DE5F1EACC040', counter: 9, keys: ZERO_KEYS });
    const aesResult = verifySunMessage(`picc_data=${aes.piccData}&cmac=${aes.cmac}`, { keys: ZERO_KEYS });
    assert.deepEqual(aesResult.ok && [aesResult.uid, aesResult.counter], ['04DE5F1EACC040', 9]);
    const neither = verifySunMessage(`e=${LRP2.piccData.slice(0, 40)}&c=${LRP2.cmac}`, { keys: ZERO_KEYS });
    assert.equal(!neither.ok && neither.reason, 'malformed');
  });
});
