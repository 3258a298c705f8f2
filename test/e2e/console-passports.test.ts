import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { hashPassword } from '../../src/accounts/identity/passwords.ts';
import { freePort } from '../../src/platform/runtime/ports.ts';
import { RETRY_RECORDING_SIGNAL } from '../../src/processes/record-until-done.ts';
import type { TestTenant } from '../support/api.ts';
import { enrollAndMint, mintBody } from '../support/fixtures/mint.ts';
import { GTIN, OTHER_GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

const PASSWORD = 'passport people need long passwords';

/**
 * The console's Passports over HTTP: search (chip UID, token id, GTIN, batch, status) with keyset paging, one
 * passport's page, mint status and revocation, by the console session and by user tokens with each role;
 * another company's passports stay unseen.
 */
describe('passports for the console: search, one passport, mint status, revoke by role', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let other: TestTenant;
  let origin: string;
  const cookies: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  /** Token ids of the brand's passports by chip UID, and the other company's one. */
  const minted: Record<string, string> = {};
  let foreignToken: string;

  const as = (email: string, method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { body, headers: { cookie: cookies[email]!, origin } });
  const bearer = (email: string, method: string, path: string, body?: unknown) =>
    stack.api.call(method, path, { body, key: tokens[email]! });

  const addPerson = async (companyId: string, email: string, role: string) => {
    await stack.api.db.orm.em.fork().execute(
      `insert into users (company_id, email, password_hash, email_confirmed_at, role, created_at)
         values (?, ?, ?, now(), ?, now())`,
      [companyId, email, await hashPassword(PASSWORD), role],
    );
    const session = await stack.api.call('POST', '/v1/console/session', {
      body: { email, password: PASSWORD },
      headers: { origin },
    });
    assert.equal(session.status, 200, session.text);
    cookies[email] = session.headers.getSetCookie()[0]!.split(';')[0]!;
    const login = await stack.api.call('POST', '/v1/auth/login', { body: { email, password: PASSWORD } });
    assert.equal(login.status, 200, login.text);
    tokens[email] = login.body.token;
  };

  beforeAll(async () => {
    const port = await freePort();
    stack = await startTestStack({ mintWaitMs: 2000, apiEnv: { PORT: String(port) } });
    origin = `http://localhost:${port}`;
    brand = await stack.api.createTenant('Brand');
    other = await stack.api.createTenant('Other');
    const mint = (tenant: TestTenant, chipUid: string, custom: Record<string, unknown>) =>
      enrollAndMint(
        (method, path, body) =>
          stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) }),
        chipUid,
        custom,
      );
    minted['04A1000000AA01'] = await mint(brand, '04A1000000AA01', { batch_number: 'LOT-1' });
    minted['04A1000000AA02'] = await mint(brand, '04A1000000AA02', { batch_number: 'LOT-2' });
    minted['04A1000000AA03'] = await mint(brand, '04A1000000AA03', {
      gtin: OTHER_GTIN,
      batch_number: 'LOT-2',
    });
    foreignToken = await mint(other, '04B2000000BB01', { batch_number: 'LOT-1' });
    const logged = await stack.api.call('POST', '/v1/iaas/log-event', {
      key: brand.testKey,
      body: {
        tokenId: minted['04A1000000AA01'],
        action: 'EXPORT_CLEARED',
        locationName: 'Porto',
        latitude: 41.15,
        longitude: -8.61,
        metadata: {},
      },
    });
    assert.equal(logged.status, 201, logged.text);
    await stack.temporal.client.workflow.getHandle(`anchor-event:test:${logged.body.eventId}`).result();
    await addPerson(brand.companyId, 'owner@brand.example', 'owner');
    await addPerson(brand.companyId, 'dev@brand.example', 'developer');
    await addPerson(brand.companyId, 'viewer@brand.example', 'viewer');
    await addPerson(other.companyId, 'owner@other.example', 'owner');
  }, 180_000);
  afterAll(async () => {
    await stack?.close();
  });

  const search = async (query: string, who = 'viewer@brand.example') => {
    const res = await as(who, 'GET', `/v1/dpp/passports${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body as {
      passports: { tokenId: string; chipUid: string; status: string }[];
      nextCursor: string | null;
    };
  };
  const chipsOf = (page: { passports: { chipUid: string }[] }) => page.passports.map((p) => p.chipUid);

  test('a viewer searches by chip UID, token id, GTIN, batch and status; newest first', async () => {
    const all = await search('');
    assert.deepEqual(chipsOf(all), ['04A1000000AA03', '04A1000000AA02', '04A1000000AA01']);
    assert.equal(all.nextCursor, null);
    const first = all.passports[2] as Record<string, unknown>;
    assert.equal(first.tokenId, minted['04A1000000AA01']);
    assert.equal(first.gtin, GTIN);
    assert.equal(first.batch, 'LOT-1');
    assert.equal(first.name, 'Trail Jacket');
    assert.equal(first.status, 'ACTIVE');

    // A chip UID in lower case is the same chip.
    assert.deepEqual(chipsOf(await search('?chipUid=04a1000000aa02')), ['04A1000000AA02']);
    assert.deepEqual(chipsOf(await search(`?tokenId=${minted['04A1000000AA01']}`)), ['04A1000000AA01']);
    assert.deepEqual(chipsOf(await search(`?gtin=${OTHER_GTIN}`)), ['04A1000000AA03']);
    // A GTIN-13 is its GTIN-14.
    assert.deepEqual(chipsOf(await search(`?gtin=${OTHER_GTIN.slice(1)}`)), ['04A1000000AA03']);
    assert.deepEqual(chipsOf(await search('?batch=LOT-2')), ['04A1000000AA03', '04A1000000AA02']);
    assert.deepEqual(chipsOf(await search(`?batch=LOT-2&gtin=${GTIN}`)), ['04A1000000AA02']);
    assert.deepEqual(chipsOf(await search('?status=RECYCLED')), []);
    assert.equal((await search('?status=ACTIVE')).passports.length, 3);
    // The other company's passport, even by its own token id or batch, is not found.
    assert.deepEqual(chipsOf(await search(`?tokenId=${foreignToken}`)), []);
    assert.deepEqual(chipsOf(await search('?chipUid=04B2000000BB01')), []);
    assert.deepEqual(chipsOf(await search('?batch=LOT-1')), ['04A1000000AA01']);
    // An API key finds the same.
    const byKey = await stack.api.call('GET', '/v1/dpp/passports?batch=LOT-2', { key: brand.testKey });
    assert.equal(byKey.status, 200);
    assert.equal(byKey.body.passports.length, 2);
    // Live is another world.
    const live = await stack.api.call('GET', '/v1/dpp/passports', {
      env: 'live',
      headers: { cookie: cookies['viewer@brand.example']!, origin },
    });
    assert.equal(live.status, 200);
    assert.deepEqual(live.body.passports, []);
  });

  test('the OpenAPI document names the console session and user tokens on these operations', async () => {
    const document = (await stack.api.call('GET', '/openapi.json', { env: null })).body;
    for (const [path, method] of [
      ['/v1/dpp/passports', 'get'],
      ['/v1/dpp/passports/{tokenId}', 'get'],
      ['/v1/dpp/mint/{chipUid}', 'get'],
      ['/v1/dpp/mints', 'get'],
      ['/v1/dpp/revoke', 'post'],
    ] as const) {
      const operation = document.paths[path]?.[method];
      assert.ok(operation, `${method} ${path} documented`);
      assert.deepEqual(
        operation.security,
        [{ apiKey: [] }, { oauthClient: [] }, { userToken: [] }, { consoleSession: [] }],
        `${method} ${path}`,
      );
    }
    const search = document.paths['/v1/dpp/passports'].get.parameters
      .filter((p: { in: string }) => p.in === 'query')
      .map((p: { name: string }) => p.name);
    assert.deepEqual(search.sort(), ['after', 'batch', 'chipUid', 'gtin', 'limit', 'q', 'status', 'tokenId']);
  });

  test('keyset paging: one passport a page, following nextCursor, visits each once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await search(`?limit=1${cursor ? `&after=${cursor}` : ''}`);
      seen.push(...chipsOf(page));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    assert.deepEqual(seen, ['04A1000000AA03', '04A1000000AA02', '04A1000000AA01']);
    // With a filter too.
    const lot = await search('?batch=LOT-2&limit=1');
    assert.deepEqual(chipsOf(lot), ['04A1000000AA03']);
    assert.deepEqual(chipsOf(await search(`?batch=LOT-2&limit=1&after=${lot.nextCursor}`)), [
      '04A1000000AA02',
    ]);
  });

  test('bad input → 400 (never 500)', async () => {
    for (const query of [
      '?after=abc',
      '?after=0',
      '?after=-5',
      '?after=1.5',
      '?after=99999999999999999999',
      '?limit=0',
      '?limit=101',
      '?status=DELETED',
      '?gtin=00012345600013',
      '?gtin=abc',
      '?tokenId=0',
      '?tokenId=abc',
      '?chipUid=zz',
      '?batch=',
    ]) {
      const res = await as('viewer@brand.example', 'GET', `/v1/dpp/passports${query}`);
      assert.equal(res.status, 400, `${query}: ${res.text}`);
      assert.equal(res.headers.get('content-type')?.startsWith('application/problem+json'), true, query);
    }
    assert.equal((await as('viewer@brand.example', 'GET', '/v1/dpp/passports/abc')).status, 400);
  });

  test('one passport: facts, timeline with the mint transaction, taps, public links; another company’s → 404', async () => {
    const tokenId = minted['04A1000000AA01']!;
    const res = await as('viewer@brand.example', 'GET', `/v1/dpp/passports/${tokenId}`);
    assert.equal(res.status, 200, res.text);
    const passport = res.body.passport;
    assert.equal(passport.tokenId, tokenId);
    assert.equal(passport.chipUid, '04A1000000AA01');
    assert.equal(passport.batch, 'LOT-1');
    assert.equal(passport.status, 'ACTIVE');
    assert.match(passport.transactionHash, /^0x[0-9a-f]{64}$/);
    // The mint, then the logged event once anchored: each with its transaction.
    assert.deepEqual(
      passport.timeline.map((entry: { kind: string; action: string }) => [entry.kind, entry.action]),
      [
        ['minted', 'MINT'],
        ['event', 'EXPORT_CLEARED'],
      ],
    );
    assert.equal(passport.timeline[0].transactionHash, passport.transactionHash);
    assert.match(passport.timeline[1].transactionHash, /^0x[0-9a-f]{64}$/);
    assert.notEqual(passport.timeline[1].transactionHash, passport.transactionHash);
    assert.equal(passport.timeline[1].locationName, 'Porto');
    assert.equal(typeof passport.taps.count, 'number');
    assert.equal(
      passport.links.publicPage,
      `${stack.api.config.publicBaseUrl}/test/verify/01/${GTIN}/21/${tokenId}`,
    );
    // The credential link answers the W3C credential, publicly.
    const credential = await fetch(
      passport.links.credential.replace(stack.api.config.publicBaseUrl, stack.api.baseUrl),
    );
    assert.equal(credential.status, 200);
    assert.ok(((await credential.json()) as { type: string[] }).type.includes('VerifiableCredential'));

    const foreign = await as('viewer@brand.example', 'GET', `/v1/dpp/passports/${foreignToken}`);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'passport_not_found');
    assert.equal((await as('owner@other.example', 'GET', `/v1/dpp/passports/${foreignToken}`)).status, 200);
    // By API key and by user token too.
    assert.equal(
      (await stack.api.call('GET', `/v1/dpp/passports/${foreignToken}`, { key: brand.testKey })).status,
      404,
    );
    assert.equal((await bearer('viewer@brand.example', 'GET', `/v1/dpp/passports/${tokenId}`)).status, 200);
    // Without a credential: 401.
    assert.equal((await stack.api.call('GET', `/v1/dpp/passports/${tokenId}`)).status, 401);
  });

  test('mint status is readable by every role; another company’s mint → 404', async () => {
    const res = await as('viewer@brand.example', 'GET', '/v1/dpp/mint/04A1000000AA01');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'COMPLETED');
    assert.equal(res.body.result.blockchain.tokenId, minted['04A1000000AA01']);
    assert.equal((await as('viewer@brand.example', 'GET', '/v1/dpp/mint/04B2000000BB01')).status, 404);
    assert.equal((await bearer('viewer@brand.example', 'GET', '/v1/dpp/mint/04A1000000AA02')).status, 200);
  });

  test('revoke: a viewer is refused, a developer or owner revokes; another company’s → 404', async () => {
    const tokenId = minted['04A1000000AA02']!;
    const body = { tokenId, reason: 'Withdrawn from sale' };
    for (const refused of [
      await as('viewer@brand.example', 'POST', '/v1/dpp/revoke', body),
      await bearer('viewer@brand.example', 'POST', '/v1/dpp/revoke', body),
    ]) {
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body.code, 'role_forbidden');
    }
    // A forged cross-origin write with the owner's cookie is refused before the role counts.
    const forged = await stack.api.call('POST', '/v1/dpp/revoke', {
      body,
      headers: { cookie: cookies['owner@brand.example']!, origin: 'https://evil.example' },
    });
    assert.equal(forged.status, 403);
    assert.equal(forged.body.code, 'cross_origin_refused');
    assert.equal((await search(`?tokenId=${tokenId}`)).passports[0]!.status, 'ACTIVE', 'nothing revoked yet');

    const foreign = await as('owner@brand.example', 'POST', '/v1/dpp/revoke', {
      tokenId: foreignToken,
      reason: 'not ours',
    });
    assert.equal(foreign.status, 404);

    const revoked = await as('dev@brand.example', 'POST', '/v1/dpp/revoke', body);
    assert.equal(revoked.status, 200, revoked.text);
    assert.equal(revoked.body.alreadyRevoked, false);
    const again = await bearer('owner@brand.example', 'POST', '/v1/dpp/revoke', body);
    assert.equal(again.status, 200);
    assert.equal(again.body.alreadyRevoked, true);

    assert.deepEqual(chipsOf(await search('?status=REVOKED')), ['04A1000000AA02']);
    assert.deepEqual(chipsOf(await search('?status=ACTIVE')), ['04A1000000AA03', '04A1000000AA01']);
    const page = (await as('viewer@brand.example', 'GET', `/v1/dpp/passports/${tokenId}`)).body.passport;
    assert.equal(page.status, 'REVOKED');
    assert.equal(page.revocationReason, 'Withdrawn from sale');
    assert.deepEqual(
      page.timeline.map((entry: { kind: string }) => entry.kind),
      ['minted', 'revoked'],
    );
    // The other company's passport is untouched.
    assert.equal(
      (await as('owner@other.example', 'GET', `/v1/dpp/passports/${foreignToken}`)).body.passport.status,
      'ACTIVE',
    );
  });

  test('running mints: listed for their company with the operator’s attention, gone once recorded', async () => {
    const uid = '04A1000000AA0F';
    const sql = (query: string) => stack.api.db.orm.em.fork().execute(query);
    await sql(
      `alter table passports add constraint refuse_listed_chip check (chip_uid <> '${uid}') not valid`,
    );
    const key = { key: brand.testKey };
    assert.equal(
      (await stack.api.call('POST', '/v1/dpp/enroll', { ...key, body: { chipUid: uid } })).status,
      201,
    );
    const started = await stack.api.call('POST', '/v1/dpp/mint', {
      ...key,
      body: mintBody({ chipUid: uid }),
    });
    assert.equal(started.status, 202, started.text);
    type Listed = { chipUid: string; workflowId: string; attention: string | null };
    let listed: Listed[] = [];
    for (let i = 0; i < 150; i++) {
      const res = await as('viewer@brand.example', 'GET', '/v1/dpp/mints');
      assert.equal(res.status, 200, res.text);
      listed = res.body.mints;
      if (listed.some((mint) => mint.chipUid === uid && mint.attention === 'record_failed')) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.deepEqual(
      listed.map((mint) => [mint.chipUid, mint.workflowId, mint.attention]),
      [[uid, `mint:test:${uid}`, 'record_failed']],
    );
    // Not another company's, not the other environment's; an API key sees it too.
    assert.deepEqual((await as('owner@other.example', 'GET', '/v1/dpp/mints')).body.mints, []);
    const live = await stack.api.call('GET', '/v1/dpp/mints', {
      env: 'live',
      headers: { cookie: cookies['owner@brand.example']!, origin },
    });
    assert.deepEqual(live.body.mints, []);
    assert.equal((await stack.api.call('GET', '/v1/dpp/mints', key)).body.mints.length, 1);
    assert.equal((await stack.api.call('GET', '/v1/dpp/mints')).status, 401);

    await sql('alter table passports drop constraint refuse_listed_chip');
    const handle = stack.temporal.client.workflow.getHandle(`mint:test:${uid}`);
    await handle.signal(RETRY_RECORDING_SIGNAL);
    await handle.result();
    for (let i = 0; i < 100 && listed.length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      listed = (await as('viewer@brand.example', 'GET', '/v1/dpp/mints')).body.mints;
    }
    assert.deepEqual(listed, [], 'a recorded mint is no longer running');
    assert.deepEqual(chipsOf(await search(`?chipUid=${uid}`)), [uid]);
  });
});
