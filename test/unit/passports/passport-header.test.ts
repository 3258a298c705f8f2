import assert from 'node:assert/strict';
import { test } from 'vitest';
import {
  isValidEconomicOperatorId,
  isValidEori,
  isValidFacilityId,
  isValidGln,
} from '../../../src/accounts/settings/company-settings.ts';
import {
  ElementPathError,
  parseElementPath,
  selectElement,
} from '../../../src/passport/dpp-api/element-path.ts';
import { fullRepresentation } from '../../../src/passport/dpp-api/full-representation.ts';
import {
  dppStatus,
  passportHeader,
  serviceUidOfDppId,
} from '../../../src/passport/record/passport-header.ts';

test('dppStatus: ACTIVE → active, revoked → suspended, recycled (also revoked) → archived', () => {
  const at = new Date('2026-11-25T00:00:00Z');
  assert.equal(dppStatus({ status: 'ACTIVE', revokedAt: null }), 'active');
  assert.equal(dppStatus({ status: 'ACTIVE', revokedAt: at }), 'suspended');
  assert.equal(dppStatus({ status: 'RECYCLED', revokedAt: at }), 'archived');
  assert.equal(dppStatus({ status: 'RECYCLED', revokedAt: null }), 'archived');
});

test('the header: ids, the Digital Link per environment, nulls for unset settings', () => {
  const facts = {
    serviceUid: '0F8FAD5B-D9CB-469F-A165-70867728950E',
    tokenId: '42',
    gtin: null,
    environment: 'test' as const,
    status: 'ACTIVE',
    revokedAt: null,
    lastUpdated: new Date('2026-11-25T01:02:03.004Z'),
    economicOperatorId: undefined,
    facilityId: null,
  };
  const header = passportHeader(facts, 'https://dpp.example');
  assert.deepEqual(header, {
    digitalProductPassportId: 'urn:uuid:0f8fad5b-d9cb-469f-a165-70867728950e',
    uniqueProductIdentifier: 'https://dpp.example/test/01/00000000000000/21/42',
    granularity: 'item',
    dppSchemaVersion: '1.0.0',
    dppStatus: 'active',
    lastUpdated: '2026-11-25T01:02:03.004Z',
    economicOperatorId: null,
    facilityId: null,
    contentSpecificationIds: [
      'urn:dpp-service:content-specification:product:1.0',
      'urn:dpp-service:content-specification:product-operator:1.0',
    ],
  });
  assert.equal(
    passportHeader({ ...facts, environment: 'live', gtin: '00012345600012' }, 'https://dpp.example')
      .uniqueProductIdentifier,
    'https://dpp.example/01/00012345600012/21/42',
  );
  assert.equal(serviceUidOfDppId(header.digitalProductPassportId), '0f8fad5b-d9cb-469f-a165-70867728950e');
  assert.equal(
    serviceUidOfDppId('0F8FAD5B-D9CB-469F-A165-70867728950E'),
    '0f8fad5b-d9cb-469f-a165-70867728950e',
  );
  for (const bad of [
    '',
    'urn:uuid:',
    'urn:uuid:xyz',
    '42',
    "urn:uuid:0f8fad5b-d9cb-469f-a165-70867728950e'",
  ]) {
    assert.equal(serviceUidOfDppId(bad), undefined, bad);
  }
});

test('GLN check digit, EORI format, facility ids', () => {
  assert.equal(isValidGln('4000001000005'), true);
  assert.equal(isValidGln('4000001000006'), false);
  assert.equal(isValidGln('400000100000'), false);
  assert.equal(isValidEori('DE123456789012345'), true);
  assert.equal(isValidEori('XI123456789000'), true);
  assert.equal(isValidEori('de123456789'), false);
  assert.equal(isValidEori('DE1234567890123456'), false, 'more than 15 after the country code');
  assert.equal(isValidEori('D1234'), false);
  assert.equal(isValidEconomicOperatorId('4000001000005'), true);
  assert.equal(isValidEconomicOperatorId('4000001000006'), false, 'digits only: judged as a GLN');
  assert.equal(isValidFacilityId('urn:epc:id:sgln:4000001.00001.0'), true);
  assert.equal(isValidFacilityId('https://registry.example/sites/7'), true);
  assert.equal(isValidFacilityId('4000001000005'), true);
  assert.equal(isValidFacilityId('4000001000006'), false);
  assert.equal(isValidFacilityId('Plant 4'), false);
  assert.equal(isValidFacilityId('javascript:alert(1)'), false);
});

test('RFC 9535 normalized paths: names with escapes, indexes; everything else refused', () => {
  assert.deepEqual(parseElementPath('$'), []);
  assert.deepEqual(parseElementPath("$['a']['b c'][0][12]"), [
    { name: 'a' },
    { name: 'b c' },
    { index: 0 },
    { index: 12 },
  ]);
  assert.deepEqual(parseElementPath("$['it\\'s']['back\\\\slash']['nl\\n']['\\u000b']"), [
    { name: "it's" },
    { name: 'back\\slash' },
    { name: 'nl\n' },
    { name: '\u000b' },
  ]);
  assert.deepEqual(parseElementPath("$['urn:x:1.0']['/a/b']"), [{ name: 'urn:x:1.0' }, { name: '/a/b' }]);
  for (const bad of [
    '',
    'dppStatus',
    '$.dppStatus',
    '$[*]',
    "$['a'",
    "$['a']x",
    '$[01]',
    '$[-1]',
    '$[1:2]',
    '$["a"]',
    "$['a\\x']",
    "$['\u0001']",
    `$${"['a']".repeat(65)}`,
  ]) {
    assert.throws(() => parseElementPath(bad), ElementPathError, JSON.stringify(bad));
  }
  const document = { a: { list: [10, { b: null }] }, 'x y': 'z' };
  assert.deepEqual(selectElement(document, parseElementPath("$['a']['list'][1]['b']")), { value: null });
  assert.deepEqual(selectElement(document, parseElementPath("$['x y']")), { value: 'z' });
  assert.equal(selectElement(document, parseElementPath("$['a']['list'][2]")), undefined);
  assert.equal(selectElement(document, parseElementPath("$['a'][0]")), undefined, 'an index into an object');
  assert.equal(
    selectElement(document, parseElementPath("$['a']['list']['0']")),
    undefined,
    'a name into an array',
  );
  assert.equal(selectElement(document, parseElementPath("$['toString']")), undefined, 'own members only');
});

test('full representation: sections as collections, typed scalars, nulls left out', () => {
  const full = fullRepresentation({
    dppStatus: 'active',
    'urn:dpp-service:content-specification:product:1.0': {
      name: 'Jacket',
      at: '2026-11-25T01:02:03.004Z',
      count: 3,
      share: 0.5,
      ok: true,
      none: null,
      events: [{ action: 'MINT' }],
    },
  });
  assert.deepEqual(full, {
    dppStatus: 'active',
    elements: [
      {
        elementId: 'urn:dpp-service:content-specification:product:1.0',
        objectType: 'DataElementCollection',
        elements: [
          {
            elementId: 'name',
            objectType: 'SingleValuedDataElement',
            valueDataType: 'xsd:string',
            value: 'Jacket',
          },
          {
            elementId: 'at',
            objectType: 'SingleValuedDataElement',
            valueDataType: 'xsd:dateTime',
            value: '2026-11-25T01:02:03.004Z',
          },
          {
            elementId: 'count',
            objectType: 'SingleValuedDataElement',
            valueDataType: 'xsd:integer',
            value: 3,
          },
          {
            elementId: 'share',
            objectType: 'SingleValuedDataElement',
            valueDataType: 'xsd:double',
            value: 0.5,
          },
          {
            elementId: 'ok',
            objectType: 'SingleValuedDataElement',
            valueDataType: 'xsd:boolean',
            value: true,
          },
          {
            elementId: 'events',
            objectType: 'MultiValuedDataElement',
            elements: [
              {
                elementId: '0',
                objectType: 'DataElementCollection',
                elements: [
                  {
                    elementId: 'action',
                    objectType: 'SingleValuedDataElement',
                    valueDataType: 'xsd:string',
                    value: 'MINT',
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  });
});
