import assert from 'node:assert/strict';
import { formatEther } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { companyCustodyAddress } from '../../src/accounts/wallets/custody.ts';
import type { TestTenant } from '../support/api.ts';
import { assertChainAgreesWithDatabase } from '../support/chain-agreement.ts';
import { mintBody, shapeBBody } from '../support/fixtures/mint.ts';
import { CONFORMITY_URL, GTIN, TRAIL_JACKET } from '../support/fixtures/products.ts';
import { tapUrl as tapUrlAt, verifyChipBody } from '../support/fixtures/sun.ts';
import { referenceCid } from '../support/reference-cid.ts';
import { startTestStack, TEST_DEPOSIT, type TestStack } from '../support/stack.ts';

const tapUrl = (uid: string, counter: number) => tapUrlAt(uid, counter, 'https://id.acme.example/tap');

const shapeA = (chipUid: string, nfcData: string) =>
  mintBody({
    chipUid,
    nfcData,
    ...TRAIL_JACKET,
    custom_dpp_data: {
      gtin: GTIN,
      manufacturer_name: 'Acme Apparel',
      conformity_url: CONFORMITY_URL,
      svhc_exists: false,
    },
  });

describe('minting end to end (HTTP → Temporal worker → anvil, IPFS, PostgreSQL)', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    // The API runs on the client production uses (connectClient), not the time-skipping one.
    stack = await startTestStack({ apiClient: 'native' });
    tenant = await stack.api.createTenant('Acme Apparel');
  });
  afterAll(() => stack.close());

  test('enroll → verify-chip → mint (shape A) → token on chain, metadata on IPFS, inventory', async () => {
    const uid = '04A1B2C3D4E501';
    assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: uid })).status, 201);
    const verified = await call('POST', '/v1/dpp/verify-chip', verifyChipBody(uid, 1));
    assert.equal(verified.body.authentic, true);

    const minted = await call('POST', '/v1/dpp/mint', shapeA(uid, tapUrl(uid, 2)));
    assert.equal(minted.status, 201, minted.text);
    assert.equal(minted.body.success, true);
    const { tokenId, transactionHash, ipfsUrl } = minted.body.blockchain;
    assert.match(tokenId, /^\d+$/);
    assert.match(transactionHash, /^0x[0-9a-f]{64}$/);
    assert.match(ipfsUrl, /^ipfs:\/\/b[a-z2-7]+$/);
    assert.equal(minted.body.data.status, 'ACTIVE');
    assert.equal(typeof minted.body.data.dbId, 'number');

    const chain = stack.chain.chain;
    assert.equal(
      await chain.reader.ownerOf(tokenId),
      companyCustodyAddress(undefined, tenant.companyId, 'test'),
    );
    assert.equal(await chain.reader.tokenURI(tokenId), ipfsUrl);
    assert.equal(formatEther(await chain.reader.depositOf(tokenId)), TEST_DEPOSIT);
    assert.equal(await chain.reader.findTokenByChip(uid), tokenId);

    const cid = ipfsUrl.slice('ipfs://'.length);
    const metadata = await stack.api.call('GET', `/ipfs/${cid}`, { env: null });
    assert.equal(metadata.status, 200);
    assert.equal(metadata.headers.get('content-type'), 'application/json');
    assert.equal(await referenceCid(Buffer.from(metadata.text)), cid);
    assert.equal(metadata.body.chipUid, uid);
    assert.equal(
      metadata.body.external_url,
      `${stack.api.config.publicBaseUrl}/test/01/${GTIN}/21/${tokenId}`,
    );
    assert.equal(metadata.body.custom_dpp_data.conformity_url, CONFORMITY_URL);

    const inventory = await call('GET', '/v1/dpp/inventory');
    assert.deepEqual(
      inventory.body.inventory.find((i: { chipUid: string }) => i.chipUid === uid),
      { tokenId, chipUid: uid, productId: null, material: null, status: 'ACTIVE' },
    );
    const status = await call('GET', `/v1/dpp/mint/${uid}`);
    assert.equal(status.body.status, 'COMPLETED');
    assert.equal(status.body.result.blockchain.tokenId, tokenId);

    const rows = await stack.api.db.orm.em.getConnection().execute(
      `select p.token_id, p.locked_deposit_wei::text as deposit, e.action, e.transaction_hash
         from passports p join supply_chain_events e on e.token_id = p.token_id where p.chip_uid = ?`,
      [uid],
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.action, 'MINT');
    assert.equal(rows[0]!.transaction_hash, transactionHash);
    const outbox = await stack.api.db.orm.em
      .getConnection()
      .execute(`select data from outbox_events where event_type = 'asset.minted' and data->>'chipUid' = ?`, [
        uid,
      ]);
    assert.equal(outbox.length, 1);
    assert.deepEqual(outbox[0]!.data, {
      tokenId,
      chipUid: uid,
      gtin: GTIN,
      service: stack.chain.contractAddress,
      deposit: TEST_DEPOSIT,
      transactionHash,
    });
    const usage = await stack.api.db.orm.em
      .getConnection()
      .execute(`select count(*)::int as n from usage_records`);
    assert.equal(usage[0]!.n, 1);

    const again = await call('POST', '/v1/dpp/mint', shapeA(uid, tapUrl(uid, 3)));
    assert.equal(again.status, 409);
    assert.equal(again.body.detail, 'Conflict: Chip already registered.');
  });

  test('the ESPR check comes first; a replayed or forged tap is refused and mints nothing', async () => {
    const uid = '04A1B2C3D4E502';
    await call('POST', '/v1/dpp/enroll', { chipUid: uid });
    const noConformity = await call('POST', '/v1/dpp/mint', {
      ...shapeA(uid, tapUrl(uid, 1)),
      custom_dpp_data: { gtin: GTIN },
    });
    assert.equal(noConformity.status, 400);
    assert.match(noConformity.body.detail, /^ESPR Compliance Fehler/);

    const tap = tapUrl(uid, 7);
    const verified = await call('POST', '/v1/dpp/verify-chip', {
      chipUid: uid,
      piccData: new URL(tap).searchParams.get('picc_data'),
      cmac: new URL(tap).searchParams.get('cmac'),
    });
    assert.equal(verified.body.authentic, true);
    const replayed = await call('POST', '/v1/dpp/mint', shapeA(uid, tap));
    assert.equal(replayed.status, 422, replayed.text);
    assert.equal(replayed.body.code, 'sun_rejected');
    assert.equal(await stack.chain.chain.reader.findTokenByChip(uid), null, 'nothing minted');

    const forged = tapUrl(uid, 8).replace(/cmac=([0-9A-F])/, (_m, c) => `cmac=${c === '0' ? '1' : '0'}`);
    const refused = await call('POST', '/v1/dpp/mint', shapeA(uid, forged));
    assert.equal(refused.status, 422);

    const malformed = await call(
      'POST',
      '/v1/dpp/mint',
      shapeA(uid, 'https://id.acme.example/tap?picc_data=XYZ'),
    );
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.code, 'malformed_sun_payload');

    // A chip not enrolled yet is enrolled by a genuine tap only: a forged one leaves nothing behind.
    const forgedNew = shapeA(
      '04FFFFFFFFFF99',
      tapUrl('04FFFFFFFFFF99', 1).replace(/cmac=\w{4}/, 'cmac=0000'),
    );
    const refusedNew = await call('POST', '/v1/dpp/mint', forgedNew);
    assert.equal(refusedNew.status, 422, refusedNew.text);
    const listed = await call('GET', '/v1/dpp/inventory');
    assert.ok(!listed.body.inventory.some((item: { chipUid: string }) => item.chipUid === '04FFFFFFFFFF99'));

    const fresh = await call('POST', '/v1/dpp/mint', shapeA(uid, tapUrl(uid, 9)));
    assert.equal(fresh.status, 201, 'after refusals a genuine fresh tap mints');
  });

  test('shape B mints a chip that showed a genuine tap before, and refuses one that did not', async () => {
    const uid = '04A1B2C3D4E503';
    await call('POST', '/v1/dpp/enroll', { chipUid: uid });
    const shapeB = shapeBBody({ chipUid: uid });
    const unverified = await call('POST', '/v1/dpp/mint', shapeB);
    assert.equal(unverified.status, 422);
    assert.equal(unverified.body.code, 'chip_not_verified');
    const failedStatus = await call('GET', `/v1/dpp/mint/${uid}`);
    assert.equal(failedStatus.body.status, 'FAILED');
    assert.equal(failedStatus.body.error.code, 'chip_not_verified');
    const neverMinted = '04A1B2C3D4E5FF';
    await call('POST', '/v1/dpp/enroll', { chipUid: neverMinted });
    const noMint = await call('GET', `/v1/dpp/mint/${neverMinted}`);
    assert.equal(noMint.status, 404);
    assert.equal(noMint.body.code, 'mint_not_found');

    await call('POST', '/v1/dpp/verify-chip', verifyChipBody(uid, 1));
    const minted = await call('POST', '/v1/dpp/mint', shapeB);
    assert.equal(minted.status, 201, minted.text);
    assert.deepEqual(Object.keys(minted.body).sort(), ['message', 'success', 'tokenId', 'txHash']);
    assert.equal(await stack.chain.chain.reader.findTokenByChip(uid), minted.body.tokenId);
    const inventory = await call('GET', '/v1/dpp/inventory');
    const item = inventory.body.inventory.find((i: { chipUid: string }) => i.chipUid === uid);
    assert.equal(item.material, 'Merino wool');
  });

  test('mint from nothing: a genuine tap of a chip never enrolled enrols and mints it in one workflow', async () => {
    const uid = '04A1B2C3D4E5A0';
    const shapeBNew = await call(
      'POST',
      '/v1/dpp/mint',
      shapeBBody({
        chipUid: '04A1B2C3D4E5A1',
        material: 'Wool',
        customDppData: { conformity_url: CONFORMITY_URL },
      }),
    );
    assert.equal(shapeBNew.status, 404, 'shape B has no tap to prove an unknown chip with');
    assert.equal(shapeBNew.body.code, 'chip_not_found');

    const minted = await call('POST', '/v1/dpp/mint', shapeA(uid, tapUrl(uid, 5)));
    assert.equal(minted.status, 201, minted.text);
    const tokenId: string = minted.body.blockchain.tokenId;
    const inventory = await call('GET', '/v1/dpp/inventory');
    const item = inventory.body.inventory.find((i: { chipUid: string }) => i.chipUid === uid);
    assert.deepEqual(item, { tokenId, chipUid: uid, productId: null, material: null, status: 'ACTIVE' });
    const events = await stack.api.db.orm.em
      .fork()
      .execute<{ event_type: string }[]>(
        `select event_type from outbox_events where data->>'chipUid' = ? order by occurred_at, event_type`,
        [uid],
      );
    assert.deepEqual(
      events.map((e) => e.event_type),
      ['asset.initialized', 'asset.minted'],
    );
    assert.equal(await assertChainAgreesWithDatabase(stack, uid), tokenId);
    assert.equal(await stack.chain.chain.reader.tokenURI(tokenId), minted.body.blockchain.ipfsUrl);

    const other = await stack.api.createTenant('Other Brand');
    const elsewhere = await stack.api.call('POST', '/v1/dpp/mint', {
      key: other.testKey,
      body: shapeA(uid, tapUrl(uid, 6)),
    });
    assert.equal(elsewhere.status, 409);
    assert.equal(elsewhere.body.code, 'chip_enrolled_elsewhere');
  });

  test('the mint workflow is findable by its id and search attributes', async () => {
    const uid = '04A1B2C3D4E501';
    const handle = stack.temporal.client.workflow.getHandle(`mint:test:${uid}`);
    const description = await handle.describe();
    assert.equal(description.status.name, 'COMPLETED');
    const found = [];
    for await (const wf of stack.temporal.client.workflow.list({ query: `DppChipUid = '${uid}'` }))
      found.push(wf.workflowId);
    assert.deepEqual(found, [`mint:test:${uid}`]);
  });
});
