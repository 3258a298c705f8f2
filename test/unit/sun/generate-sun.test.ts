import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { generateSun, verifySun, verifySunMessage } from '../../../src/standards/sun/index.ts';
import { hex, PICC_ONLY, WITH_ENC_FILE_DATA, ZERO_KEYS } from './an12196-vectors.ts';

describe('generateSun', () => {
  it('reproduces the AN12196 PICCData + CMAC vector with its padding', () => {
    const sun = generateSun({
      uid: PICC_ONLY.uid,
      counter: PICC_ONLY.counter,
      keys: ZERO_KEYS,
      piccPadding: hex(PICC_ONLY.piccPadding),
    });
    assert.equal(sun.piccData, PICC_ONLY.piccData);
    assert.equal(sun.cmac, PICC_ONLY.cmac);
    assert.equal(sun.macInput, '');
  });

  it('reproduces the AN12196 SDMENCFileData vector and its URL', () => {
    const sun = generateSun({
      uid: WITH_ENC_FILE_DATA.uid,
      counter: WITH_ENC_FILE_DATA.counter,
      keys: ZERO_KEYS,
      piccPadding: hex(WITH_ENC_FILE_DATA.piccPadding),
      fileData: Buffer.from(WITH_ENC_FILE_DATA.fileData, 'ascii'),
      baseUrl: 'https://www.my424dna.com/',
    });
    assert.equal(sun.piccData, WITH_ENC_FILE_DATA.piccData);
    assert.equal(sun.encFileData, WITH_ENC_FILE_DATA.encFileData);
    assert.equal(sun.macInput, WITH_ENC_FILE_DATA.macInput);
    assert.equal(sun.cmac, WITH_ENC_FILE_DATA.cmac);
    assert.equal(sun.url, WITH_ENC_FILE_DATA.url);
  });

  it('round-trips fresh counters with custom keys through the verifier', () => {
    const keys = { metaReadKey: Buffer.alloc(16, 0xa5), fileReadKey: Buffer.alloc(16, 0x3c) };
    for (const counter of [0, 1, 255, 256, 65_536, 0xffffff]) {
      const sun = generateSun({ uid: '04:a1:b2:c3:d4:e5:f6', counter, keys });
      const result = verifySun({ piccData: sun.piccData, cmac: sun.cmac, macInput: sun.macInput, keys });
      assert.deepEqual(result.ok && [result.uid, result.counter], ['04A1B2C3D4E5F6', counter]);
    }
  });

  it('round-trips file data and the short e/c parameter style via URL parsing', () => {
    const keys = { metaReadKey: Buffer.alloc(16, 1), fileReadKey: Buffer.alloc(16, 2) };
    const fileData = Buffer.from('GTIN-09506000134352-SN42'.padEnd(32, ' '), 'ascii');
    const sun = generateSun({
      uid: '04DE5F1EACC040',
      counter: 7,
      keys,
      fileData,
      paramStyle: 'short',
      baseUrl: 'https://id.example.com/01/09506000134352?x=1',
    });
    assert.match(sun.url ?? '', /^https:\/\/id\.example\.com\/01\/09506000134352\?x=1&e=[0-9A-F]{32}&enc=/);
    const result = verifySunMessage(sun.url ?? '', { keys, expectedUid: '04DE5F1EACC040' });
    assert.ok(result.ok, result.ok ? '' : result.message);
    assert.equal(result.counter, 7);
    assert.deepEqual(result.fileData, fileData);
  });

  it('uses random PICCData padding, so two taps with the same counter differ', () => {
    const a = generateSun({ uid: PICC_ONLY.uid, counter: 5, keys: ZERO_KEYS });
    const b = generateSun({ uid: PICC_ONLY.uid, counter: 5, keys: ZERO_KEYS });
    assert.notEqual(a.piccData, b.piccData);
    assert.equal(a.cmac, b.cmac); // the MAC only depends on UID, counter and MAC input
  });

  it('throws on invalid arguments', () => {
    assert.throws(() => generateSun({ uid: '04DE5F', counter: 1, keys: ZERO_KEYS }), TypeError);
    assert.throws(() => generateSun({ uid: PICC_ONLY.uid, counter: 2 ** 24, keys: ZERO_KEYS }), RangeError);
    assert.throws(
      () => generateSun({ uid: PICC_ONLY.uid, counter: 1, keys: ZERO_KEYS, fileData: Buffer.alloc(10) }),
      RangeError,
    );
  });
});
