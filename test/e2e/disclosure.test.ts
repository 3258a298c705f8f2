import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createConsoleSession } from '../../src/accounts/identity/console-sessions.ts';
import { signUserToken } from '../../src/accounts/identity/user-token.ts';
import { userTokenKeysOf } from '../../src/accounts/identity/user-token-keys.ts';
import { BATTERY_1_0_0 } from '../../src/passport/content/battery/battery-1.0.0.ts';
import { fieldPattern, ROLES, type Role } from '../../src/passport/content/disclosure.ts';
import { registerAuthority } from '../../src/passport/disclosure/grants.ts';
import { FACTORY_DEFAULT_KEY, generateSun } from '../../src/standards/sun/index.ts';
import { fullBatteryData } from '../fixtures/battery-passport-data.ts';
import type { TestTenant } from '../support/api.ts';
import { enrollAndMint } from '../support/fixtures/mint.ts';
import { GTIN } from '../support/fixtures/products.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

const V1 = 'urn:dpp-service:spec:battery:1.0.0';
const CHIP = '04D15C105E0001';
const keys = { metaReadKey: FACTORY_DEFAULT_KEY, fileReadKey: FACTORY_DEFAULT_KEY };

/** Every leaf's JSON pointer in a value (an array of scalars is one leaf, as in the policy). */
function leafPointers(value: unknown, pointer = ''): string[] {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([name, child]) => leafPointers(child, `${pointer}/${name}`));
  }
  if (Array.isArray(value) && value.some((item) => typeof item === 'object' && item !== null)) {
    return value.flatMap((item, index) => leafPointers(item, `${pointer}/${index}`));
  }
  return [pointer];
}

function leafValue(data: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((node, segment) => (node as Record<string, unknown>)[segment], data);
}

const DATA = fullBatteryData() as unknown as Record<string, unknown>;
const ALL_LEAVES = leafPointers(DATA);

/** The leaves a caller holding `roles` reads: those whose policy names one of them. */
const readableBy = (roles: readonly Role[]) =>
  ALL_LEAVES.filter((pointer) =>
    BATTERY_1_0_0.policy[fieldPattern(pointer)]!.roles.some((role) => roles.includes(role)),
  ).sort();

/**
 * The values of the leaves `roles` may not read that no readable leaf shares (so finding one in an answer can
 * only mean the restricted field leaked), as the strings a serialisation would hold.
 */
function secretsFor(roles: readonly Role[]): string[] {
  const readable = new Set(readableBy(roles));
  const shown = new Set(
    [...readable].flatMap((pointer) => [leafValue(DATA, pointer)].flat().map((value) => String(value))),
  );
  return ALL_LEAVES.filter((pointer) => !readable.has(pointer))
    .flatMap((pointer) => [leafValue(DATA, pointer)].flat().map((value) => String(value)))
    .filter((value) => value.length >= 4 && !shown.has(value) && ![...shown].some((s) => s.includes(value)));
}

/**
 * Who may see what, enforced by the server (issue 25 item 1, docs/disclosure.md): a battery passport with the
 * full data model, read by each audience through every representation that serialises its battery data; each
 * answer holds exactly the fields the audience's roles read.
 */
describe('disclosure: every field of the battery model × every role × every representation', () => {
  let stack: TestStack;
  let brand: TestTenant;
  let repairer: TestTenant;
  let recycler: TestTenant;
  let authority: TestTenant;
  let notifiedBody: TestTenant;
  let stranger: TestTenant;
  let dppId: string;
  let tokenId: string;
  let counter = 1;
  const grants: Record<string, string> = {};

  const contentPath = () => `/v1/dpps/${encodeURIComponent(dppId)}/content/${encodeURIComponent(V1)}`;
  const freshTap = () => {
    counter += 1;
    const sun = generateSun({ uid: CHIP, counter, keys });
    return `picc_data=${sun.piccData}&cmac=${sun.cmac}`;
  };

  /** How each audience proves itself on a request: a credential, a fresh tap's query, or nothing. */
  type Audience = { name: string; roles: Role[]; key?: () => string; tap?: true };
  const audiences = (): Audience[] => [
    { name: 'public (no credential)', roles: ['public'] },
    { name: 'customer (fresh tap)', roles: ['public', 'customer'], tap: true },
    { name: 'repairer (granted)', roles: ['public', 'repairer'], key: () => repairer.testKey },
    { name: 'recycler (granted)', roles: ['public', 'recycler'], key: () => recycler.testKey },
    { name: 'authority (register)', roles: ['public', 'authority'], key: () => authority.testKey },
    { name: 'notified body (granted)', roles: ['public', 'notifiedBody'], key: () => notifiedBody.testKey },
    { name: 'another company, no grant', roles: ['public'], key: () => stranger.testKey },
    { name: 'the brand (operator)', roles: [...ROLES], key: () => brand.testKey },
  ];

  /** GET as an audience; a tap audience's query carries a fresh SUN message each time. */
  const read = (audience: Audience, path: string) => {
    const query = audience.tap ? freshTap() : '';
    const target = query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path;
    return stack.api.call('GET', target, { key: audience.key?.() ?? null });
  };

  beforeAll(async () => {
    stack = await startTestStack();
    brand = await stack.api.createTenant('Voltaic Cells');
    repairer = await stack.api.createTenant('Fix It Garage');
    recycler = await stack.api.createTenant('Black Mass Recycling');
    authority = await stack.api.createTenant('Market Surveillance Authority');
    notifiedBody = await stack.api.createTenant('Notified Body 0123');
    stranger = await stack.api.createTenant('Someone Else');
    const asBrand = (method: string, path: string, body?: unknown) =>
      stack.api.call(method, path, { key: brand.testKey, ...(body === undefined ? {} : { body }) });
    tokenId = await enrollAndMint(asBrand, CHIP, { manufacturer_name: 'Voltaic Cells SE' });
    const view = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=public`, { env: null });
    dppId = view.body.dppHeader.digitalProductPassportId;
    assert.equal((await asBrand('PUT', contentPath(), DATA)).status, 201);
    for (const [tenant, role] of [
      [repairer, 'repairer'],
      [recycler, 'recycler'],
      [notifiedBody, 'notifiedBody'],
    ] as const) {
      const granted = await asBrand('POST', '/v1/disclosure-grants', {
        granteeCompanyId: tenant.companyId,
        role,
      });
      assert.equal(granted.status, 201, granted.text);
      grants[role] = granted.body.grant.id;
    }
    // The operator's register (npm run cli -- authority:grant <companyId>).
    assert.equal(await registerAuthority(stack.api.db.orm.em.fork(), authority.companyId, 'MSA'), true);
  }, 600_000);
  afterAll(async () => {
    await stack?.close();
  });

  test('the policy names a role for every field of the model (else the table below proves nothing)', () => {
    for (const pointer of ALL_LEAVES) assert.ok(BATTERY_1_0_0.policy[fieldPattern(pointer)], pointer);
    assert.equal(readableBy([...ROLES]).length, ALL_LEAVES.length);
  });

  test.each(audiences().map((audience) => [audience.name, audience] as const))(
    'GET /v1/dpps/{dppId}/content/{specId} as %s: exactly the fields its roles read',
    async (_name, audience) => {
      const answer = await read(audience, contentPath());
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(leafPointers(answer.body.data).sort(), readableBy(audience.roles));
      assert.deepEqual([...answer.body.roles].sort(), [...audience.roles].sort());
      for (const secret of secretsFor(audience.roles)) {
        assert.ok(!answer.text.includes(secret), `${secret} served to ${audience.name}`);
      }
      if (audience.tap) assert.equal(answer.body.tap, 'authentic');
    },
  );

  test.each(audiences().map((audience) => [audience.name, audience] as const))(
    '?format=aas as %s: only the battery submodels and elements its roles read',
    async (_name, audience) => {
      const answer = await read(audience, `${contentPath()}?format=aas`);
      assert.equal(answer.status, 200, answer.text);
      for (const secret of secretsFor(audience.roles)) {
        assert.ok(!answer.text.includes(secret), `${secret} served to ${audience.name}`);
      }
      const idShorts = answer.body.submodels.map((s: Json) => s.idShort);
      // A battery submodel is served only whole (as the AAS API serves it, docs/aas-api.md): its template's
      // mandatory elements need every tier the submodel is built from. Nameplate holds the test reports (tier
      // 3), Circularity dismantling and safety (tier 2), Product Condition the use data (tier 4); Technical
      // Data and Carbon Footprint are tier 1 (Technical Data's optional CapacityFade is cut for others).
      const holds = (...roles: string[]) => audience.roles.some((role) => roles.includes(role));
      const expected = {
        BatteryNameplate: holds('authority', 'notifiedBody'),
        BatteryTechnicalData: true,
        BatteryCarbonFootprint: true,
        BatteryProductCondition: holds('customer', 'repairer', 'recycler', 'authority'),
        BatteryCircularity: holds('repairer', 'recycler', 'authority', 'notifiedBody'),
      };
      for (const [idShort, served] of Object.entries(expected)) {
        assert.equal(idShorts.includes(idShort), served, `${idShort} in ${idShorts.join(', ')}`);
      }
      // The shell lists exactly the submodels served.
      assert.equal(answer.body.assetAdministrationShells[0].submodels.length, answer.body.submodels.length);
      const testReport = DATA.conformityAndLabels as { testReportsProvingCompliance: string[] };
      assert.equal(
        answer.text.includes(testReport.testReportsProvingCompliance[0]!),
        expected.BatteryNameplate,
      );
    },
  );

  test.each(audiences().map((audience) => [audience.name, audience] as const))(
    'EN 18222 reads (compressed, full, element by path) as %s: no field its roles do not read',
    async (_name, audience) => {
      const path = `/v1/dpps/${encodeURIComponent(dppId)}`;
      for (const representation of ['compressed', 'full']) {
        const answer = await read(audience, `${path}?representation=${representation}`);
        assert.equal(answer.status, 200, answer.text);
        for (const secret of secretsFor(audience.roles)) {
          assert.ok(
            !answer.text.includes(secret),
            `${secret} served to ${audience.name} (${representation})`,
          );
        }
        if (representation === 'compressed') {
          assert.deepEqual(leafPointers(answer.body[V1]).sort(), readableBy(audience.roles));
        }
      }
      const document = await read(audience, path);
      assert.ok(document.body[V1], 'the battery section is in the EN 18222 document');
      const element = `$['${V1}']['conformityAndLabels']['testReportsProvingCompliance']`;
      const answer = await read(audience, `${path}/elements/${encodeURIComponent(element)}`);
      const reads = audience.roles.includes('authority') || audience.roles.includes('notifiedBody');
      if (reads) {
        assert.equal(answer.status, 200, answer.text);
      } else {
        assert.equal(answer.status, audience.key ? 403 : 401, answer.text);
        assert.ok(!answer.text.includes('report-ul-1973'), answer.text);
      }
    },
  );

  test('the public view and the verification page are the public’s: exactly the public fields, whoever asks', async () => {
    // (A tapped URL on the resolver is a tap: it redirects to the verification page, tested elsewhere.)
    for (const audience of audiences().filter((a) => !a.tap)) {
      const view = await read(audience, `/test/01/${GTIN}/21/${tokenId}?format=public`);
      assert.equal(view.status, 200, view.text);
      assert.deepEqual(leafPointers(view.body.productGroupData[V1]).sort(), readableBy(['public']));
      for (const secret of secretsFor(['public'])) {
        assert.ok(!view.text.includes(secret), `${secret} in the public view (${audience.name})`);
      }
    }
    const page = await stack.api.call('GET', `/test/verify/01/${GTIN}/21/${tokenId}`, { env: null });
    assert.equal(page.status, 200, page.text);
    assert.match(page.text, /id="product-group-0"/);
    const publicValues = readableBy(['public']).flatMap((pointer) => [leafValue(DATA, pointer)].flat());
    for (const value of publicValues.map(String).filter((v) => /^[\w .-]+$/.test(v))) {
      assert.ok(page.text.includes(value), `public value ${value} on the page`);
    }
    for (const secret of secretsFor(['public'])) {
      assert.ok(!page.text.includes(secret), `${secret} on the verification page`);
    }
  });

  test('the ERP view is the brand’s: every field; nobody else reads it', async () => {
    const erp = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=erp`, {
      env: null,
      key: brand.testKey,
    });
    assert.equal(erp.status, 200, erp.text);
    assert.deepEqual(leafPointers(erp.body.productGroupData[V1]).sort(), readableBy([...ROLES]));
    for (const audience of audiences().filter((a) => a.key && a.name !== 'the brand (operator)')) {
      const refused = await stack.api.call('GET', `/test/01/${GTIN}/21/${tokenId}?format=erp`, {
        env: null,
        key: audience.key!(),
      });
      assert.equal(refused.status, 403, `${audience.name}: ${refused.text}`);
      assert.ok(!refused.text.includes('Voltaic'), refused.text);
    }
  });

  test('OpenAPI: the reads take anonymous callers or a credential; the grants a credential', async () => {
    const doc = (await stack.api.call('GET', '/openapi.json', { env: null })).body;
    const content = doc.paths['/v1/dpps/{dppId}/content/{specId}'].get;
    assert.deepEqual(content.security, [
      {},
      { apiKey: [] },
      { oauthClient: [] },
      { userToken: [] },
      { consoleSession: [] },
    ]);
    assert.deepEqual(doc.paths['/v1/dpps/{dppId}'].get.security, content.security);
    for (const [path, method] of [
      ['/v1/disclosure-grants', 'post'],
      ['/v1/disclosure-grants', 'get'],
      ['/v1/disclosure-grants/{id}', 'delete'],
    ] as const) {
      const operation = doc.paths[path][method];
      assert.ok(operation, `${method} ${path}`);
      assert.ok(
        operation.security.some((s: Json) => 'apiKey' in s),
        `${method} ${path}: ${JSON.stringify(operation.security)}`,
      );
      assert.ok(!operation.security.some((s: Json) => Object.keys(s).length === 0), 'never anonymous');
    }
    assert.deepEqual(
      doc.paths['/v1/disclosure-grants'].post.requestBody.content['application/json'].schema.properties.role
        .enum,
      ['repairer', 'recycler', 'notifiedBody'],
    );
  });

  test('a grantee’s OAuth client token and its people’s user tokens hold the role too', async () => {
    const client = await stack.api.call('POST', '/v1/auth/oauth/clients', {
      key: recycler.testKey,
      body: { name: 'Plant system' },
    });
    assert.equal(client.status, 201, client.text);
    const token = await stack.api.call('POST', '/v1/auth/oauth/token', {
      body: {
        grant_type: 'client_credentials',
        client_id: client.body.client.clientId,
        client_secret: client.body.clientSecret,
      },
    });
    assert.equal(token.status, 200, token.text);
    const byOauth = await stack.api.call('GET', contentPath(), { key: token.body.access_token });
    assert.equal(byOauth.status, 200, byOauth.text);
    assert.deepEqual(byOauth.body.roles, ['public', 'recycler']);
    assert.deepEqual(leafPointers(byOauth.body.data).sort(), readableBy(['public', 'recycler']));
    const person = async (companyId: string, email: string, role: string) => {
      const [row] = await stack.api.db.orm.em
        .fork()
        .execute<{ id: number }[]>(
          'insert into users (company_id, email, role) values (?, ?, ?) returning id',
          [companyId, email, role],
        );
      return {
        id: row!.id,
        token: signUserToken(userTokenKeysOf(stack.api.config), {
          userId: row!.id,
          email,
          companyId,
          environment: 'test',
        }),
      };
    };
    const dismantler = await person(recycler.companyId, 'dismantler@black-mass.example', 'viewer');
    const userToken = dismantler.token;
    const byUser = await stack.api.call('GET', `/v1/dpps/${encodeURIComponent(dppId)}`, { key: userToken });
    assert.equal(byUser.status, 200, byUser.text);
    assert.deepEqual(leafPointers(byUser.body[V1]).sort(), readableBy(['public', 'recycler']));
    const content = await stack.api.call('GET', contentPath(), { key: userToken });
    assert.deepEqual(content.body.roles, ['public', 'recycler']);
    // Removed from the recycler's team: the token (valid until it expires) no longer carries the role.
    await stack.api.db.orm.em.fork().execute('delete from users where id = ?', [dismantler.id]);
    const removed = await stack.api.call('GET', contentPath(), { key: userToken });
    assert.deepEqual(removed.body.roles, ['public']);
    // At the brand, only owners grant; every role lists.
    const viewer = await person(brand.companyId, 'viewer@voltaic.example', 'viewer');
    const refused = await stack.api.call('POST', '/v1/disclosure-grants', {
      key: viewer.token,
      body: { granteeCompanyId: stranger.companyId, role: 'repairer' },
    });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.code, 'role_forbidden');
    const listed = await stack.api.call('GET', '/v1/disclosure-grants', { key: viewer.token });
    assert.equal(listed.status, 200, listed.text);
    // The brand's own people read everything.
    const own = await stack.api.call('GET', contentPath(), { key: viewer.token });
    assert.deepEqual(leafPointers(own.body.data).sort(), readableBy([...ROLES]));
  });

  test('the console’s session cookie: the brand’s people read everything when the call names the environment', async () => {
    const em = stack.api.db.orm.em.fork();
    const [row] = await em.execute<{ id: number }[]>(
      "insert into users (company_id, email, role) values (?, 'engineer@voltaic.example', 'developer') returning id",
      [brand.companyId],
    );
    const { secret } = await createConsoleSession(em, row!.id);
    const cookie = { cookie: `dpp_console=${secret}` };
    const viaConsole = await stack.api.call('GET', contentPath(), { headers: cookie });
    assert.equal(viaConsole.status, 200, viaConsole.text);
    assert.deepEqual(leafPointers(viaConsole.body.data).sort(), readableBy([...ROLES]));
    // A page the browser opens (no x-service-env): the public's answer, cookie or not.
    const opened = await stack.api.call('GET', `/test${contentPath()}`, { env: null, headers: cookie });
    assert.equal(opened.status, 200, opened.text);
    assert.deepEqual(opened.body.roles, ['public']);
    // An ended session is refused, not downgraded.
    const ended = await stack.api.call('GET', contentPath(), {
      headers: { cookie: 'dpp_console=dpp_cs_gone' },
    });
    assert.equal(ended.status, 401, ended.text);
  });

  test('a replayed tap unlocks nothing; the next fresh tap does, once', async () => {
    const tap = freshTap();
    const first = await stack.api.call('GET', `${contentPath()}?${tap}`, { key: null });
    assert.equal(first.body.tap, 'authentic', first.text);
    assert.ok(first.body.data.performanceAndDurability.batteryCondition, 'use data for the owner’s tap');
    const replayed = await stack.api.call('GET', `${contentPath()}?${tap}`, { key: null });
    assert.equal(replayed.status, 200, replayed.text);
    assert.equal(replayed.body.tap, 'replayed');
    assert.deepEqual(replayed.body.roles, ['public']);
    assert.deepEqual(leafPointers(replayed.body.data).sort(), readableBy(['public']));
    // An older counter than the last one seen is a replay too.
    const old = generateSun({ uid: CHIP, counter: 2, keys });
    const older = await stack.api.call('GET', `${contentPath()}?picc_data=${old.piccData}&cmac=${old.cmac}`, {
      key: null,
    });
    assert.equal(older.body.tap, 'replayed', older.text);
    assert.equal(older.body.data.performanceAndDurability?.batteryCondition, undefined);
    // A forged signature: no customer either.
    const forged = await stack.api.call(
      'GET',
      `${contentPath()}?picc_data=${'0'.repeat(32)}&cmac=${'0'.repeat(16)}`,
      {
        key: null,
      },
    );
    assert.equal(forged.status, 200, forged.text);
    assert.notEqual(forged.body.tap, 'authentic');
    assert.deepEqual(forged.body.roles, ['public']);
  });

  test('grants API: owner only, idempotent, listed, revoked → the grantee reads only public data', async () => {
    const asBrand = (method: string, path: string, body?: unknown) =>
      stack.api.call(method, path, { key: brand.testKey, ...(body === undefined ? {} : { body }) });
    const again = await asBrand('POST', '/v1/disclosure-grants', {
      granteeCompanyId: repairer.companyId,
      role: 'repairer',
    });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.grant.id, grants.repairer);
    const list = await asBrand('GET', '/v1/disclosure-grants');
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.grants.map((g: Json) => `${g.role} ${g.granteeCompanyId}`).sort(),
      [
        `notifiedBody ${notifiedBody.companyId}`,
        `recycler ${recycler.companyId}`,
        `repairer ${repairer.companyId}`,
      ].sort(),
    );
    // The grantee does not see the brand's grants, and cannot revoke them; it sees what it received.
    const theirs = await stack.api.call('GET', '/v1/disclosure-grants', { key: repairer.testKey });
    assert.deepEqual(theirs.body.grants, []);
    const received = await stack.api.call('GET', '/v1/disclosure-grants/received', { key: repairer.testKey });
    assert.equal(received.status, 200, received.text);
    assert.deepEqual(
      received.body.grants.map((g: Json) => [g.role, g.brandCompanyId, g.brandName]),
      [['repairer', brand.companyId, 'Voltaic Cells']],
    );
    const strangerReceived = await stack.api.call('GET', '/v1/disclosure-grants/received', {
      key: stranger.testKey,
    });
    assert.deepEqual(strangerReceived.body.grants, []);
    const notTheirs = await stack.api.call('DELETE', `/v1/disclosure-grants/${grants.repairer}`, {
      key: repairer.testKey,
    });
    assert.equal(notTheirs.status, 404, notTheirs.text);
    // Refusals: to oneself, to no company, a role that is not granted by brands, no credential.
    const self = await asBrand('POST', '/v1/disclosure-grants', {
      granteeCompanyId: brand.companyId,
      role: 'recycler',
    });
    assert.equal(self.status, 400, self.text);
    assert.equal(self.body.code, 'grant_to_self');
    const nobody = await asBrand('POST', '/v1/disclosure-grants', {
      granteeCompanyId: '00000000-0000-4000-8000-000000000000',
      role: 'recycler',
    });
    assert.equal(nobody.status, 404, nobody.text);
    for (const role of ['authority', 'customer', 'public']) {
      const refused = await asBrand('POST', '/v1/disclosure-grants', {
        granteeCompanyId: stranger.companyId,
        role,
      });
      assert.equal(refused.status, 400, `${role}: ${refused.text}`);
    }
    const anonymous = await stack.api.call('GET', '/v1/disclosure-grants', { key: null });
    assert.equal(anonymous.status, 401, anonymous.text);
    // A grant in the test environment is not one in live.
    const live = await stack.api.call('GET', '/v1/disclosure-grants', { key: brand.liveKey, env: 'live' });
    assert.deepEqual(live.body.grants, []);

    const repairerRead = async () =>
      (await stack.api.call('GET', contentPath(), { key: repairer.testKey })).body;
    assert.ok((await repairerRead()).data.circularity.sparePartSources);
    const revoked = await asBrand('DELETE', `/v1/disclosure-grants/${grants.repairer}`);
    assert.equal(revoked.status, 204, revoked.text);
    const after = await repairerRead();
    assert.deepEqual(after.roles, ['public']);
    const receivedAfter = await stack.api.call('GET', '/v1/disclosure-grants/received', {
      key: repairer.testKey,
    });
    assert.deepEqual(receivedAfter.body.grants, []);
    assert.deepEqual(leafPointers(after.data).sort(), readableBy(['public']));
    const twice = await asBrand('DELETE', `/v1/disclosure-grants/${grants.repairer}`);
    assert.equal(twice.status, 404, twice.text);
    // Granted again: a new grant, read again.
    const regrant = await asBrand('POST', '/v1/disclosure-grants', {
      granteeCompanyId: repairer.companyId,
      role: 'repairer',
    });
    assert.equal(regrant.status, 201, regrant.text);
    assert.notEqual(regrant.body.grant.id, grants.repairer);
    assert.deepEqual((await repairerRead()).roles, ['public', 'repairer']);
    grants.repairer = regrant.body.grant.id;
  });

  test('the register through the operator CLI: off it → public only, back on → authority; a credential that is not valid is refused, not downgraded', async () => {
    const cli = (...args: string[]) =>
      promisify(execFile)('sh', ['scripts/node24.sh', 'scripts/cli.ts', ...args], {
        env: { ...process.env, DATABASE_URL: stack.api.db.url, LOG_LEVEL: 'warn' },
      });
    assert.match((await cli('authority:list')).stdout, new RegExp(authority.companyId));
    assert.match((await cli('authority:revoke', authority.companyId)).stdout, /^removed/);
    assert.doesNotMatch((await cli('authority:list')).stdout, new RegExp(authority.companyId));
    const answer = await stack.api.call('GET', contentPath(), { key: authority.testKey });
    assert.deepEqual(answer.body.roles, ['public']);
    assert.deepEqual(leafPointers(answer.body.data).sort(), readableBy(['public']));
    assert.match((await cli('authority:grant', authority.companyId, '--note', 'MSA')).stdout, /^registered/);
    assert.deepEqual((await stack.api.call('GET', contentPath(), { key: authority.testKey })).body.roles, [
      'public',
      'authority',
    ]);
    await assert.rejects(cli('authority:grant', 'not-a-company'), /needs a company id/);
    const bad = await stack.api.call('GET', contentPath(), { key: 'dpp_test_not_a_key' });
    assert.equal(bad.status, 401, bad.text);
    // A grantee's live key reads the test passport as nobody special (environments are separate).
    const otherEnv = await stack.api.call('GET', contentPath(), { key: repairer.liveKey, env: 'live' });
    assert.equal(otherEnv.status, 404, otherEnv.text);
  });
});
