import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN } from '../support/fixtures/products.ts';
import {
  type DppWorld,
  dppPath,
  dppReaders,
  OPERATOR,
  PRODUCT,
  shippingEvent,
  startDppWorld,
} from './fixtures/dpp-reads.ts';

// EN 18222 reads over HTTP against the whole stack (the header and versions: dpp-versions.test.ts).

describe('EN 18222 reads, EN 18223 header and passport versions', () => {
  const world = {} as DppWorld;
  const { call, anonymous, owner, stranger, anchorOf, dppIdOf } = dppReaders(world);

  beforeAll(async () => {
    Object.assign(world, await startDppWorld());
  });
  afterAll(() => world.stack.close());

  test('reads by product id, many at once, test and live kept apart', async () => {
    const a = await enrollAndMint(call, '04D1D2D3D4D504');
    const b = await enrollAndMint(call, '04D1D2D3D4D505');
    const [idA, idB] = [await dppIdOf(a), await dppIdOf(b)];
    const byProduct = await anonymous(`/v1/dppsByProductId/${encodeURIComponent(anchorOf(a))}`);
    assert.equal(byProduct.status, 200, byProduct.text);
    assert.equal(byProduct.body.digitalProductPassportId, idA);
    assert.deepEqual(byProduct.body, (await anonymous(dppPath(idA))).body);
    const full = await anonymous(
      `/v1/dppsByProductId/${encodeURIComponent(anchorOf(a))}?representation=full`,
    );
    assert.equal(full.status, 200, full.text);
    assert.equal(full.body.digitalProductPassportId, idA);
    assert.equal(full.body[PRODUCT], undefined);
    assert.deepEqual(
      full.body.elements.map((e: { elementId: string; objectType: string }) => [e.elementId, e.objectType]),
      [[PRODUCT, 'DataElementCollection']],
    );
    // A live address never shows a test passport.
    const live = await world.stack.api.call('GET', `/v1/dppsByProductId/${encodeURIComponent(anchorOf(a))}`, {
      env: null,
      key: null,
    });
    assert.equal(live.status, 404);
    assert.equal(live.headers.get('content-type'), 'application/problem+json');
    assert.equal(live.body.code, 'dpp_not_found');
    for (const wrong of ['not a uri', `${world.stack.api.config.publicBaseUrl}/test/01/${GTIN}/21/99999`]) {
      const missing = await anonymous(`/v1/dppsByProductId/${encodeURIComponent(wrong)}`);
      assert.equal(missing.status, 404, wrong);
      assert.equal(missing.body.code, 'dpp_not_found');
    }

    const unknown = `${world.stack.api.config.publicBaseUrl}/test/01/${GTIN}/21/99999`;
    for (const route of ['/v1/dppIdsByProductIds', '/v1/dppsByProductIds']) {
      const many = await anonymous(route, 'POST', { productIds: [anchorOf(a), unknown, anchorOf(b)] });
      assert.equal(many.status, 200, many.text);
      assert.deepEqual(many.body, {
        items: [idA, idB],
        results: [
          { productId: anchorOf(a), digitalProductPassportId: idA },
          { productId: unknown, digitalProductPassportId: null },
          { productId: anchorOf(b), digitalProductPassportId: idB },
        ],
      });
    }
    const paged = await anonymous('/v1/dppIdsByProductIds?limit=2', 'POST', {
      productIds: [anchorOf(a), unknown, anchorOf(b)],
    });
    assert.deepEqual(paged.body.items, [idA]);
    assert.equal(paged.body.cursor, '2');
    const rest = await anonymous('/v1/dppIdsByProductIds?limit=2&cursor=2', 'POST', {
      productIds: [anchorOf(a), unknown, anchorOf(b)],
    });
    assert.deepEqual(rest.body.items, [idB]);
    assert.equal(rest.body.cursor, undefined);
    for (const body of [{ productIds: [] }, { productIds: Array(101).fill(anchorOf(a)) }, {}]) {
      const refused = await anonymous('/v1/dppIdsByProductIds', 'POST', body);
      assert.equal(refused.status, 400);
      assert.equal(refused.headers.get('content-type'), 'application/problem+json');
    }
  });

  test('one element by its path; restricted sections need the owner’s credential; problems, never a 500', async () => {
    const tokenId = await enrollAndMint(call, '04D1D2D3D4D506');
    assert.equal(
      (await call('POST', '/v1/iaas/log-event', { tokenId, ...shippingEvent('SHIPPED') })).status,
      201,
    );
    const dppId = await dppIdOf(tokenId);
    const element = (elementPath: string, query = '') =>
      dppPath(dppId, `/elements/${encodeURIComponent(elementPath)}${query}`);

    const action = await anonymous(element(`$['${PRODUCT}']['events'][1]['action']`));
    assert.equal(action.status, 200, action.text);
    assert.match(action.headers.get('content-type')!, /^application\/json/);
    assert.equal(action.body, 'SHIPPED');
    const status = await anonymous(element("$['dppStatus']"));
    assert.equal(status.body, 'active');
    const fullElement = await anonymous(
      element(`$['${PRODUCT}']['events'][1]['latitude']`, '?representation=full'),
    );
    assert.deepEqual(fullElement.body, {
      elementId: 'latitude',
      objectType: 'SingleValuedDataElement',
      valueDataType: 'xsd:double',
      value: 53.546,
    });
    const section = await anonymous(element(`$['${PRODUCT}']`));
    assert.equal(section.body.serialNumber, tokenId);

    const restricted = element(`$['${OPERATOR}']['chipUid']`);
    const noCredential = await anonymous(restricted);
    assert.equal(noCredential.status, 401);
    assert.equal(noCredential.body.code, 'credential_required');
    const foreign = await stranger(restricted);
    assert.equal(foreign.status, 403);
    assert.equal(foreign.body.code, 'not_passport_owner');
    const own = await owner(restricted);
    assert.equal(own.status, 200, own.text);
    assert.equal(own.body, '04D1D2D3D4D506');
    const badKey = await world.stack.api.call('GET', `/test${dppPath(dppId)}`, {
      env: null,
      key: 'dpp_test_nope',
    });
    assert.equal(badKey.status, 401);

    const problems: [string, number, string][] = [
      [dppPath('not-a-dpp-id'), 400, 'invalid_dpp_id'],
      [dppPath('urn:uuid:00000000-0000-4000-8000-000000000000'), 404, 'dpp_not_found'],
      [dppPath(dppId, '/versions/999'), 404, 'version_not_found'],
      [dppPath(dppId, '/versions/zero'), 400, 'validation_failed'],
      [dppPath(dppId, '/versions/0'), 400, 'validation_failed'],
      [`${dppPath(dppId)}?representation=expanded`, 400, 'validation_failed'],
      [dppPath(dppId, '/versions?limit=0'), 400, 'validation_failed'],
      [element('$.dppStatus'), 400, 'invalid_element_path'],
      [element("$['dppStatus'"), 400, 'invalid_element_path'],
      [element('$[*]'), 400, 'invalid_element_path'],
      [element("$['nothing']"), 404, 'element_not_found'],
      [element(`$['${PRODUCT}']['events'][99]`), 404, 'element_not_found'],
      [`/v1/dppsByIdAndDate/${encodeURIComponent(dppId)}?date=yesterday`, 400, 'validation_failed'],
    ];
    for (const [url, expected, code] of problems) {
      const answer = await anonymous(url);
      assert.equal(answer.status, expected, `${url}: ${answer.text}`);
      assert.equal(answer.headers.get('content-type'), 'application/problem+json', url);
      assert.equal(answer.body.code, code, url);
    }
    // facilityId is null for a company that never set it: the full form states values only.
    const otherPassport = await enrollAndMint(
      (method, p, body) =>
        world.stack.api.call(method, p, {
          key: world.other.testKey,
          ...(body === undefined ? {} : { body }),
        }),
      '04D1D2D3D4D507',
    );
    const otherId = await dppIdOf(otherPassport);
    const nullFacility = await anonymous(
      dppPath(otherId, `/elements/${encodeURIComponent("$['facilityId']")}?representation=full`),
    );
    assert.equal(nullFacility.status, 404);
    const nullCompressed = await anonymous(
      dppPath(otherId, `/elements/${encodeURIComponent("$['facilityId']")}`),
    );
    assert.equal(nullCompressed.status, 200);
    assert.equal(nullCompressed.text, 'null');
  });
});
