import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import {
  chipKey,
  diversifyAes128Key,
  FACTORY_DEFAULT_KEY,
  generateSun,
  verifySun,
} from '../../../src/standards/sun/index.ts';
import { hex } from './an12196-vectors.ts';

// NXP AN10922, AES-128 example: master key, UID 04782E21801D80, AID 3042F5, system identifier "NXP Abu".
const AN10922 = {
  master: '00112233445566778899aabbccddeeff',
  uid: '04782e21801d80',
  aidAndSystemIdentifier: '3042f54e585020416275',
  diversified: 'a8dd63a3b89d54b37ca802473fda9175',
};

describe('AN10922 AES-128 key diversification', () => {
  it('reproduces the published example', () => {
    const input = hex(AN10922.uid + AN10922.aidAndSystemIdentifier);
    assert.equal(diversifyAes128Key(hex(AN10922.master), input).toString('hex'), AN10922.diversified);
    assert.equal(
      chipKey(hex(AN10922.master), hex(AN10922.uid), hex(AN10922.aidAndSystemIdentifier)).toString('hex'),
      AN10922.diversified,
    );
  });

  it('gives every UID its own key', () => {
    const master = hex(AN10922.master);
    assert.notEqual(
      chipKey(master, hex('04782e21801d80')).toString('hex'),
      chipKey(master, hex('04782e21801d81')).toString('hex'),
    );
  });

  it('refuses inputs outside 1–31 bytes and keys that are not AES-128', () => {
    assert.throws(() => diversifyAes128Key(hex(AN10922.master), Buffer.alloc(0)), RangeError);
    assert.throws(() => diversifyAes128Key(hex(AN10922.master), Buffer.alloc(32)), RangeError);
    assert.doesNotThrow(() => diversifyAes128Key(hex(AN10922.master), Buffer.alloc(31)));
    assert.throws(() => diversifyAes128Key(Buffer.alloc(24), Buffer.alloc(7)), TypeError);
  });
});

describe('SUN with a diversified file-read key', () => {
  const master = hex(AN10922.master);
  const systemIdentifier = Buffer.from('DPP', 'ascii');
  const diversified = {
    metaReadKey: FACTORY_DEFAULT_KEY,
    fileReadKey: master,
    fileReadKeyDiversification: { systemIdentifier },
  };

  it('verifies a tap MACed with the chip’s own key, and refuses it under the undiversified master', () => {
    const uid = '04DE5F1EACC040';
    const chipKeys = {
      metaReadKey: FACTORY_DEFAULT_KEY,
      fileReadKey: chipKey(master, hex(uid), systemIdentifier),
    };
    const tap = generateSun({ uid, counter: 7, keys: chipKeys });
    const verified = verifySun({ piccData: tap.piccData, cmac: tap.cmac, keys: diversified });
    assert.deepEqual(verified.ok && [verified.uid, verified.counter], [uid, 7]);
    const undiversified = verifySun({
      piccData: tap.piccData,
      cmac: tap.cmac,
      keys: { metaReadKey: FACTORY_DEFAULT_KEY, fileReadKey: master },
    });
    assert.equal(!undiversified.ok && undiversified.reason, 'bad_cmac');
  });

  it('a chip simulated with the same settings produces taps that verify; another system identifier does not', () => {
    const tap = generateSun({ uid: '04AABBCCDDEE01', counter: 1, keys: diversified });
    assert.equal(verifySun({ piccData: tap.piccData, cmac: tap.cmac, keys: diversified }).ok, true);
    const other = { ...diversified, fileReadKeyDiversification: { systemIdentifier: Buffer.from('XYZ') } };
    const refused = verifySun({ piccData: tap.piccData, cmac: tap.cmac, keys: other });
    assert.equal(!refused.ok && refused.reason, 'bad_cmac');
  });
});
