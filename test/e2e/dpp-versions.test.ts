import assert from 'node:assert/strict';
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { loadPassportContent } from '../../src/passport/record/passport-versions.ts';
import { sha256 } from '../support/canonical-sha256.ts';
import { EN_18223_LEVEL_LINKS, EN_18223_MANDATORY_HEADER } from '../support/en-18223-header.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN, RECYCLING_SITE } from '../support/fixtures/products.ts';
import {
  type DppWorld,
  dppPath,
  dppReaders,
  OPERATOR,
  PRODUCT,
  shippingEvent,
  startDppWorld,
} from './fixtures/dpp-reads.ts';

// The EN 18223 header and passport versions, over HTTP against the whole stack (the reads: dpp-reads.test.ts).

// The mandatory EN 18223 members, and the two optional ones this service always sends.
// An item's links to its batch and model passports are in every item's header (null: none).
const HEADER = [
  ...EN_18223_MANDATORY_HEADER,
  'facilityId',
  'contentSpecificationIds',
  ...EN_18223_LEVEL_LINKS,
];
// A GLN with its GS1 check digit (5); the same with 6 is refused below.
const GLN = '4000001000005';
const EORI = 'DE123456789012345';

describe('EN 18222 reads, EN 18223 header and passport versions', () => {
  const world = {} as DppWorld;
  const { call, anonymous, owner, stranger, anchorOf, dppIdOf, versionsOf } = dppReaders(world);

  beforeAll(async () => {
    Object.assign(world, await startDppWorld());
  });
  afterAll(() => world.stack.close());

  test('company settings: economic operator (GLN check digit, EORI format) and facility, per environment', async () => {
    for (const bad of ['4000001000006', '400000100000', 'de123456789', 'DE1234567890123456', 'acme']) {
      const refused = await call('PATCH', '/v1/company/settings', { economicOperatorId: bad });
      assert.equal(refused.status, 400, bad);
      assert.equal(refused.headers.get('content-type'), 'application/problem+json');
    }
    const badFacility = await call('PATCH', '/v1/company/settings', { facilityId: 'Plant 4' });
    assert.equal(badFacility.status, 400);
    const eori = await call('PATCH', '/v1/company/settings', { economicOperatorId: EORI });
    assert.equal(eori.status, 200, eori.text);
    assert.equal(eori.body.settings.economicOperatorId, EORI);
    const set = await call('PATCH', '/v1/company/settings', {
      economicOperatorId: GLN,
      facilityId: 'urn:epc:id:sgln:4000001.00001.0',
    });
    assert.equal(set.status, 200, set.text);
    const read = await call('GET', '/v1/company/settings');
    assert.equal(read.body.settings.economicOperatorId, GLN);
    assert.equal(read.body.settings.facilityId, 'urn:epc:id:sgln:4000001.00001.0');
    assert.equal(read.body.settings.warrantyMonths, 24, 'other members stay');
    const live = await world.stack.api.call('GET', '/v1/company/settings', {
      env: 'live',
      key: world.tenant.liveKey,
    });
    assert.equal(live.body.settings.economicOperatorId, null, 'live settings are their own');
  });

  test('the header in the public and ERP representations; every write makes a version with a recomputable hash', async () => {
    const tokenId = await enrollAndMint(call, '04D1D2D3D4D501');
    const dppId = await dppIdOf(tokenId);
    assert.match(dppId, /^urn:uuid:[0-9a-f-]{36}$/);

    const publicView = await world.stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, {
      env: null,
      key: null,
    });
    const header = publicView.body.dppHeader;
    assert.deepEqual(Object.keys(header).sort(), [...HEADER].sort());
    assert.equal(header.uniqueProductIdentifier, anchorOf(tokenId));
    assert.equal(
      header.uniqueProductIdentifier,
      publicView.body['@id'],
      'the Digital Link the resolver serves',
    );
    assert.equal(header.granularity, 'item');
    assert.equal(header.dppStatus, 'active');
    assert.equal(header.dppSchemaVersion, '1.0.0');
    assert.equal(header.economicOperatorId, GLN);
    assert.equal(header.facilityId, 'urn:epc:id:sgln:4000001.00001.0');
    assert.deepEqual(header.contentSpecificationIds, [PRODUCT, OPERATOR]);
    const erp = await world.stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=erp`, {
      env: null,
      key: world.tenant.testKey,
    });
    assert.equal(erp.status, 200, erp.text);
    assert.deepEqual(erp.body.dppHeader, header);

    // Version 1 (the mint): its time is the header's lastUpdated; its hashes are over what it holds.
    let versions = await versionsOf(dppId);
    assert.equal(versions.length, 1);
    assert.equal(versions[0]!.createdAt, header.lastUpdated);
    const first = await owner(dppPath(dppId, '/versions/1'));
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.sha256, sha256(first.body.dpp));
    assert.equal(versions[0]!.sha256, first.body.sha256);
    assert.deepEqual(
      first.body.dpp[PRODUCT].events.map((e: { action: string }) => e.action),
      ['MINT'],
    );
    const firstPublic = await anonymous(dppPath(dppId, '/versions/1'));
    assert.equal(firstPublic.body.sha256, undefined, 'the whole content’s hash is the owner’s');
    assert.equal(firstPublic.body.publicSha256, sha256(firstPublic.body.dpp));
    assert.equal(firstPublic.body.dpp[OPERATOR], undefined);

    // Two events, a revocation (twice), a settings change: versions 2, 3, 4, 5; the repeat adds none.
    for (const action of ['SHIPPED', 'DELIVERED']) {
      assert.equal(
        (await call('POST', '/v1/iaas/log-event', { tokenId, ...shippingEvent(action) })).status,
        201,
      );
    }
    const revoked = await call('POST', '/v1/dpp/revoke', { tokenId, reason: 'Withdrawn from sale' });
    assert.equal(revoked.status, 200, revoked.text);
    assert.equal(
      (await call('POST', '/v1/dpp/revoke', { tokenId, reason: 'again' })).body.alreadyRevoked,
      true,
    );
    versions = await versionsOf(dppId);
    assert.deepEqual(
      versions.map((v) => v.number),
      [1, 2, 3, 4],
    );
    for (let i = 1; i < versions.length; i++) {
      assert.ok(versions[i]!.createdAt > versions[i - 1]!.createdAt, 'versions are in time order');
    }
    for (const summary of versions) {
      const version = await owner(dppPath(dppId, `/versions/${summary.number}`));
      assert.equal(sha256(version.body.dpp), summary.sha256, `version ${summary.number}`);
      assert.equal(sha256({ ...version.body.dpp, [OPERATOR]: undefined }), summary.publicSha256);
      assert.equal(version.body.dpp.lastUpdated, summary.createdAt);
    }
    const fourth = await owner(dppPath(dppId, '/versions/4'));
    assert.equal(fourth.body.dpp.dppStatus, 'suspended');
    assert.equal(fourth.body.dpp[PRODUCT].status, 'REVOKED');
    assert.equal(fourth.body.dpp[OPERATOR].revocationReason, 'Withdrawn from sale');
    assert.deepEqual(
      fourth.body.dpp[PRODUCT].events.map((e: { action: string }) => e.action),
      ['MINT', 'SHIPPED', 'DELIVERED'],
    );
    assert.equal(fourth.body.dpp[OPERATOR].events[1].actorEmail, 'j***@l***.com', 'masked in versions too');
    // Earlier versions stay as they were.
    assert.deepEqual((await owner(dppPath(dppId, '/versions/1'))).body, first.body);

    // The current document is the latest version, for the owner whole, for anyone else its public part.
    const current = await owner(dppPath(dppId));
    assert.equal(current.status, 200, current.text);
    assert.deepEqual(current.body, fourth.body.dpp);
    const anonymousView = await anonymous(dppPath(dppId));
    assert.equal(anonymousView.status, 200, anonymousView.text);
    assert.equal(anonymousView.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual(Object.keys(anonymousView.body).sort(), [...HEADER, PRODUCT].sort());
    assert.equal(sha256(anonymousView.body), fourth.body.publicSha256);
    assert.deepEqual(
      (await stranger(dppPath(dppId))).body,
      anonymousView.body,
      'another company sees the public part',
    );
    const publicAfter = await world.stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, {
      env: null,
      key: null,
    });
    assert.equal(publicAfter.body.dppHeader.dppStatus, 'suspended');
    assert.equal(publicAfter.body.dppHeader.lastUpdated, versions[3]!.createdAt);

    // A changed header setting is published content too: the next read records it as a new version.
    assert.equal((await call('PATCH', '/v1/company/settings', { economicOperatorId: EORI })).status, 200);
    const changed = await anonymous(dppPath(dppId));
    assert.equal(changed.body.economicOperatorId, EORI);
    assert.deepEqual(
      (await versionsOf(dppId)).map((v) => v.number),
      [1, 2, 3, 4, 5],
    );
    assert.equal((await owner(dppPath(dppId, '/versions/4'))).body.dpp.economicOperatorId, GLN);
    assert.deepEqual((await versionsOf(dppId)).length, 5, 'reading again records nothing');
    assert.equal((await call('PATCH', '/v1/company/settings', { economicOperatorId: GLN })).status, 200);

    // By date: before the mint nothing, at version 2's time version 2.
    const before = await anonymous(
      `/v1/dppsByIdAndDate/${encodeURIComponent(dppId)}?date=2020-01-01T00:00:00Z`,
    );
    assert.equal(before.status, 404);
    const atSecond = await anonymous(
      `/v1/dppsByIdAndDate/${encodeURIComponent(dppId)}?date=${encodeURIComponent(versions[1]!.createdAt)}`,
    );
    assert.equal(atSecond.status, 200, atSecond.text);
    assert.equal(atSecond.body.number, 2);
  });

  test('header status per state: active, suspended (revoked), archived (recycled)', async () => {
    const active = await enrollAndMint(call, '04D1D2D3D4D502');
    const recycled = await enrollAndMint(call, '04D1D2D3D4D503');
    const answer = await call('POST', '/v1/iaas/log-recycle', { tokenId: recycled, ...RECYCLING_SITE });
    assert.equal(answer.status, 201, answer.text);
    const activeDoc = await anonymous(dppPath(await dppIdOf(active)));
    assert.equal(activeDoc.body.dppStatus, 'active');
    const recycledId = await dppIdOf(recycled);
    const recycledDoc = await owner(dppPath(recycledId));
    assert.equal(recycledDoc.body.dppStatus, 'archived');
    assert.equal(recycledDoc.body[PRODUCT].status, 'RECYCLED');
    assert.equal(recycledDoc.body[OPERATOR].lockedDeposit, '0.0');
    const versions = await versionsOf(recycledId);
    assert.deepEqual(
      versions.map((v) => v.number),
      [1, 2],
      'mint, then the recycle',
    );
    assert.equal((await owner(dppPath(recycledId, '/versions/1'))).body.dpp.dppStatus, 'active');
  });

  test('concurrent writes number their versions without gaps or duplicates', async () => {
    const tokenId = await enrollAndMint(call, '04D1D2D3D4D508');
    const actions = ['QC_PASSED', 'EXPORT_CLEARED', 'IMPORT_CLEARED', 'CUSTOMS_CLEARED', 'SHIPPED'];
    const answers = await Promise.all(
      actions.map((action) => call('POST', '/v1/iaas/log-event', { tokenId, ...shippingEvent(action) })),
    );
    for (const answer of answers) assert.equal(answer.status, 201, answer.text);
    const dppId = await dppIdOf(tokenId);
    const versions = await versionsOf(dppId);
    assert.deepEqual(
      versions.map((v) => v.number),
      [1, 2, 3, 4, 5, 6],
    );
    const latest = await owner(dppPath(dppId, '/versions/6'));
    assert.equal(latest.body.dpp[PRODUCT].events.length, 6, 'the last version holds every event');
    const counts = await Promise.all(
      versions.map(
        async (v) => (await owner(dppPath(dppId, `/versions/${v.number}`))).body.dpp[PRODUCT].events.length,
      ),
    );
    assert.deepEqual(counts, [1, 2, 3, 4, 5, 6], 'each version adds exactly one event');
  });

  test('a passport with hundreds of events is read with a fixed number of statements', async () => {
    const tokenId = await enrollAndMint(call, '04D1D2D3D4D509');
    const sql = world.stack.api.db.orm.em.getConnection();
    await sql.execute(
      `insert into supply_chain_events (company_id, environment, token_id, action, actor, location_name, latitude,
         longitude, metadata, timestamp)
       select ?, 'test', ?, 'SHIPPED', 'Acme Apparel', 'Hub ' || n, 50 + n / 1000.0, 8, jsonb_build_object('n', n),
         now() - interval '1 day' + n * interval '1 second'
       from generate_series(1, 400) as n`,
      [world.tenant.companyId, tokenId],
    );
    // Statements sent while the content is loaded: the same two whatever the number of events.
    let statements = 0;
    const em = world.stack.api.db.orm.em.fork();
    const counting = new Proxy(em, {
      get(target, property, receiver) {
        if (property === 'execute') {
          return (...args: unknown[]) => {
            statements++;
            return (target.execute as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return Reflect.get(target, property, receiver);
      },
    }) as EntityManager;
    const [row] = (await sql.execute('select id from passports where token_id = ? and environment = ?', [
      tokenId,
      'test',
    ])) as { id: number }[];
    const facts = await loadPassportContent(counting, row!.id);
    assert.equal(facts!.events.length, 401);
    assert.equal(statements, 2);

    const dppId = await dppIdOf(tokenId);
    const answer = await owner(dppPath(dppId));
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body[PRODUCT].events.length, 401);
    const versions = await versionsOf(dppId);
    assert.equal(
      versions.length,
      2,
      'the events written behind the service’s back are recorded at the next read',
    );
    assert.equal(sha256(answer.body), versions[1]!.sha256);
  });
});
