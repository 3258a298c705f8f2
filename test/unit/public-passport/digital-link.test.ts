import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { issuerDid } from '../../../src/standards/credentials/did-web.ts';
import { normalizeGtin } from '../../../src/standards/gs1/gtin.ts';
import { parseLinkType } from '../../../src/standards/gs1/link-types.ts';
import { isAi82Value } from '../../../src/standards/gs1/qualifiers.ts';

describe('GS1 Digital Link parts', () => {
  test('GTIN-8, -12, -13 and -14 are normalised to 14 digits when the check digit is right', () => {
    assert.equal(normalizeGtin('96385074'), '00000096385074'); // GTIN-8
    assert.equal(normalizeGtin('614141000036'), '00614141000036'); // GTIN-12 (UPC-A)
    assert.equal(normalizeGtin('9506000134352'), '09506000134352'); // GTIN-13
    assert.equal(normalizeGtin('09506000134352'), '09506000134352');
    for (const bad of ['09506000134353', '9506000134353', '1234567', '123456789', 'abcdefghijklmn', '']) {
      assert.equal(normalizeGtin(bad), undefined, bad);
    }
  });

  test('batch and serial values: GS1 character set 82, 1 to 20 characters', () => {
    for (const good of ['42', 'LOT-2026/11', 'A!"%&\'()*+,-./:;<=>', '?_z', 'x'.repeat(20)]) {
      assert.equal(isAi82Value(good), true, good);
    }
    for (const bad of ['', 'x'.repeat(21), 'with space', 'ümlaut', 'hash#', 'at@']) {
      assert.equal(isAi82Value(bad), false, bad);
    }
  });

  test('link types in the forms resolvers accept; all/linkset ask for the linkset', () => {
    for (const form of ['gs1:pip', 'pip', 'https://gs1.org/voc/pip', 'https://ref.gs1.org/voc/pip']) {
      assert.equal(parseLinkType(form), 'pip', form);
    }
    assert.equal(parseLinkType('gs1:dpp'), 'dpp');
    assert.equal(parseLinkType('all'), 'linkset');
    assert.equal(parseLinkType('linkset'), 'linkset');
    assert.equal(parseLinkType('gs1:nutritionalInfo'), undefined);
    assert.equal(parseLinkType('schema:pip'), undefined);
  });

  test('issuer DIDs: did:web of our host per environment', () => {
    assert.equal(issuerDid('https://dpp.example.com', 'live'), 'did:web:dpp.example.com');
    assert.equal(issuerDid('https://dpp.example.com', 'test'), 'did:web:dpp.example.com:test');
    assert.equal(issuerDid('http://localhost:3000', 'live'), 'did:web:localhost%3A3000');
    assert.equal(issuerDid('https://example.com/dpp', 'test'), 'did:web:example.com:dpp:test');
  });
});
