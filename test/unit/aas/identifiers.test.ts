import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import {
  decodeIdentifier,
  encodeIdentifier,
  parseSubmodelId,
  tokenIdOfShellId,
} from '../../../src/passport/aas/identifiers.ts';
import { DomainError } from '../../../src/platform/errors.ts';

const BASE = 'https://dpp.example.com';

describe('AAS API identifiers (base64url, IDTA-01002 3.0)', () => {
  test('decodes base64url without padding, tolerates padding, keeps UTF-8', () => {
    const id = `${BASE}/aas/live/42`;
    const encoded = encodeIdentifier(id);
    assert.doesNotMatch(encoded, /[=+/]/);
    assert.equal(decodeIdentifier(encoded, 'id'), id);
    assert.equal(decodeIdentifier(Buffer.from('ab').toString('base64'), 'id'), 'ab'); // "YWI=" padded
    assert.equal(decodeIdentifier(encodeIdentifier('Größe ✓'), 'id'), 'Größe ✓');
  });

  test('refuses what is not canonical base64url of UTF-8 text (400, never a crash)', () => {
    for (const bad of [
      'invalid-base64url=====',
      'abc$',
      'a',
      'YWI==', // padding that does not fit the length
      'YR', // non-zero trailing bits: not what an encoder writes
      Buffer.from([0xff, 0xfe]).toString('base64url'),
      'x'.repeat(4001),
    ]) {
      assert.throws(
        () => decodeIdentifier(bad, 'The shell identifier'),
        (error: unknown) => error instanceof DomainError && error.kind === 'invalid',
        bad.slice(0, 30),
      );
    }
  });

  test('shell and submodel ids name a token of this environment only', () => {
    assert.equal(tokenIdOfShellId(`${BASE}/aas/live/42`, BASE, 'live'), '42');
    assert.equal(tokenIdOfShellId(`${BASE}/aas/test/42`, BASE, 'live'), undefined);
    assert.equal(tokenIdOfShellId(`${BASE}/aas/live/042`, BASE, 'live'), undefined);
    assert.equal(tokenIdOfShellId(`https://other.example/aas/live/42`, BASE, 'live'), undefined);
    assert.deepEqual(parseSubmodelId(`${BASE}/aas/live/42/submodels/Nameplate`, BASE, 'live'), {
      tokenId: '42',
      idShort: 'Nameplate',
    });
    assert.equal(parseSubmodelId(`${BASE}/aas/live/42/submodels/DigitalNameplate`, BASE, 'live'), undefined);
    assert.equal(parseSubmodelId(`${BASE}/aas/live/42/submodels/DppMeta/x`, BASE, 'live'), undefined);
  });
});
