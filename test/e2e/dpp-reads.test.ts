import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import canonicalizeModule from 'canonicalize';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { loadPassportContent } from '../../src/passport/record/passport-versions.ts';
import type { TestTenant } from '../support/api.ts';
import { EN_18223_MANDATORY_HEADER } from '../support/en-18223-header.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN, RECYCLING_SITE } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

// EN 18222 reads, EN 18223 header and passport versions, over HTTP against the whole stack.

const PRODUCT = 'urn:dpp-service:content-specification:product:1.0';
const OPERATOR = 'urn:dpp-service:content-specification:product-operator:1.0';
// The mandatory EN 18223 members, and the two optional ones this service always sends.
const HEADER = [...EN_18223_MANDATORY_HEADER, 'facilityId', 'contentSpecificationIds'];
// A GLN with its GS1 check digit (5); the same with 6 is refused below.
const GLN = '4000001000005';
const EORI = 'DE123456789012345';

type Canonicalize = (value: unknown) => string | undefined;
// A CommonJS module: its export is the function (typed as a module with a default export).
const canonicalize: Canonicalize =
  typeof canonicalizeModule === 'function'
    ? (canonicalizeModule as Canonicalize)
    : (canonicalizeModule as unknown as { default: Canonicalize }).default;

/** SHA-256 (hex) of the RFC 8785 form, computed with a third party's canonicalizer, not the service's. */
const sha256 = (value: unknown) =>
  createHash('sha256')
    .update(canonicalize(value) as string, 'utf8')
    .digest('hex');

describe('EN 18222 reads, EN 18223 header and passport versions', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let other: TestTenant;
  const call = (method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  /** A consumer: no credential, no environment header; test passports under /test. */
  const anonymous = (path: string, method = 'GET', body?: unknown) =>
    stack.api.call(method, `/test${path}`, { env: null, key: null, ...(body === undefined ? {} : { body }) });
  const owner = (path: string) => stack.api.call('GET', `/test${path}`, { env: null, key: tenant.testKey });
  const stranger = (path: string) => stack.api.call('GET', `/test${path}`, { env: null, key: other.testKey });
  const event = (action: string, locationName = 'Port of Hamburg') => ({
    action,
    locationName,
    latitude: 53.546,
    longitude: 9.9661,
    metadata: { container: 'MSKU1234565' },
    actorEmail: 'jane.doe@logistics.example.com',
  });
  const anchorOf = (tokenId: string) => `${stack.api.config.publicBaseUrl}/test/01/${GTIN}/21/${tokenId}`;
  const dppIdOf = async (tokenId: string): Promise<string> => {
    const answer = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, {
      env: null,
      key: null,
    });
    assert.equal(answer.status, 200, answer.text);
    return answer.body.dppHeader.digitalProductPassportId;
  };
  const path = (dppId: string, rest = '') => `/v1/dpps/${encodeURIComponent(dppId)}${rest}`;
  const versionsOf = async (dppId: string) => {
    const answer = await owner(path(dppId, '/versions'));
    assert.equal(answer.status, 200, answer.text);
    return answer.body.items as { number: number; sha256: string; publicSha256: string; createdAt: string }[];
  };

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.api.createTenant('Acme Apparel');
    other = await stack.api.createTenant('Other Brand');
  });
  afterAll(() => stack.close());

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
    const live = await stack.api.call('GET', '/v1/company/settings', { env: 'live', key: tenant.liveKey });
    assert.equal(live.body.settings.economicOperatorId, null, 'live settings are their own');
  });

  test('the header in the public and ERP representations; every write makes a version with a recomputable hash', async () => {
    const tokenId = await enrollAndMint(call, '04D1D2D3D4D501');
    const dppId = await dppIdOf(tokenId);
    assert.match(dppId, /^urn:uuid:[0-9a-f-]{36}$/);

    const publicView = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, {
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
    const erp = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=erp`, {
      env: null,
      key: tenant.testKey,
    });
    assert.equal(erp.status, 200, erp.text);
    assert.deepEqual(erp.body.dppHeader, header);

    // Version 1 (the mint): its time is the header's lastUpdated; its hashes are over what it holds.
    let versions = await versionsOf(dppId);
    assert.equal(versions.length, 1);
    assert.equal(versions[0]!.createdAt, header.lastUpdated);
    const first = await owner(path(dppId, '/versions/1'));
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.sha256, sha256(first.body.dpp));
    assert.equal(versions[0]!.sha256, first.body.sha256);
    assert.deepEqual(
      first.body.dpp[PRODUCT].events.map((e: { action: string }) => e.action),
      ['MINT'],
    );
    const firstPublic = await anonymous(path(dppId, '/versions/1'));
    assert.equal(firstPublic.body.sha256, undefined, 'the whole content’s hash is the owner’s');
    assert.equal(firstPublic.body.publicSha256, sha256(firstPublic.body.dpp));
    assert.equal(firstPublic.body.dpp[OPERATOR], undefined);

    // Two events, a revocation (twice), a settings change: versions 2, 3, 4, 5; the repeat adds none.
    for (const action of ['SHIPPED', 'DELIVERED']) {
      assert.equal((await call('POST', '/v1/iaas/log-event', { tokenId, ...event(action) })).status, 201);
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
      const version = await owner(path(dppId, `/versions/${summary.number}`));
      assert.equal(sha256(version.body.dpp), summary.sha256, `version ${summary.number}`);
      assert.equal(sha256({ ...version.body.dpp, [OPERATOR]: undefined }), summary.publicSha256);
      assert.equal(version.body.dpp.lastUpdated, summary.createdAt);
    }
    const fourth = await owner(path(dppId, '/versions/4'));
    assert.equal(fourth.body.dpp.dppStatus, 'suspended');
    assert.equal(fourth.body.dpp[PRODUCT].status, 'REVOKED');
    assert.equal(fourth.body.dpp[OPERATOR].revocationReason, 'Withdrawn from sale');
    assert.deepEqual(
      fourth.body.dpp[PRODUCT].events.map((e: { action: string }) => e.action),
      ['MINT', 'SHIPPED', 'DELIVERED'],
    );
    assert.equal(fourth.body.dpp[OPERATOR].events[1].actorEmail, 'j***@l***.com', 'masked in versions too');
    // Earlier versions stay as they were.
    assert.deepEqual((await owner(path(dppId, '/versions/1'))).body, first.body);

    // The current document is the latest version, for the owner whole, for anyone else its public part.
    const current = await owner(path(dppId));
    assert.equal(current.status, 200, current.text);
    assert.deepEqual(current.body, fourth.body.dpp);
    const anonymousView = await anonymous(path(dppId));
    assert.equal(anonymousView.status, 200, anonymousView.text);
    assert.equal(anonymousView.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual(Object.keys(anonymousView.body).sort(), [...HEADER, PRODUCT].sort());
    assert.equal(sha256(anonymousView.body), fourth.body.publicSha256);
    assert.deepEqual(
      (await stranger(path(dppId))).body,
      anonymousView.body,
      'another company sees the public part',
    );
    const publicAfter = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, {
      env: null,
      key: null,
    });
    assert.equal(publicAfter.body.dppHeader.dppStatus, 'suspended');
    assert.equal(publicAfter.body.dppHeader.lastUpdated, versions[3]!.createdAt);

    // A changed header setting is published content too: the next read records it as a new version.
    assert.equal((await call('PATCH', '/v1/company/settings', { economicOperatorId: EORI })).status, 200);
    const changed = await anonymous(path(dppId));
    assert.equal(changed.body.economicOperatorId, EORI);
    assert.deepEqual(
      (await versionsOf(dppId)).map((v) => v.number),
      [1, 2, 3, 4, 5],
    );
    assert.equal((await owner(path(dppId, '/versions/4'))).body.dpp.economicOperatorId, GLN);
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
    const activeDoc = await anonymous(path(await dppIdOf(active)));
    assert.equal(activeDoc.body.dppStatus, 'active');
    const recycledId = await dppIdOf(recycled);
    const recycledDoc = await owner(path(recycledId));
    assert.equal(recycledDoc.body.dppStatus, 'archived');
    assert.equal(recycledDoc.body[PRODUCT].status, 'RECYCLED');
    assert.equal(recycledDoc.body[OPERATOR].lockedDeposit, '0.0');
    const versions = await versionsOf(recycledId);
    assert.deepEqual(
      versions.map((v) => v.number),
      [1, 2],
      'mint, then the recycle',
    );
    assert.equal((await owner(path(recycledId, '/versions/1'))).body.dpp.dppStatus, 'active');
  });

  test('reads by product id, many at once, test and live kept apart', async () => {
    const a = await enrollAndMint(call, '04D1D2D3D4D504');
    const b = await enrollAndMint(call, '04D1D2D3D4D505');
    const [idA, idB] = [await dppIdOf(a), await dppIdOf(b)];
    const byProduct = await anonymous(`/v1/dppsByProductId/${encodeURIComponent(anchorOf(a))}`);
    assert.equal(byProduct.status, 200, byProduct.text);
    assert.equal(byProduct.body.digitalProductPassportId, idA);
    assert.deepEqual(byProduct.body, (await anonymous(path(idA))).body);
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
    const live = await stack.api.call('GET', `/v1/dppsByProductId/${encodeURIComponent(anchorOf(a))}`, {
      env: null,
      key: null,
    });
    assert.equal(live.status, 404);
    assert.equal(live.headers.get('content-type'), 'application/problem+json');
    assert.equal(live.body.code, 'dpp_not_found');
    for (const wrong of ['not a uri', `${stack.api.config.publicBaseUrl}/test/01/${GTIN}/21/99999`]) {
      const missing = await anonymous(`/v1/dppsByProductId/${encodeURIComponent(wrong)}`);
      assert.equal(missing.status, 404, wrong);
      assert.equal(missing.body.code, 'dpp_not_found');
    }

    const unknown = `${stack.api.config.publicBaseUrl}/test/01/${GTIN}/21/99999`;
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
    assert.equal((await call('POST', '/v1/iaas/log-event', { tokenId, ...event('SHIPPED') })).status, 201);
    const dppId = await dppIdOf(tokenId);
    const element = (elementPath: string, query = '') =>
      path(dppId, `/elements/${encodeURIComponent(elementPath)}${query}`);

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
    const badKey = await stack.api.call('GET', `/test${path(dppId)}`, { env: null, key: 'dpp_test_nope' });
    assert.equal(badKey.status, 401);

    const problems: [string, number, string][] = [
      [path('not-a-dpp-id'), 400, 'invalid_dpp_id'],
      [path('urn:uuid:00000000-0000-4000-8000-000000000000'), 404, 'dpp_not_found'],
      [path(dppId, '/versions/999'), 404, 'version_not_found'],
      [path(dppId, '/versions/zero'), 400, 'validation_failed'],
      [path(dppId, '/versions/0'), 400, 'validation_failed'],
      [`${path(dppId)}?representation=expanded`, 400, 'validation_failed'],
      [path(dppId, '/versions?limit=0'), 400, 'validation_failed'],
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
        stack.api.call(method, p, { key: other.testKey, ...(body === undefined ? {} : { body }) }),
      '04D1D2D3D4D507',
    );
    const otherId = await dppIdOf(otherPassport);
    const nullFacility = await anonymous(
      path(otherId, `/elements/${encodeURIComponent("$['facilityId']")}?representation=full`),
    );
    assert.equal(nullFacility.status, 404);
    const nullCompressed = await anonymous(
      path(otherId, `/elements/${encodeURIComponent("$['facilityId']")}`),
    );
    assert.equal(nullCompressed.status, 200);
    assert.equal(nullCompressed.text, 'null');
  });

  test('concurrent writes number their versions without gaps or duplicates', async () => {
    const tokenId = await enrollAndMint(call, '04D1D2D3D4D508');
    const actions = ['QC_PASSED', 'EXPORT_CLEARED', 'IMPORT_CLEARED', 'CUSTOMS_CLEARED', 'SHIPPED'];
    const answers = await Promise.all(
      actions.map((action) => call('POST', '/v1/iaas/log-event', { tokenId, ...event(action) })),
    );
    for (const answer of answers) assert.equal(answer.status, 201, answer.text);
    const dppId = await dppIdOf(tokenId);
    const versions = await versionsOf(dppId);
    assert.deepEqual(
      versions.map((v) => v.number),
      [1, 2, 3, 4, 5, 6],
    );
    const latest = await owner(path(dppId, '/versions/6'));
    assert.equal(latest.body.dpp[PRODUCT].events.length, 6, 'the last version holds every event');
    const counts = await Promise.all(
      versions.map(
        async (v) => (await owner(path(dppId, `/versions/${v.number}`))).body.dpp[PRODUCT].events.length,
      ),
    );
    assert.deepEqual(counts, [1, 2, 3, 4, 5, 6], 'each version adds exactly one event');
  });

  test('a passport with hundreds of events is read with a fixed number of statements', async () => {
    const tokenId = await enrollAndMint(call, '04D1D2D3D4D509');
    const sql = stack.api.db.orm.em.getConnection();
    await sql.execute(
      `insert into supply_chain_events (company_id, environment, token_id, action, actor, location_name, latitude,
         longitude, metadata, timestamp)
       select ?, 'test', ?, 'SHIPPED', 'Acme Apparel', 'Hub ' || n, 50 + n / 1000.0, 8, jsonb_build_object('n', n),
         now() - interval '1 day' + n * interval '1 second'
       from generate_series(1, 400) as n`,
      [tenant.companyId, tokenId],
    );
    // Statements sent while the content is loaded: the same two whatever the number of events.
    let statements = 0;
    const em = stack.api.db.orm.em.fork();
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
    const answer = await owner(path(dppId));
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
