import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
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
    const toolbox = generateKeyPairSync('ed25519');
    const registered = await call('POST', '/v1/factory/toolbox-keys', {
      name: 'Line 1',
      publicKey: toolbox.publicKey.export({ format: 'jwk' }),
    });
    assert.equal(registered.status, 201, registered.text);
    const provisioned = await call('POST', '/v1/erp/provision', {
      gtin: '00012345600012',
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
    assert.equal(await stack.chain.chain.findTokenByChip(uid), bound.body.tokenId);

    const [passport] = await stack.api.db.orm.em
      .getConnection()
      .execute(`select gtin, product_id, metadata_cache from passports where chip_uid = ?`, [uid]);
    assert.equal(passport!.gtin, '00012345600012');
    assert.equal(passport!.product_id, id);
    assert.equal(passport!.metadata_cache.name, 'Trail Jacket');

    const again = await call('POST', '/v1/factory/bind', { internalId: id, chipUid: uid, signature });
    assert.equal(again.status, 201, 'a repeated signed bind answers the same token');
    assert.equal(again.body.tokenId, bound.body.tokenId);
  });
});
