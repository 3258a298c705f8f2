import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { checkAasFile, checkSubmodelTemplates, obtainAasTools } from '../../scripts/dev/aas-tools.ts';
import type { AasPassportRow } from '../../src/passport/aas/aas-passports.ts';
import { passportShell, passportSubmodels } from '../../src/passport/aas/aas-v3.ts';
import { conceptDescriptionsOf } from '../../src/standards/aas/concept-descriptions.ts';
import { CONFORMITY_URL, GTIN } from '../support/fixtures/products.ts';

/**
 * The AAS environment we export (shells and submodels as /api/v3.0/serialization serves them) judged by
 * validators we did not write, installed from PyPI into .cache: aas-test-engines 1.0.3 `check_file` (AAS v3
 * metamodel and constraints) and aas-submodel-validate 1.0.0 `smtv` (submodels against their IDTA templates:
 * Digital Nameplate 3.0).
 */
const PUBLIC_BASE = 'https://dpp.example.com';

function passport(overrides: Partial<AasPassportRow> = {}): AasPassportRow {
  return {
    passportId: 1,
    companyId: '00000000-0000-4000-8000-000000000001',
    tokenId: '42',
    serviceUid: '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
    environment: 'live',
    gtin: GTIN,
    chipUid: '04A1B2C3D4E5F6',
    status: 'ACTIVE',
    revokedAt: null,
    metadataCache: {
      name: 'Trail Jacket',
      custom_dpp_data: {
        manufacturer_name: 'Acme Apparel GmbH',
        originCountry: 'PT',
        material_composition: { Cotton: 80, Polyester: 20 },
        conformity_url: CONFORMITY_URL,
      },
    },
    productId: 'JACKET-01',
    material: 'Cotton',
    lockedDepositWei: '1000000000000000',
    contractAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    transactionHash: `0x${'ab'.repeat(32)}`,
    metadataUrl: 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
    mintTimestamp: new Date('2026-03-14T09:26:53Z'),
    updatedAt: new Date('2026-05-01T12:00:00Z'),
    companyName: 'Acme Apparel',
    verificationCount: 3,
    lastVerifiedAt: new Date('2026-06-01T08:00:00Z'),
    economicOperatorId: '4006381333931',
    facilityId: null,
    lastUpdated: new Date('2026-05-01T12:00:00Z'),
    ...overrides,
  };
}

function environment(passports: AasPassportRow[]) {
  const submodels = passports.flatMap((p) => passportSubmodels(p, PUBLIC_BASE));
  return {
    assetAdministrationShells: passports.map((p) => passportShell(p, PUBLIC_BASE)),
    submodels,
    conceptDescriptions: conceptDescriptionsOf(submodels),
  };
}

describe('exported AAS environment, judged by aas-test-engines and smtv', () => {
  let dir: string;
  const write = async (name: string, document: unknown) => {
    const file = join(dir, name);
    await writeFile(file, JSON.stringify(document, null, 2));
    return file;
  };

  beforeAll(async () => {
    await obtainAasTools();
    dir = await mkdtemp(join(tmpdir(), 'aas-validators-'));
  }, 600_000);
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  // A passport with everything, one with the least (no GTIN, no name, no custom data), a revoked test one.
  const passports = [
    passport(),
    passport({
      tokenId: '43',
      gtin: null,
      metadataCache: {},
      productId: null,
      material: null,
      lastVerifiedAt: null,
    }),
    passport({ tokenId: '44', environment: 'test', revokedAt: new Date('2026-07-01T00:00:00Z') }),
  ];

  test('check_file: the environment (with our concept descriptions) is valid AAS v3.0 JSON', async () => {
    const document = environment(passports);
    const own = new Set(JSON.stringify(document.submodels).match(/urn:dpp-service:aas:1:[A-Za-z:]+/g));
    assert.deepEqual(
      new Set(document.conceptDescriptions.map((c) => c.id)),
      own,
      'each own concept used, once',
    );
    const report = await checkAasFile(await write('environment.json', document));
    assert.deepEqual(report.errors, []);
    assert.equal(report.ok, true);
  });

  test('smtv: every Digital Nameplate 3.0 carries the template’s mandatory elements', async () => {
    const report = await checkSubmodelTemplates(await write('environment.json', environment(passports)));
    assert.deepEqual(report.findings, []);
    assert.equal(report.ok, true);
    assert.equal(report.summary.submodelsSeen, 12);
    assert.equal(
      report.summary.submodelsJudged,
      3,
      'the three nameplates: the tool has no table for the others',
    );
  });

  test('the validators do judge: a nameplate without AddressInformation or with a metamodel error fails', async () => {
    const document = environment([passport()]);
    const nameplate = document.submodels.find((s) => s.idShort === 'Nameplate')!;
    nameplate.submodelElements = nameplate.submodelElements.filter((e) => e.idShort !== 'AddressInformation');
    const smtv = await checkSubmodelTemplates(await write('no-address.json', document));
    assert.equal(smtv.ok, false);
    assert.deepEqual(
      smtv.findings.map((f) => f.rule),
      ['DN-E04'],
    );
    // The seed's legacy `idType` is outside the v3 metamodel: check_file refuses it.
    const legacy = environment([passport()]);
    const shell = { ...legacy.assetAdministrationShells[0]!, idType: 'IRI' };
    const file = await checkAasFile(
      await write('legacy.json', { ...legacy, assetAdministrationShells: [shell] }),
    );
    assert.equal(file.ok, false);
    assert.notDeepEqual(file.errors, []);
  });
});
