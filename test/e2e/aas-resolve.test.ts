import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { mintBody } from '../support/fixtures/mint.ts';

type AasClass = import('@aas-core-works/aas-core3.0-typescript').types.Class;

import { enrollAndMint } from '../support/fixtures/mint.ts';
import { CONFORMITY_URL, GTIN, RECYCLING_SITE } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

// The package's ESM build uses extensionless imports that Node cannot resolve; its CommonJS build works.
const aas: typeof import('@aas-core-works/aas-core3.0-typescript') = createRequire(import.meta.url)(
  '@aas-core-works/aas-core3.0-typescript',
);

// biome-ignore lint/suspicious/noExplicitAny: AAS JSON as served
type Json = any;

function verificationErrors(instance: AasClass): string[] {
  return [...aas.verification.verify(instance)].map((e) => `${e.path}: ${e.message}`);
}

function propertyValues(submodel: Json): Record<string, string> {
  return Object.fromEntries(submodel.submodelElements.map((e: Json) => [e.idShort, e.value]));
}

describe('GET /v1/aas/resolve/:id (asset administration shell)', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let other: TestTenant;
  let tokenId: string;
  const chipUid = '04D1B2C3D4E501';
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.api.createTenant('Acme Apparel');
    other = await stack.api.createTenant('Other Brand');
    tokenId = await enrollAndMint(call, chipUid, {
      manufacturer_name: 'Acme Apparel GmbH',
      originCountry: 'PT',
      material_composition: { Cotton: 80, Polyester: 20 },
      svhc_exists: false,
    });
  });
  afterAll(() => stack.close());

  test('answers the spec’s shell with AAS 3.0-valid submodels', async () => {
    const answer = await call('GET', `/v1/aas/resolve/${tokenId}`);
    assert.equal(answer.status, 200, answer.text);
    const shell = answer.body;
    const base = stack.api.config.publicBaseUrl;
    assert.equal(shell.success, true);
    assert.equal(shell.id, `${base}/aas/test/${tokenId}`);
    assert.equal(shell.idType, 'IRI');
    assert.equal(shell.modelType, 'AssetAdministrationShell');
    assert.equal(shell.assetInformation.assetKind, 'Instance');
    assert.equal(shell.assetInformation.globalAssetId, `${base}/test/01/${GTIN}/21/${tokenId}`);
    assert.deepEqual(
      shell.assetInformation.specificAssetIds.map((s: Json) => [s.name, s.value, s.semanticId.type]),
      [
        ['GTIN', GTIN, 'ExternalReference'],
        ['SerialNumber', tokenId, 'ExternalReference'],
      ],
    );
    assert.deepEqual(
      shell.submodels.map((s: Json) => s.idShort),
      ['DigitalNameplate', 'SustainabilityData', 'Security'],
    );
    for (const submodel of shell.submodels) {
      const parsed = aas.jsonization.submodelFromJsonable(submodel);
      assert.equal(parsed.error, null, `${submodel.idShort}: ${parsed.error?.message}`);
      assert.deepEqual(verificationErrors(parsed.mustValue()), [], submodel.idShort);
      assert.deepEqual(
        aas.jsonization.toJsonable(parsed.mustValue()),
        submodel,
        'nothing lost in jsonization',
      );
    }
    const [nameplate, sustainability, security] = shell.submodels.map(propertyValues);
    assert.equal(nameplate.ManufacturerName, 'Acme Apparel GmbH');
    assert.equal(nameplate.ManufacturerProductDesignation, 'Trail Jacket');
    assert.equal(nameplate.SerialNumber, tokenId);
    assert.equal(nameplate.CountryOfOrigin, 'PT');
    assert.deepEqual(JSON.parse(sustainability.MaterialComposition), { Cotton: 80, Polyester: 20 });
    assert.equal(sustainability.ConformityDeclaration, CONFORMITY_URL);
    assert.equal(sustainability.CircularDepositWei, '1000000000000000');
    assert.equal(sustainability.RecyclingStatus, 'NOT_RECYCLED');
    assert.equal(security.ChipType, 'NTAG 424 DNA');
    assert.equal(security.ChipUid, chipUid);
    assert.match(security.VerificationCount, /^\d+$/);
    assert.equal(security.Status, 'ACTIVE');
    assert.deepEqual(
      shell.extensions.find((e: Json) => e.name === 'passportGeneration'),
      { name: 'passportGeneration', valueType: 'xs:string', value: 'V3' },
    );

    // The shell itself is AAS 3.0 once the spec's v2-style idType is dropped and submodels become references.
    const { success: _s, idType: _t, submodels, ...rest } = shell;
    const asV3 = {
      ...rest,
      submodels: submodels.map((s: Json) => ({
        type: 'ModelReference',
        keys: [{ type: 'Submodel', value: s.id }],
      })),
    };
    const parsedShell = aas.jsonization.assetAdministrationShellFromJsonable(asV3);
    assert.equal(parsedShell.error, null, parsedShell.error?.message);
    assert.deepEqual(verificationErrors(parsedShell.mustValue()), []);
  });

  test('accepts the token id, the serviceUid and the URL-encoded IRI id; scoped to company and environment', async () => {
    const [row] = await stack.api.db.orm.em
      .getConnection()
      .execute('select service_uid from passports where token_id = ?', [tokenId]);
    const byToken = (await call('GET', `/v1/aas/resolve/${tokenId}`)).body;
    const byUid = await call('GET', `/v1/aas/resolve/${row!.service_uid}`);
    assert.equal(byUid.status, 200, byUid.text);
    assert.deepEqual(byUid.body, byToken);
    const byIri = await call('GET', `/v1/aas/resolve/${encodeURIComponent(byToken.id)}`);
    assert.equal(byIri.status, 200, byIri.text);
    assert.deepEqual(byIri.body, byToken);

    for (const id of [
      '999999',
      '00000000-0000-4000-8000-000000000000',
      'not-an-id',
      encodeURIComponent(`${byToken.id}x`),
    ]) {
      const missing = await call('GET', `/v1/aas/resolve/${id}`);
      assert.equal(missing.status, 404, id);
      assert.equal(missing.body.code, 'passport_not_found');
    }
    const foreign = await stack.api.call('GET', `/v1/aas/resolve/${tokenId}`, { key: other.testKey });
    assert.equal(foreign.status, 404);
    const live = await stack.api.call('GET', `/v1/aas/resolve/${tokenId}`, {
      key: tenant.liveKey,
      env: 'live',
    });
    assert.equal(live.status, 404, 'a test passport is not found in live');
  });

  test('a provisioned twin resolves by its service_internal_id: its own shell, then its passport’s once minted', async () => {
    const id: string = (
      await call('POST', '/v1/erp/provision', { gtin: GTIN, metadata: { name: 'Rain Poncho' } })
    ).body.service_internal_id;
    const base = stack.api.config.publicBaseUrl;
    const answer = await call('GET', `/v1/aas/resolve/${id}`);
    assert.equal(answer.status, 200, answer.text);
    const shell = answer.body;
    assert.equal(shell.id, `${base}/aas/test/twins/${id}`);
    assert.equal(shell.idShort, `Twin_${id}`);
    assert.deepEqual(
      shell.assetInformation.specificAssetIds.map((s: Json) => [s.name, s.value]),
      [
        ['GTIN', GTIN],
        ['ServiceInternalId', id],
      ],
    );
    for (const submodel of shell.submodels) {
      const parsed = aas.jsonization.submodelFromJsonable(submodel);
      assert.equal(parsed.error, null, `${submodel.idShort}: ${parsed.error?.message}`);
      assert.deepEqual(verificationErrors(parsed.mustValue()), [], submodel.idShort);
    }
    const [nameplate, , security] = shell.submodels.map(propertyValues);
    assert.equal(nameplate.ManufacturerProductDesignation, 'Rain Poncho');
    assert.equal(nameplate.GTIN, GTIN);
    assert.equal(security.Status, 'INACTIVE');
    const byIri = await call('GET', `/v1/aas/resolve/${encodeURIComponent(shell.id)}`);
    assert.deepEqual(byIri.body, shell);
    const foreign = await stack.api.call('GET', `/v1/aas/resolve/${id}`, { key: other.testKey });
    assert.equal(foreign.status, 404);

    // Bound and minted: the twin's id now answers the passport's shell.
    const twinChip = '04D1B2C3D4E5F0';
    const bound = await call('POST', '/v1/factory/bind', {
      service_internal_id: id,
      hardware: { chip_uid: twinChip },
    });
    assert.equal(bound.status, 201, bound.text);
    const mint = await call(
      'POST',
      '/v1/dpp/mint',
      mintBody({
        chipUid: twinChip,
        name: 'Rain Poncho',
        custom_dpp_data: { gtin: GTIN, conformity_url: CONFORMITY_URL },
      }),
    );
    assert.equal(mint.status, 201, mint.text);
    const twinToken: string = mint.body.blockchain.tokenId;
    const minted = await call('GET', `/v1/aas/resolve/${id}`);
    assert.equal(minted.body.id, `${base}/aas/test/${twinToken}`);
    assert.deepEqual(minted.body, (await call('GET', `/v1/aas/resolve/${twinToken}`)).body);
  });

  test('a recycled passport shows its status and no locked deposit', async () => {
    const recycled = await call('POST', '/v1/iaas/log-recycle', { tokenId, ...RECYCLING_SITE });
    assert.equal(recycled.status, 201, recycled.text);
    const shell = (await call('GET', `/v1/aas/resolve/${tokenId}`)).body;
    const [, sustainability, security] = shell.submodels.map(propertyValues);
    assert.equal(sustainability.RecyclingStatus, 'RECYCLED');
    assert.equal(sustainability.CircularDepositWei, '0');
    assert.equal(security.Status, 'RECYCLED');
    for (const submodel of shell.submodels) {
      assert.deepEqual(verificationErrors(aas.jsonization.submodelFromJsonable(submodel).mustValue()), []);
    }
  });
});
