import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { ESPR_CONFORMITY_PREFIX } from '../../src/lifecycle/mint/mint-request.ts';
import type { TestTenant } from '../support/api.ts';
import { mintBody, shapeBBody } from '../support/fixtures/mint.ts';
import { GTIN } from '../support/fixtures/products.ts';
import { tapQuery, verifyChipBody } from '../support/fixtures/sun.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

/**
 * The decisions of issue 33 item 10 (docs/minting.md, docs/api-conventions.md): the forms of shape A's
 * nfcData, the 409 chip_enrolled_elsewhere another company gets, the members that are null where the spec
 * shows a string, and the English sentence after the spec's German ESPR text.
 */
describe('mint decisions: nfcData forms, chips of another company, null members, the ESPR text', () => {
  let stack: TestStack;
  let acme: TestTenant;
  let globex: TestTenant;
  const as = (tenant: TestTenant) => (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    stack = await startTestStack();
    acme = await stack.api.createTenant('Acme Apparel');
    globex = await stack.api.createTenant('Globex');
  });
  afterAll(() => stack?.close());

  test('nfcData: the tap’s query with or without ?, a full URL, percent-encoded once; a bare counter is refused', async () => {
    const call = as(acme);
    const forms: [string, (query: string) => string][] = [
      ['bare query', (query) => query],
      ['leading ?', (query) => `?${query}`],
      ['full URL', (query) => `https://tag.acme.example/t?${query}`],
      ['with a plain counter and sv beside', (query) => `counter=000003&${query}&sv=1`],
      ['percent-encoded once', (query) => encodeURIComponent(query)],
    ];
    let n = 10;
    for (const [name, form] of forms) {
      n += 1;
      const chipUid = `04D0D1D2D3D4${n}`;
      const minted = await call(
        'POST',
        '/v1/dpp/mint',
        mintBody({ chipUid, nfcData: form(tapQuery(chipUid, 3)) }),
      );
      assert.equal(minted.status, 201, `${name}: ${minted.text}`);
    }
    const refused = await call(
      'POST',
      '/v1/dpp/mint',
      mintBody({ chipUid: '04D0D1D2D3D499', nfcData: 'counter=000003&sv=0123456789ABCDEF' }),
    );
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.code, 'malformed_sun_payload');
    assert.match(refused.body.detail, /picc_data=…&cmac=…/);
    assert.match(refused.body.detail, /cannot be verified/);
  });

  test('a chip another company enrolled: 409 chip_enrolled_elsewhere naming nobody; verify-chip as for an unknown chip', async () => {
    const chipUid = '04E0E1E2E3E4E5';
    assert.equal((await as(acme)('POST', '/v1/dpp/enroll', { chipUid })).status, 201);
    const minted = await as(acme)('POST', '/v1/dpp/mint', mintBody({ chipUid, counter: 2 }));
    assert.equal(minted.status, 201, minted.text);
    const tokenId: string = minted.body.blockchain.tokenId;
    const other = as(globex);
    const unknown = await other('POST', '/v1/dpp/verify-chip', verifyChipBody('04E0E1E2E3E4FF', 1));
    assert.equal(unknown.status, 404, unknown.text);
    const answers: Json[] = [
      await other('POST', '/v1/dpp/enroll', { chipUid }),
      await other('POST', '/v1/dpp/mint', mintBody({ chipUid, counter: 5 })),
      await other('POST', '/v1/dpp/mint', shapeBBody({ chipUid })),
    ];
    for (const answer of answers) {
      assert.equal(answer.status, 409, answer.text);
      assert.equal(answer.body.code, 'chip_enrolled_elsewhere');
      // Only that the chip is taken: neither the company, nor its passport.
      assert.equal(answer.body.detail, `Chip ${chipUid} is already enrolled by another account.`);
      // The members of any problem (those of the unknown chip's 404), nothing more.
      assert.deepEqual(Object.keys(answer.body).sort(), Object.keys(unknown.body).sort());
      assert.ok(!answer.text.includes(acme.companyId));
      assert.ok(!answer.text.includes(`"${tokenId}"`));
    }
    const verified = await other('POST', '/v1/dpp/verify-chip', verifyChipBody(chipUid, 6));
    assert.equal(verified.status, 404, verified.text);
    assert.equal(verified.status, unknown.status);
    assert.equal(verified.body.code, unknown.body.code);
  });

  test('null where the spec shows a string: actorEmail, tokenId before minting, connectId before submission', async () => {
    const call = as(globex);
    const chipUid = '04F0F1F2F3F4F5';
    assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid })).status, 201);
    const inventory = await call('GET', '/v1/dpp/inventory');
    const chip = inventory.body.inventory.find((item: Json) => item.chipUid === chipUid);
    assert.equal(chip.tokenId, null);
    const kyb = await call('GET', '/v1/kyb/status');
    assert.equal(kyb.status, 200, kyb.text);
    assert.equal(kyb.body.connectId, null);
    const minted = await call('POST', '/v1/dpp/mint', mintBody({ chipUid }));
    assert.equal(minted.status, 201, minted.text);
    const logged = await call('POST', '/v1/iaas/log-event', {
      tokenId: minted.body.blockchain.tokenId,
      action: 'SHIPPED',
      locationName: 'Port of Hamburg',
      latitude: 53.546,
      longitude: 9.9661,
    });
    assert.equal(logged.status, 201, logged.text);
    const event = await call('GET', `/v1/iaas/events/${logged.body.eventId}`);
    assert.equal(event.status, 200, event.text);
    assert.equal(event.body.event.actorEmail, null, event.text);

    // The OpenAPI document says so: nullable, and an extension of the spec's string.
    const doc = (await stack.api.call('GET', '/openapi.json', { env: null })).body;
    const member = (path: string, method: string, pick: (schema: Json) => Json) =>
      pick(doc.paths[path][method].responses['200'].content['application/json'].schema);
    const members: [string, Json][] = [
      ['actorEmail', member('/v1/iaas/events/{id}', 'get', (s) => find(s, 'actorEmail'))],
      ['tokenId', member('/v1/dpp/inventory', 'get', (s) => find(s, 'tokenId'))],
      ['connectId', member('/v1/kyb/status', 'get', (s) => find(s, 'connectId'))],
    ];
    for (const [name, schema] of members) {
      assert.ok(schema, name);
      assert.match(JSON.stringify(schema), /"null"/, `${name} is nullable`);
      assert.match(JSON.stringify(schema), /extension/, `${name} says null is an extension`);
    }
  });

  test('no declaration of conformity: the spec’s German sentence first, then an English one', async () => {
    const call = as(acme);
    const chipUid = '04A0A1A2A3A4A5';
    const shapeA = await call('POST', '/v1/dpp/mint', {
      ...mintBody({ chipUid }),
      custom_dpp_data: { gtin: GTIN },
    });
    const shapeB = await call('POST', '/v1/dpp/mint', {
      gtin: GTIN,
      chipUid,
      material: 'Wool',
    });
    for (const [answer, field] of [
      [shapeA, 'custom_dpp_data.conformity_url'],
      [shapeB, 'customDppData.conformity_url'],
    ] as const) {
      assert.equal(answer.status, 400, answer.text);
      assert.equal(answer.body.code, 'conformity_required');
      assert.ok(answer.body.detail.startsWith(`${ESPR_CONFORMITY_PREFIX} Bitte geben Sie ${field}`));
      assert.match(
        answer.body.detail,
        new RegExp(
          `In English: a declaration of conformity is mandatory .*; send ${field.replace('.', '\\.')}`,
        ),
      );
    }
    assert.match(shapeB.body.detail, /or set the company’s defaultConformityUrl/);
  });
});

/** The schema of member `name` anywhere inside an OpenAPI schema. */
function find(schema: Json, name: string): Json {
  if (schema === null || typeof schema !== 'object') return undefined;
  if (schema.properties?.[name]) return schema.properties[name];
  for (const value of Object.values(schema)) {
    const found = find(value, name);
    if (found) return found;
  }
  return undefined;
}
