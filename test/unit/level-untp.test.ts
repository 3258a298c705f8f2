import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, test } from 'vitest';
import type { LevelFacts } from '../../src/passport/credentials/level-credentials.ts';
import { levelUntpProduct } from '../../src/passport/credentials/level-untp.ts';
import { UntpUnavailable } from '../../src/passport/credentials/untp-credential.ts';
import type { LevelPassport } from '../../src/passport/levels/levels.ts';
import { obtainDppvalidator } from '../conformance/support/dppvalidator.ts';

const BASE = 'https://dpp.example';
const SPEC = 'urn:dpp-service:spec:battery:1.0.0';
const GTIN = '04012345000108';

function facts(granularity: 'model' | 'batch', data: Record<string, unknown>): LevelFacts {
  const level: LevelPassport = {
    id: 1,
    companyId: 'c',
    environment: 'test',
    granularity,
    gtin: GTIN,
    lot: granularity === 'batch' ? 'HEAT-47' : null,
    serviceUid: '3f2a3d1e-8a1b-4c2d-9e3f-0a1b2c3d4e5f',
    dppStatus: 'active',
    retainUntil: null,
    createdAt: new Date('2026-11-01T00:00:00Z'),
    updatedAt: new Date('2026-11-01T00:00:00Z'),
  };
  const model = {
    ...level,
    granularity: 'model' as const,
    lot: null,
    serviceUid: '0f2a3d1e-8a1b-4c2d-9e3f-0a1b2c3d4e5f',
  };
  return {
    view: {
      level,
      name: 'Cell pack',
      header: {
        digitalProductPassportId: `urn:uuid:${level.serviceUid}`,
        uniqueProductIdentifier: `${BASE}/test/01/${GTIN}`,
        granularity,
        dppSchemaVersion: '1.0.0',
        dppStatus: 'active',
        lastUpdated: '2026-11-01T00:00:00.000Z',
        lastUpdate: '2026-11-01T00:00:00.000Z',
        economicOperatorId: '4012345000009',
        facilityId: null,
        contentSpecificationIds: [SPEC],
      },
      sections: { [SPEC]: data },
    },
    model: granularity === 'batch' ? model : undefined,
    companyName: 'Voltaic Cells SE',
  };
}

/** UNTP 0.7.0's own JSON schema, as dppvalidator ships it (the conformance run's validator). */
async function untpSchema() {
  const home = await obtainDppvalidator();
  const file = join(home, 'dppvalidator', 'schemas', 'data', 'untp-dpp-schema-0.7.0.json');
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv.compile(JSON.parse(await readFile(file, 'utf8')));
}

describe('a level’s UNTP Product (level-untp.ts)', () => {
  test('from its data: class by product group, facility, country; the batch links its model; UNTP’s schema accepts it', async () => {
    const validate = await untpSchema();
    for (const granularity of ['model', 'batch'] as const) {
      const { product, contexts } = levelUntpProduct(
        facts(granularity, {
          generalProductInformation: {
            manufacturerName: 'Voltaic Model Works',
            manufacturingFacilityId: 'urn:epc:id:sgln:4012345.00001.0',
            countryOfProduction: 'de',
          },
        }),
        BASE,
      );
      assert.equal(product.idGranularity, granularity);
      assert.equal(product.countryOfProduction.countryCode, 'DE');
      assert.equal(product.productCategory[0]!.code, 'battery');
      assert.equal(product.producedAtFacility.id, 'urn:epc:id:sgln:4012345.00001.0');
      assert.ok(!('lastUpdate' in product.characteristics.passportHeader), 'no undefined term');
      assert.equal(contexts.length, 1, 'the variants context defines productGroupData');
      const models = product.relatedDocument.filter((link) => link.linkType.endsWith('#modelPassport'));
      assert.equal(models.length, granularity === 'batch' ? 1 : 0);
      const credential = {
        '@context': [
          'https://www.w3.org/ns/credentials/v2',
          'https://vocabulary.uncefact.org/untp/0.7.0/context/',
        ],
        type: ['DigitalProductPassport', 'VerifiableCredential'],
        id: 'urn:uuid:00000000-0000-4000-8000-000000000000',
        issuer: { type: ['CredentialIssuer'], id: 'did:web:dpp.example', name: 'DPP service' },
        name: `Digital Product Passport: ${product.name}`,
        validFrom: '2026-11-01T00:00:00Z',
        credentialSubject: product,
      };
      assert.equal(validate(credential), true, JSON.stringify(validate.errors?.slice(0, 3)));
    }
  }, 300_000);

  test('UNTP’s required facts missing from the data: UntpUnavailable names them, nothing invented', () => {
    assert.throws(
      () => levelUntpProduct(facts('model', { generalProductInformation: { warrantyPeriod: 'P8Y' } }), BASE),
      (error: unknown) =>
        error instanceof UntpUnavailable &&
        error.missing.length === 2 &&
        /producedAtFacility/.test(error.missing.join()) &&
        /countryOfProduction/.test(error.missing.join()),
    );
  });
});
