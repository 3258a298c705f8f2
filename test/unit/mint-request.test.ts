import assert from 'node:assert/strict';
import { test } from 'vitest';
import {
  isShapeA,
  lacksConformity,
  mintShapeA,
  mintShapeB,
  productFromShapeA,
} from '../../src/lifecycle/mint/mint-request.ts';
import { buildMetadata } from '../../src/passport/record/metadata.ts';
import { GTIN } from '../support/fixtures/products.ts';

const shapeA = {
  name: 'Trail Jacket',
  description: 'Waterproof shell',
  image: 'ipfs://bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
  chipUid: '04:DE:5F:1E:AC:C0:40',
  nfcData: 'https://id.example/tap?picc_data=EF963FF7828658A599F3041510671E88&cmac=94EED9EE65337086',
  custom_dpp_data: {
    gtin: GTIN,
    manufacturer_name: 'Acme',
    conformity_url: 'https://acme.example/doc.pdf',
    svhc_exists: false,
    material_composition: { cotton: 60, polyester: 40 },
  },
};

test('shape detection and the ESPR conformity pre-check', () => {
  assert.ok(isShapeA(shapeA));
  assert.ok(!isShapeA({ gtin: GTIN, chipUid: 'x', material: 'wool' }));
  assert.ok(!lacksConformity(shapeA));
  assert.ok(lacksConformity({ ...shapeA, custom_dpp_data: { gtin: GTIN } }));
  assert.ok(lacksConformity({ ...shapeA, custom_dpp_data: { conformity_url: '  ' } }));
  assert.ok(lacksConformity({ name: 'x', nfcData: 'y' }));
});

test('shape A validates types, GTIN check digits and composition', () => {
  assert.ok(mintShapeA.safeParse(shapeA).success);
  const badGtin = mintShapeA.safeParse({
    ...shapeA,
    custom_dpp_data: { ...shapeA.custom_dpp_data, gtin: '00012345600013' },
  });
  assert.equal(badGtin.success, false);
  const over = mintShapeA.safeParse({
    ...shapeA,
    custom_dpp_data: { ...shapeA.custom_dpp_data, material_composition: { cotton: 80, wool: 40 } },
  });
  assert.equal(over.success, false);
  const extra = mintShapeA.safeParse({
    ...shapeA,
    custom_dpp_data: { ...shapeA.custom_dpp_data, season: 'SS26' },
  });
  assert.ok(extra.success, 'further scalar members of custom_dpp_data are kept');
});

test('shape B needs a valid GTIN and a material', () => {
  assert.ok(mintShapeB.safeParse({ gtin: GTIN, chipUid: '04DE5F1EACC040', material: 'Wool' }).success);
  assert.equal(
    mintShapeB.safeParse({ gtin: '123', chipUid: '04DE5F1EACC040', material: 'Wool' }).success,
    false,
  );
});

test('metadata has the spec’s metadataCache shape with the GS1 Digital Link as external_url', () => {
  const parsed = mintShapeA.parse(shapeA);
  const metadata = buildMetadata({
    product: productFromShapeA(parsed),
    chipUid: '04DE5F1EACC040',
    nfc: { cmac: '94EED9EE65337086', urlPath: shapeA.nfcData, piccData: 'EF963FF7828658A599F3041510671E88' },
    externalUrl: `https://dpp.example/01/${GTIN}/21/7`,
  });
  assert.deepEqual(Object.keys(metadata).sort(), [
    'attributes',
    'chipUid',
    'custom_dpp_data',
    'description',
    'external_url',
    'image',
    'name',
    'nfcData',
  ]);
  assert.equal(metadata.custom_dpp_data.conformity_url, 'https://acme.example/doc.pdf');
  assert.ok(metadata.attributes.some((a) => a.trait_type === 'GTIN' && a.value === GTIN));
  assert.deepEqual(metadata.nfcData, {
    cmac: '94EED9EE65337086',
    urlPath: shapeA.nfcData,
    piccData: 'EF963FF7828658A599F3041510671E88',
  });
});
