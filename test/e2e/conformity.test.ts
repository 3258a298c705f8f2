import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { ESPR_CONFORMITY_PREFIX } from '../../src/lifecycle/mint/mint-request.ts';
import { searchAttributePairs } from '../../src/processes/search-attributes.ts';
import { taskQueueFor } from '../../src/processes/task-queues.ts';
import type { mintPassport } from '../../workflows/mint.ts';
import type { TestTenant } from '../support/api.ts';
import { shapeBBody } from '../support/fixtures/mint.ts';
import { GTIN, MERINO_KNIT } from '../support/fixtures/products.ts';
import { sunTap, verifyChipBody } from '../support/fixtures/sun.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

const OWN_DOC = 'https://acme.example/doc/merino-jumper.pdf';
const DEFAULT_DOC = 'https://acme.example/doc/company-default.pdf';

// The spec's state table: "POST /v1/dpp/mint — valid SUN payload, conformity_url present, chip not already
// minted". Every way onto the chain needs the declaration of conformity, not only mint shape A.
describe('no passport goes on chain without a declaration of conformity (mint shape B, toolbox bind)', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  const call = (method: string, path: string, body?: unknown, key = tenant.testKey) =>
    stack.api.call(method, path, { key, ...(body === undefined ? {} : { body }) });
  const sql = <T>(query: string, params: unknown[] = []) =>
    stack.api.db.orm.em.fork().execute<T[]>(query, params);

  /** Enrols a chip and shows one genuine tap, as shape B needs. */
  async function verifiedChip(uid: string, key = tenant.testKey) {
    assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: uid }, key)).status, 201);
    const verified = await call('POST', '/v1/dpp/verify-chip', verifyChipBody(uid, 1), key);
    assert.equal(verified.body.authentic, true);
  }

  /** The passport's custom_dpp_data as the ERP representation shows it. */
  async function customDppData(tokenId: string, key = tenant.testKey) {
    const erp = await call('GET', `/01/${GTIN}/21/${tokenId}?format=erp`, undefined, key);
    assert.equal(erp.status, 200, erp.text);
    return erp.body.productData.metadataCache.custom_dpp_data as Record<string, unknown>;
  }

  const shapeB = (chipUid: string, customDppData: Record<string, unknown> = {}) =>
    shapeBBody({ chipUid, customDppData: { ...MERINO_KNIT.customDppData, ...customDppData } });

  function assertEspr400(answer: { status: number; body: { code: string; detail: string } }) {
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.equal(answer.body.code, 'conformity_required');
    assert.ok(answer.body.detail.startsWith(ESPR_CONFORMITY_PREFIX), answer.body.detail);
  }

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.api.createTenant('Acme Apparel');
  });
  afterAll(() => stack.close());

  test('shape B without conformity_url and without a company default: 400 ESPR, nothing started or minted', async () => {
    const uid = '04C0F0000000B1';
    await verifiedChip(uid);
    const before = await stack.chain.chain.reader.totalMinted();
    const refused = await call('POST', '/v1/dpp/mint', shapeB(uid));
    assertEspr400(refused);
    assert.equal(refused.body.errors[0].path, 'body.customDppData.conformity_url');
    assert.match(refused.body.detail, /customDppData\.conformity_url/);
    assert.match(refused.body.detail, /defaultConformityUrl/);
    assert.equal((await call('GET', `/v1/dpp/mint/${uid}`)).body.code, 'mint_not_found');
    assert.equal(await stack.chain.chain.reader.totalMinted(), before, 'nothing reached the chain');

    // Its own link mints, and the passport carries it.
    const minted = await call('POST', '/v1/dpp/mint', shapeB(uid, { conformity_url: OWN_DOC }));
    assert.equal(minted.status, 201, minted.text);
    assert.equal((await customDppData(minted.body.tokenId)).conformity_url, OWN_DOC);
  });

  test('the company default (per environment) stands in for a shape-B mint without its own link', async () => {
    const defaults = await call('GET', '/v1/company/settings');
    assert.equal(defaults.status, 200, defaults.text);
    assert.deepEqual(defaults.body, {
      success: true,
      settings: {
        defaultConformityUrl: null,
        warrantyMonths: 24,
        economicOperatorId: null,
        facilityId: null,
      },
    });
    const notHttp = await call('PATCH', '/v1/company/settings', {
      defaultConformityUrl: 'ftp://x.example/d',
    });
    assert.equal(notHttp.status, 400);
    assert.equal(notHttp.body.errors[0].path, 'body.defaultConformityUrl');
    const set = await call('PATCH', '/v1/company/settings', { defaultConformityUrl: DEFAULT_DOC });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(set.body.settings, {
      defaultConformityUrl: DEFAULT_DOC,
      warrantyMonths: 24,
      economicOperatorId: null,
      facilityId: null,
    });
    const live = await stack.api.call('GET', '/v1/company/settings', { key: tenant.liveKey, env: 'live' });
    assert.equal(live.status, 200, live.text);
    assert.equal(
      live.body.settings.defaultConformityUrl,
      null,
      'the test key changed the test settings only',
    );

    const uid = '04C0F0000000B2';
    await verifiedChip(uid);
    const minted = await call('POST', '/v1/dpp/mint', shapeB(uid));
    assert.equal(minted.status, 201, minted.text);
    assert.equal((await customDppData(minted.body.tokenId)).conformity_url, DEFAULT_DOC);
    // A request's own link wins over the default.
    const own = '04C0F0000000B3';
    await verifiedChip(own);
    const ownMinted = await call('POST', '/v1/dpp/mint', shapeB(own, { conformity_url: OWN_DOC }));
    assert.equal(ownMinted.status, 201, ownMinted.text);
    assert.equal((await customDppData(ownMinted.body.tokenId)).conformity_url, OWN_DOC);

    const cleared = await call('PATCH', '/v1/company/settings', { defaultConformityUrl: null });
    assert.equal(cleared.body.settings.defaultConformityUrl, null);
    const again = '04C0F0000000B4';
    await verifiedChip(again);
    assertEspr400(await call('POST', '/v1/dpp/mint', shapeB(again)));
  });

  test('toolbox bind (shape B) without a company default: 400 ESPR before anything is bound; with it, minted with it', async () => {
    const brand = await stack.api.createTenant('Bind Brand');
    const bcall = (method: string, path: string, body?: unknown) => call(method, path, body, brand.testKey);
    const toolbox = generateKeyPairSync('ed25519');
    const registered = await bcall('POST', '/v1/factory/toolbox-keys', {
      name: 'Line 1',
      publicKey: toolbox.publicKey.export({ format: 'jwk' }),
    });
    assert.equal(registered.status, 201, registered.text);
    const provisioned = await bcall('POST', '/v1/erp/provision', {
      gtin: GTIN,
      metadata: { name: 'Trail Jacket' },
    });
    const id: string = provisioned.body.service_internal_id;
    const uid = '04C0F0000000C1';
    await verifiedChip(uid, brand.testKey);
    const signature = sign(null, Buffer.from(`${id}:${uid}`), toolbox.privateKey).toString('hex');
    const before = await stack.chain.chain.reader.totalMinted();

    const refused = await bcall('POST', '/v1/factory/bind', { internalId: id, chipUid: uid, signature });
    assertEspr400(refused);
    assert.match(refused.body.detail, /defaultConformityUrl/);
    const [twin] = await sql<{ status: string; chip_uid: string | null }>(
      'select status, chip_uid from asset_twins where service_internal_id = ?',
      [id],
    );
    assert.deepEqual(twin, { status: 'INACTIVE', chip_uid: null }, 'the twin stays unbound');
    assert.equal(await stack.chain.chain.reader.totalMinted(), before, 'nothing reached the chain');

    await bcall('PATCH', '/v1/company/settings', { defaultConformityUrl: DEFAULT_DOC });
    const bound = await bcall('POST', '/v1/factory/bind', { internalId: id, chipUid: uid, signature });
    assert.equal(bound.status, 201, bound.text);
    const custom = await customDppData(bound.body.tokenId, brand.testKey);
    assert.equal(custom.conformity_url, DEFAULT_DOC);
    assert.equal(custom.service_internal_id, id);

    // A repeated bind answers the token it minted, even once the default is gone (nothing is minted again).
    await bcall('PATCH', '/v1/company/settings', { defaultConformityUrl: null });
    const again = await bcall('POST', '/v1/factory/bind', { internalId: id, chipUid: uid, signature });
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.tokenId, bound.body.tokenId);
  });

  test('a twin provisioned with its own conformity_url (single or bulk) binds and mints with it, no default needed', async () => {
    const brand = await stack.api.createTenant('Twin Brand');
    const bcall = (method: string, path: string, body?: unknown) => call(method, path, body, brand.testKey);
    const toolbox = generateKeyPairSync('ed25519');
    await bcall('POST', '/v1/factory/toolbox-keys', {
      name: 'Line 1',
      publicKey: toolbox.publicKey.export({ format: 'jwk' }),
    });
    const single = await bcall('POST', '/v1/erp/provision', {
      gtin: GTIN,
      metadata: { name: 'Trail Jacket', conformity_url: OWN_DOC },
    });
    assert.equal(single.status, 201, single.text);
    const bulk = await bcall('POST', '/v1/erp/provision/bulk', {
      items: [
        { erp_metadata: { material_number: 'MAT-1', order_id: 'PO-1', conformity_url: DEFAULT_DOC } },
        { erp_metadata: { material_number: 'MAT-2', order_id: 'PO-1' } },
      ],
    });
    assert.equal(bulk.status, 201, bulk.text);
    const notHttp = await bcall('POST', '/v1/erp/provision', {
      erp_metadata: { material_number: 'MAT-3', order_id: 'PO-1', conformity_url: 'javascript:alert(1)' },
    });
    assert.equal(notHttp.status, 400);
    assert.equal(notHttp.body.errors[0].path, 'body.erp_metadata.conformity_url');

    const cases = [
      { id: single.body.service_internal_id as string, uid: '04C0F0000000E1', doc: OWN_DOC },
      { id: bulk.body.items[0].service_internal_id as string, uid: '04C0F0000000E2', doc: DEFAULT_DOC },
    ];
    for (const { id, uid, doc } of cases) {
      await verifiedChip(uid, brand.testKey);
      const signature = sign(null, Buffer.from(`${id}:${uid}`), toolbox.privateKey).toString('hex');
      const bound = await bcall('POST', '/v1/factory/bind', { internalId: id, chipUid: uid, signature });
      assert.equal(bound.status, 201, bound.text);
      // (The bulk twin has no GTIN, so no Digital Link: read the recorded metadata.)
      const [passport] = await sql<{ metadata_cache: { custom_dpp_data: Record<string, unknown> } }>(
        'select metadata_cache from passports where company_id = ? and token_id = ?',
        [brand.companyId, bound.body.tokenId],
      );
      assert.equal(passport!.metadata_cache.custom_dpp_data.conformity_url, doc);
    }
    // The bulk twin without a link (and no company default) is refused like any bind without one.
    const bare = bulk.body.items[1].service_internal_id as string;
    const uid = '04C0F0000000E3';
    await verifiedChip(uid, brand.testKey);
    const signature = sign(null, Buffer.from(`${bare}:${uid}`), toolbox.privateKey).toString('hex');
    assertEspr400(await bcall('POST', '/v1/factory/bind', { internalId: bare, chipUid: uid, signature }));
  });

  test('a mint workflow started without the link (not through the API) fails before anything reaches the chain', async () => {
    const uid = '04C0F0000000D1';
    assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: uid })).status, 201);
    const before = await stack.chain.chain.reader.totalMinted();
    const tap = sunTap(uid, 1);
    const handle = await stack.temporal.client.workflow.start<typeof mintPassport>('mintPassport', {
      workflowId: `mint:test:${uid}`,
      taskQueue: taskQueueFor(stack.api.config.temporal.taskQueuePrefix, 'test'),
      typedSearchAttributes: searchAttributePairs({ environment: 'test', company: tenant.companyId }),
      args: [
        {
          scope: { companyId: tenant.companyId, environment: 'test' },
          chipUid: uid,
          product: {
            name: 'No declaration',
            description: '',
            image: null,
            gtin: GTIN,
            material: null,
            productId: null,
            customDppData: { gtin: GTIN },
          },
          sun: { piccData: tap.piccData, cmac: tap.cmac },
          nfc: { cmac: tap.cmac, urlPath: null, piccData: tap.piccData },
          reference: `mint:test:${uid}`,
        },
      ],
    });
    await assert.rejects(handle.result(), (error: unknown) => {
      assert.ok(error instanceof WorkflowFailedError);
      assert.ok(
        String(error.cause?.message).startsWith(ESPR_CONFORMITY_PREFIX),
        String(error.cause?.message),
      );
      return true;
    });
    assert.equal(await stack.chain.chain.reader.totalMinted(), before, 'nothing was minted');
    assert.equal(await stack.chain.chain.reader.findTokenByChip(uid), null);
    const status = await call('GET', `/v1/dpp/mint/${uid}`);
    assert.equal(status.body.status, 'FAILED');
    assert.equal(status.body.error.code, 'conformity_required');
  });
});
