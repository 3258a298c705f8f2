import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { scopedEntityManager, type TenantScope } from '../../src/db/tenant-scope.ts';
import type { MintProduct, PassportMetadata } from '../../src/passports/metadata.ts';
import { type MintedPassport, recordMint } from '../../src/passports/record-mint.ts';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';

describe('recording a mined mint', () => {
  let api: TestApi;
  let tenant: TestTenant;
  let scope: TenantScope;

  before(async () => {
    api = await startTestApi();
    tenant = await api.createTenant('Acme');
    scope = { companyId: tenant.companyId, environment: 'test' };
  });
  after(() => api.close());

  const minted = (chipUid: string, transactionHash: string): MintedPassport => ({
    chipUid,
    tokenId: '7',
    ownerWallet: `0x${'11'.repeat(20)}`,
    product: {
      name: 'Boot',
      description: 'Hiking boot',
      image: null,
      gtin: null,
      productId: null,
      material: null,
      customDppData: {},
    } satisfies MintProduct,
    metadata: { name: 'Boot' } as unknown as PassportMetadata,
    metadataUrl: 'ipfs://bafkreiboot',
    transactionHash,
    blockNumber: 12,
    mintedAt: new Date('2026-01-02T03:04:05Z'),
    depositWei: '1000000000000000',
    depositDecimal: '0.001',
    contractAddress: `0x${'22'.repeat(20)}`,
    platformAddress: `0x${'33'.repeat(20)}`,
  });
  const count = async (table: string) =>
    (
      await api.db.orm.em.getConnection().execute<{ n: number }[]>(`select count(*)::int as n from ${table}`)
    )[0]!.n;

  test('a repeated call (activity retry) returns the first passport and writes nothing more', async () => {
    const uid = '04ABCDEF000001';
    assert.equal(
      (await api.call('POST', '/v1/dpp/enroll', { key: tenant.testKey, body: { chipUid: uid } })).status,
      201,
    );
    const before = {
      events: await count('supply_chain_events'),
      outbox: await count('outbox_events'),
      usage: await count('usage_records'),
    };
    const first = await recordMint(scopedEntityManager(api.db.orm.em, scope), scope, minted(uid, '0xaa'));
    const again = await recordMint(scopedEntityManager(api.db.orm.em, scope), scope, minted(uid, '0xbb'));
    assert.equal(again.id, first.id);
    assert.equal(again.transactionHash, '0xaa', 'the first recording stands');
    assert.equal(await count('passports'), 1);
    assert.equal(await count('supply_chain_events'), before.events + 1);
    assert.equal(await count('outbox_events'), before.outbox + 1);
    assert.equal(await count('usage_records'), before.usage + 1);
  });

  test('a chip that is not enrolled is a domain error, not a silent success', async () => {
    await assert.rejects(
      recordMint(scopedEntityManager(api.db.orm.em, scope), scope, minted('04ABCDEF0000FF', '0xcc')),
      { code: 'chip_not_found' },
    );
  });
});
