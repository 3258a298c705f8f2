import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import {
  FACTORY_DEFAULT_KEY,
  NTAG_424_DNA,
  verifySun,
  verifySunMessage,
} from '../../../src/standards/sun/index.ts';
import { BRIEF_TYPO_PICC_DATA, PICC_ONLY, WITH_ENC_FILE_DATA, ZERO_KEYS } from './an12196-vectors.ts';

function flipHexDigit(value: string, index: number): string {
  const digit = value[index] === '0' ? '1' : '0';
  return value.slice(0, index) + digit + value.slice(index + 1);
}

describe('verifySun: AN12196 vectors', () => {
  it('verifies PICCData + CMAC over an empty input', () => {
    const result = verifySun({ piccData: PICC_ONLY.piccData, cmac: PICC_ONLY.cmac, keys: ZERO_KEYS });
    assert.deepEqual(result, { ok: true, uid: '04DE5F1EACC040', counter: 61, chipType: NTAG_424_DNA });
  });

  it('accepts lower-case hex and Buffers, and FACTORY_DEFAULT_KEY', () => {
    const result = verifySun({
      piccData: PICC_ONLY.piccData.toLowerCase(),
      cmac: Buffer.from(PICC_ONLY.cmac, 'hex'),
      keys: { metaReadKey: FACTORY_DEFAULT_KEY, fileReadKey: FACTORY_DEFAULT_KEY },
    });
    assert.equal(result.ok, true);
  });

  it('verifies PICCData + SDMENCFileData + CMAC and returns the decrypted file data', () => {
    const result = verifySun({
      piccData: WITH_ENC_FILE_DATA.piccData,
      encFileData: WITH_ENC_FILE_DATA.encFileData,
      cmac: WITH_ENC_FILE_DATA.cmac,
      macInput: WITH_ENC_FILE_DATA.macInput,
      keys: ZERO_KEYS,
    });
    assert.ok(result.ok);
    assert.equal(result.uid, '04958CAA5C5E80');
    assert.equal(result.counter, 8);
    assert.equal(result.fileData?.toString('ascii'), WITH_ENC_FILE_DATA.fileData);
  });

  it('verifies the whole AN12196 URLs', () => {
    assert.equal(verifySunMessage(PICC_ONLY.url, { keys: ZERO_KEYS }).ok, true);
    assert.equal(verifySunMessage(WITH_ENC_FILE_DATA.url, { keys: ZERO_KEYS }).ok, true);
  });

  it('matches expectedUid given in any accepted form', () => {
    const result = verifySun({
      piccData: PICC_ONLY.piccData,
      cmac: PICC_ONLY.cmac,
      keys: ZERO_KEYS,
      expectedUid: '04:de:5f:1e:ac:c0:40',
    });
    assert.equal(result.ok, true);
  });
});

describe('verifySun: rejections', () => {
  const base = { piccData: PICC_ONLY.piccData, cmac: PICC_ONLY.cmac, keys: ZERO_KEYS };

  it('bad_cmac for every tampered CMAC digit', () => {
    for (let i = 0; i < PICC_ONLY.cmac.length; i++) {
      const result = verifySun({ ...base, cmac: flipHexDigit(PICC_ONLY.cmac, i) });
      assert.equal(result.ok ? 'ok' : result.reason, 'bad_cmac', `digit ${i}`);
    }
  });

  it('bad_cmac when the MAC input is missing or altered', () => {
    const enc = { ...WITH_ENC_FILE_DATA, keys: ZERO_KEYS };
    const altered = verifySun({ ...enc, macInput: `${WITH_ENC_FILE_DATA.encFileData}&CMAC=` });
    assert.equal(altered.ok ? 'ok' : altered.reason, 'bad_cmac');
    const tamperedEnc = flipHexDigit(WITH_ENC_FILE_DATA.encFileData, 3);
    const result = verifySun({ ...enc, encFileData: tamperedEnc, macInput: `${tamperedEnc}&cmac=` });
    assert.equal(result.ok ? 'ok' : result.reason, 'bad_cmac');
  });

  it('malformed when encFileData is not inside the MAC input', () => {
    const result = verifySun({ ...WITH_ENC_FILE_DATA, macInput: '', keys: ZERO_KEYS });
    assert.equal(result.ok ? 'ok' : result.reason, 'malformed');
  });

  it('bad_cmac with a wrong file-read key', () => {
    const keys = { metaReadKey: ZERO_KEYS.metaReadKey, fileReadKey: Buffer.alloc(16, 0x11) };
    const result = verifySun({ ...base, keys });
    assert.equal(result.ok ? 'ok' : result.reason, 'bad_cmac');
  });

  it('bad_tag with a wrong meta-read key', () => {
    const keys = { metaReadKey: Buffer.alloc(16, 0x11), fileReadKey: ZERO_KEYS.fileReadKey };
    const result = verifySun({ ...base, keys });
    assert.equal(result.ok ? 'ok' : result.reason, 'bad_tag');
  });

  it('bad_tag for the PICCData variant quoted in the brief (...10E8DD6B)', () => {
    const result = verifySun({ ...base, piccData: BRIEF_TYPO_PICC_DATA });
    assert.equal(result.ok ? 'ok' : result.reason, 'bad_tag');
  });

  it('uid_mismatch for a genuine tap from another chip', () => {
    const result = verifySun({ ...base, expectedUid: '04958CAA5C5E80' });
    assert.equal(result.ok ? 'ok' : result.reason, 'uid_mismatch');
    assert.match(result.ok ? '' : result.message, /04DE5F1EACC040/);
  });

  it('malformed for odd-length, non-hex, wrong-length or wrongly typed input', () => {
    const cases: Array<Record<string, unknown>> = [
      { piccData: PICC_ONLY.piccData.slice(1) },
      { piccData: `${PICC_ONLY.piccData.slice(0, 30)}ZZ` },
      { piccData: PICC_ONLY.piccData.slice(2) },
      { piccData: 42 },
      { cmac: PICC_ONLY.cmac.slice(0, 15) },
      { cmac: `${PICC_ONLY.cmac}00` },
      { cmac: '' },
      { encFileData: 'ABCD', macInput: 'ABCD&cmac=' },
      { encFileData: '', macInput: '' },
      { macInput: 7 },
    ];
    for (const patch of cases) {
      const result = verifySun({ ...base, ...patch } as Parameters<typeof verifySun>[0]);
      assert.equal(result.ok ? 'ok' : result.reason, 'malformed', JSON.stringify(patch));
    }
  });

  it('malformed for unparsable nfcData', () => {
    const result = verifySunMessage('https://example.com/tap', { keys: ZERO_KEYS });
    assert.equal(result.ok ? 'ok' : result.reason, 'malformed');
  });

  it('throws only for caller errors (bad key length, invalid expectedUid)', () => {
    assert.throws(() =>
      verifySun({ ...base, keys: { metaReadKey: Buffer.alloc(8), fileReadKey: Buffer.alloc(16) } }),
    );
    assert.throws(() => verifySun({ ...base, expectedUid: '04DE' }), TypeError);
  });
});
