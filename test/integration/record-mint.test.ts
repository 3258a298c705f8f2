import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { type MintedPassport, recordMint } from '../../src/lifecycle/mint/record-mint.ts';
import type { PassportMetadata } from '../../src/passport/record/metadata.ts';
import { currentPassportVersion } from '../../src/passport/record/passport-versions.ts';
import { scopedEntityManager, type TenantScope } from '../../src/platform/db/tenant-scope.ts';
import type { MintProduct } from '../../src/processes/mint.ts';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';

describe('recording a mined mint', () => {
  let api: TestApi;
  let tenant: TestTenant;
  let scope: TenantScope;

  beforeAll(async () => {
    api = await startTestApi();
    tenant = await api.createTenant('Acme');
    scope = { companyId: tenant.companyId, environment: 'test' };
  });
  afterAll(() => api.close());

  const base = () => api.config.publicBaseUrl;
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
  const one = async (sql: string, params: unknown[] = []) =>
    (await api.db.orm.em.getConnection().execute<Record<string, unknown>[]>(sql, params))[0]!;

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
    const first = await recordMint(
      scopedEntityManager(api.db.orm.em, scope),
      scope,
      minted(uid, '0xaa'),
      base(),
    );
    const again = await recordMint(
      scopedEntityManager(api.db.orm.em, scope),
      scope,
      minted(uid, '0xbb'),
      base(),
    );
    assert.equal(again.id, first.id);
    assert.equal(again.transactionHash, '0xaa', 'the first recording stands');
    assert.equal(await count('passports'), 1);
    assert.equal(await count('supply_chain_events'), before.events + 1);
    assert.equal(await count('outbox_events'), before.outbox + 1);
    assert.equal(await count('usage_records'), before.usage + 1);
    const versions = await api.db.orm.em
      .getConnection()
      .execute('select number from passport_versions where passport_id = ?', [first.id]);
    assert.deepEqual(versions, [{ number: 1 }], 'one content version for the mint, none for its retry');
  });

  test('writes the passport, MINT event, asset.minted and usage, and turns the chip ACTIVE', async () => {
    const uid = '04ABCDEF000002';
    await api.call('POST', '/v1/dpp/enroll', {
      key: tenant.testKey,
      body: { chipUid: uid, productId: 'SKU-9' },
    });
    const passport = await recordMint(
      scopedEntityManager(api.db.orm.em, scope),
      scope,
      {
        ...minted(uid, '0xdd'),
        tokenId: '8',
      },
      base(),
    );
    const row = await one(
      `select p.id, p.product_id, p.chip_id = c.id as same_chip, p.metadata_cache, p.locked_deposit_wei::text as deposit,
         p.mint_block, c.status from passports p join chips c on c.id = p.chip_id where p.chip_uid = ?`,
      [uid],
    );
    assert.equal(row.id, passport.id);
    assert.equal(row.product_id, 'SKU-9', "the chip's product when the request names none");
    assert.equal(passport.productId, 'SKU-9');
    assert.equal(row.same_chip, true);
    assert.deepEqual(row.metadata_cache, { name: 'Boot' });
    assert.equal(row.deposit, '1000000000000000');
    assert.equal(Number(row.mint_block), 12);
    assert.equal(row.status, 'ACTIVE');
    const event = await one(
      `select action, actor, metadata, block_number, timestamp from supply_chain_events where token_id = '8'`,
    );
    assert.equal(event.action, 'MINT');
    assert.equal(event.actor, `0x${'33'.repeat(20)}`);
    assert.deepEqual(event.metadata, { to: `0x${'11'.repeat(20)}`, metadataUrl: 'ipfs://bafkreiboot' });
    assert.equal(new Date(String(event.timestamp)).toISOString(), '2026-01-02T03:04:05.000Z');
    const outbox = await one(
      `select company_id, environment, data, dispatched_at from outbox_events
       where event_type = 'asset.minted' and data->>'chipUid' = ?`,
      [uid],
    );
    assert.equal(outbox.company_id, scope.companyId);
    assert.equal(outbox.environment, 'test');
    assert.deepEqual(outbox.data, {
      tokenId: '8',
      chipUid: uid,
      gtin: null,
      service: `0x${'22'.repeat(20)}`,
      deposit: '0.001',
      transactionHash: '0xdd',
    });
    assert.deepEqual(await one(`select metric from usage_records where reference = ?`, [`test:${uid}`]), {
      metric: 'mint',
    });
  });

  test('the first version written with the mint is what a read of the passport finds (no second version)', async () => {
    const uid = '04ABCDEF000004';
    await api.call('POST', '/v1/dpp/enroll', {
      key: tenant.testKey,
      body: { chipUid: uid, productId: 'SKU-4' },
    });
    const passport = await recordMint(
      scopedEntityManager(api.db.orm.em, scope),
      scope,
      {
        ...minted(uid, '0xff'),
        tokenId: '10',
        product: { ...minted(uid, '0xff').product, gtin: '04012345678901', material: 'leather' },
        metadata: { name: 'Boot', attributes: [{ trait_type: 'size', value: 42.5 }], z: 1, a: null },
      } as unknown as MintedPassport,
      base(),
    );
    const stored = await one('select number, sha256 from passport_versions where passport_id = ?', [
      passport.id,
    ]);
    const read = await currentPassportVersion(api.db.orm.em.fork(), passport.id, base());
    assert.equal(read?.number, 1, 'a read records no newer version: the document is the same');
    assert.equal(read?.sha256, stored.sha256);
    const event = await one(`select id from supply_chain_events where token_id = '10'`);
    const content = read!.content as { events?: { id: number }[] } & Record<string, unknown>;
    assert.ok(JSON.stringify(content).includes(`"id":${event.id}`), "the document names the MINT event's id");
  });

  test("another tenant's chip is not found and nothing is written", async () => {
    const uid = '04ABCDEF000003';
    await api.call('POST', '/v1/dpp/enroll', { key: tenant.testKey, body: { chipUid: uid } });
    const other = await api.createTenant('Other');
    const otherScope: TenantScope = { companyId: other.companyId, environment: 'test' };
    const passports = await count('passports');
    await assert.rejects(
      recordMint(
        scopedEntityManager(api.db.orm.em, otherScope),
        otherScope,
        {
          ...minted(uid, '0xee'),
          tokenId: '9',
        },
        base(),
      ),
      { code: 'chip_not_found' },
    );
    assert.equal(await count('passports'), passports);
  });

  test('a chip that is not enrolled is a domain error, not a silent success', async () => {
    await assert.rejects(
      recordMint(scopedEntityManager(api.db.orm.em, scope), scope, minted('04ABCDEF0000FF', '0xcc'), base()),
      { code: 'chip_not_found' },
    );
  });
});
