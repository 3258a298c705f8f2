import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import {
  FACTORY_DEFAULT_KEY,
  generateSun,
  parseSunMessage,
  tagTamperStatus,
  verifySunMessage,
} from '../../src/standards/sun/index.ts';

const keys = { metaReadKey: FACTORY_DEFAULT_KEY, fileReadKey: FACTORY_DEFAULT_KEY };

/**
 * NTAG 424 DNA TT's tamper status in the SUN message (docs/signals.md "Tamper loop"). NXP publishes no SUN vector
 * with a TagTamper status (AN12196's AES and LRP vectors carry none), so the messages are built by the generator
 * that reproduces AN12196's published vectors (test/unit/sun*.test.ts), with the status at the start of the
 * encrypted file data.
 */
describe('TagTamper status from the SUN message', () => {
  const read = (status: string) => {
    const tap = generateSun({
      uid: '04DE5F1EACC040',
      counter: 7,
      keys,
      fileData: Buffer.from(status.padEnd(16, 'x')),
    });
    const verified = verifySunMessage(tap.query, { keys });
    assert.ok(verified.ok);
    return tagTamperStatus(verified.fileData);
  };

  test('closed, open now, opened once and closed again, not enabled', () => {
    assert.deepEqual(read('CC'), { permanent: 'closed', current: 'closed', tampered: false });
    assert.deepEqual(read('OO'), { permanent: 'open', current: 'open', tampered: true });
    assert.deepEqual(read('OC'), { permanent: 'open', current: 'closed', tampered: true });
    assert.deepEqual(read('II'), { permanent: 'invalid', current: 'invalid', tampered: false });
  });

  test('file data that does not start with a status is none; nor is a message without file data', () => {
    assert.equal(read('ab'), null);
    assert.equal(tagTamperStatus(undefined), null);
    assert.equal(tagTamperStatus(Buffer.from('C')), null);
  });

  test('the status is covered by the MAC: a copied URL with its encrypted data altered does not verify', () => {
    const tap = generateSun({
      uid: '04DE5F1EACC040',
      counter: 8,
      keys,
      fileData: Buffer.from('OO'.padEnd(16, 'x')),
    });
    const enc = tap.encFileData!;
    const altered = tap.query.replace(enc, `${enc.slice(0, -1)}${enc.endsWith('0') ? '1' : '0'}`);
    assert.ok(parseSunMessage(altered).ok);
    assert.equal(verifySunMessage(altered, { keys }).ok, false);
  });
});
