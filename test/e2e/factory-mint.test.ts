import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { assertChainAgreesWithDatabase } from '../support/chain-agreement.ts';
import { mintBody } from '../support/fixtures/mint.ts';
import { CONFORMITY_URL, GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

describe('factory toolbox bind mints the passport (HTTP → Temporal worker → anvil, IPFS)', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.api.createTenant('Acme Apparel');
  });
  afterAll(() => stack.close());

  test('provision (GTIN) → signed bind without any tap → token with the twin data', async () => {
    // The toolbox brings no passport data: the declaration of conformity is the company default.
    const settings = await call('PATCH', '/v1/company/settings', {
      defaultConformityUrl: CONFORMITY_URL,
    });
    assert.equal(settings.status, 200, settings.text);
    const toolbox = generateKeyPairSync('ed25519');
    const registered = await call('POST', '/v1/factory/toolbox-keys', {
      name: 'Line 1',
      publicKey: toolbox.publicKey.export({ format: 'jwk' }),
    });
    assert.equal(registered.status, 201, registered.text);
    const provisioned = await call('POST', '/v1/erp/provision', {
      gtin: GTIN,
      metadata: { name: 'Trail Jacket' },
    });
    const id: string = provisioned.body.service_internal_id;

    const uid = '04F1E2D3C4B501';
    assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: uid })).status, 201);

    const signature = sign(null, Buffer.from(`${id}:${uid}`), toolbox.privateKey).toString('hex');
    const bound = await call('POST', '/v1/factory/bind', { internalId: id, chipUid: uid, signature });
    assert.equal(bound.status, 201, bound.text);
    assert.equal(bound.body.success, true);
    assert.equal(bound.body.service_internal_id, id);
    assert.equal(bound.body.chip_uid, uid);
    assert.match(bound.body.message, /is now ACTIVE/);
    assert.match(bound.body.tokenId, /^\d+$/);
    assert.equal(await stack.chain.chain.reader.findTokenByChip(uid), bound.body.tokenId);

    const [passport] = await stack.api.db.orm.em
      .getConnection()
      .execute(`select gtin, product_id, metadata_cache from passports where chip_uid = ?`, [uid]);
    assert.equal(passport!.gtin, GTIN);
    assert.equal(passport!.product_id, id);
    assert.equal(passport!.metadata_cache.name, 'Trail Jacket');
    assert.equal(passport!.metadata_cache.custom_dpp_data.conformity_url, CONFORMITY_URL);
    await assertChainAgreesWithDatabase(stack, uid);

    const again = await call('POST', '/v1/factory/bind', { internalId: id, chipUid: uid, signature });
    assert.equal(again.status, 201, 'a repeated signed bind answers the same token');
    assert.equal(again.body.tokenId, bound.body.tokenId);
  });

  test('hardware identity is unique: a chip holding a passport cannot be bound to another twin', async () => {
    const uid = '04F1E2D3C4B502';
    const minted = await call(
      'POST',
      '/v1/dpp/mint',
      mintBody({ chipUid: uid, name: 'Someone else’s boot' }),
    );
    assert.equal(minted.status, 201, minted.text);
    const tokenId: string = minted.body.blockchain.tokenId;

    const toolbox = generateKeyPairSync('ed25519');
    await call('POST', '/v1/factory/toolbox-keys', {
      name: 'Line 2',
      publicKey: toolbox.publicKey.export({ format: 'jwk' }),
    });
    for (const shape of ['A', 'B'] as const) {
      const provisioned = await call('POST', '/v1/erp/provision', {
        gtin: GTIN,
        metadata: { name: `Twin ${shape}` },
      });
      const id: string = provisioned.body.service_internal_id;
      const signature = sign(null, Buffer.from(`${id}:${uid}`), toolbox.privateKey).toString('hex');
      const bound = await call(
        'POST',
        '/v1/factory/bind',
        shape === 'A'
          ? { service_internal_id: id, hardware: { chip_uid: uid } }
          : { internalId: id, chipUid: uid, signature },
      );
      assert.equal(bound.status, 409, `shape ${shape}: ${bound.text}`);
      assert.equal(bound.body.code, 'chip_already_registered');
      assert.match(bound.body.detail, new RegExp(`token ${tokenId}`));
      const [twin] = await stack.api.db.orm.em
        .fork()
        .execute<{ status: string; chip_uid: string | null }[]>(
          'select status, chip_uid from asset_twins where service_internal_id = ?',
          [id],
        );
      assert.deepEqual(twin, { status: 'INACTIVE', chip_uid: null }, 'the twin stays unbound');
    }
    assert.equal(
      await stack.chain.chain.reader.totalMinted(),
      2n,
      'no passport was minted for the new twins',
    );
  });
});
