import assert from 'node:assert/strict';
import { parseEther } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TestTenant } from '../support/api.ts';
import { mintBody } from '../support/fixtures/mint.ts';
import { CONFORMITY_URL, GTIN, RECYCLING_SITE } from '../support/fixtures/products.ts';
import { startTestStack, TEST_DEPOSIT, type TestStack } from '../support/stack.ts';

describe('a product’s whole life over HTTP: provision → bind → mint → supply chain → recycle', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.api.createTenant('Acme Apparel');
  });
  afterAll(() => stack.close());

  test('every step lands in the database, on chain and in the chain of custody', async () => {
    const provisioned = await call('POST', '/v1/erp/provision', {
      erp_metadata: { material_number: 'MAT-4711', order_id: 'PO-2026-001' },
    });
    assert.equal(provisioned.status, 201, provisioned.text);
    assert.equal(provisioned.body.status, 'INACTIVE');
    const internalId: string = provisioned.body.service_internal_id;

    const chipUid = '04E1E2E3E4E501';
    const bound = await call('POST', '/v1/factory/bind', {
      service_internal_id: internalId,
      hardware: { chip_uid: '04:e1:e2:e3:e4:e5:01' },
    });
    assert.equal(bound.status, 201, bound.text);
    assert.equal(bound.body.chip_uid, chipUid);
    assert.match(bound.body.message, /ACTIVE/);

    const minted = await call(
      'POST',
      '/v1/dpp/mint',
      mintBody({ chipUid, custom_dpp_data: { gtin: GTIN, conformity_url: CONFORMITY_URL } }),
    );
    assert.equal(minted.status, 201, minted.text);
    const tokenId: string = minted.body.blockchain.tokenId;

    const steps = [
      { action: 'SHIPPED', locationName: 'Porto', latitude: 41.1579, longitude: -8.6291 },
      { action: 'CUSTOMS_CLEARED', locationName: 'Hamburg Port', latitude: 53.546, longitude: 9.966 },
      { action: 'DELIVERED', locationName: 'Berlin Store', latitude: 52.52, longitude: 13.405 },
    ];
    const eventIds: number[] = [];
    for (const step of steps) {
      const logged = await call('POST', '/v1/iaas/log-event', {
        tokenId,
        ...step,
        metadata: { carrier: 'DHL' },
      });
      assert.equal(logged.status, 201, logged.text);
      eventIds.push(logged.body.eventId);
    }
    await Promise.all(
      eventIds.map((id) => stack.temporal.client.workflow.getHandle(`anchor-event:test:${id}`).result()),
    );
    for (const id of eventIds) {
      const event = await call('GET', `/v1/iaas/events/${id}`);
      assert.match(event.body.event.transactionHash, /^0x[0-9a-f]{64}$/);
    }

    const receiver = stack.chain.others[4]!.address;
    const balanceBefore = await stack.chain.chain.provider.getBalance(receiver);
    const recycled = await call('POST', '/v1/iaas/log-recycle', {
      tokenId,
      ...RECYCLING_SITE,
      rewardReceiver: receiver,
    });
    assert.equal(recycled.status, 201, recycled.text);
    assert.equal(recycled.body.recycled, true);
    assert.equal(recycled.body.releasedDeposit, `${TEST_DEPOSIT} ETH`);
    assert.equal(
      (await stack.chain.chain.provider.getBalance(receiver)) - balanceBefore,
      parseEther(TEST_DEPOSIT),
      'the deposit arrived at the reward receiver',
    );
    const again = await call('POST', '/v1/iaas/log-recycle', {
      tokenId,
      ...RECYCLING_SITE,
      rewardReceiver: receiver,
    });
    assert.equal(again.status, 409);

    const custody = await call('GET', `/v1/iaas/custody/${tokenId}`);
    assert.equal(custody.status, 200, custody.text);
    assert.equal(
      custody.body.chainOfCustody.totalEvents,
      5,
      'MINT, three supply-chain steps, RECYCLE_TRANSFER',
    );
    assert.deepEqual(
      custody.body.events.map((e: { action: string }) => e.action),
      ['MINT', 'SHIPPED', 'CUSTOMS_CLEARED', 'DELIVERED', 'RECYCLE_TRANSFER'],
    );
    assert.match(custody.body.chainOfCustody.integrityHash, /^0x[0-9a-f]{64}$/);

    const shell = await call('GET', `/v1/aas/resolve/${tokenId}`);
    assert.equal(shell.status, 200, shell.text);
    assert.equal(shell.body.modelType, 'AssetAdministrationShell');
  });
});
