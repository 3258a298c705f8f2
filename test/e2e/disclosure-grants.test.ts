import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createConsoleSession } from '../../src/accounts/identity/console-sessions.ts';
import { signUserToken } from '../../src/accounts/identity/user-token.ts';
import { userTokenKeysOf } from '../../src/accounts/identity/user-token-keys.ts';
import { ROLES } from '../../src/passport/content/disclosure.ts';
import {
  type DisclosedBattery,
  leafPointers,
  readableBy,
  startDisclosedBattery,
} from '../support/battery-disclosure.ts';
import { contentPath as contentOf, BATTERY_V1 as V1 } from '../support/fixtures/battery.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON as served
type Json = any;

const CHIP = '04D15C105E0001';

/**
 * Who holds a disclosure role (docs/disclosure.md): grants from the brand, the authorities' register, and every
 * kind of credential a grantee's systems and people sign in with; the battery passport of disclosure.test.ts.
 */
describe('disclosure: every field of the battery model × every role × every representation', () => {
  const world = {} as DisclosedBattery;
  const contentPath = () => contentOf(world.dppId);

  beforeAll(async () => {
    Object.assign(world, await startDisclosedBattery(CHIP));
  }, 600_000);
  afterAll(async () => {
    await world.stack?.close();
  });

  test('OpenAPI: the reads take anonymous callers or a credential; the grants a credential', async () => {
    const doc = (await world.stack.api.call('GET', '/openapi.json', { env: null })).body;
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
    const client = await world.stack.api.call('POST', '/v1/auth/oauth/clients', {
      key: world.recycler.testKey,
      body: { name: 'Plant system' },
    });
    assert.equal(client.status, 201, client.text);
    const token = await world.stack.api.call('POST', '/v1/auth/oauth/token', {
      body: {
        grant_type: 'client_credentials',
        client_id: client.body.client.clientId,
        client_secret: client.body.clientSecret,
      },
    });
    assert.equal(token.status, 200, token.text);
    const byOauth = await world.stack.api.call('GET', contentPath(), { key: token.body.access_token });
    assert.equal(byOauth.status, 200, byOauth.text);
    assert.deepEqual(byOauth.body.roles, ['public', 'recycler']);
    assert.deepEqual(leafPointers(byOauth.body.data).sort(), readableBy(['public', 'recycler']));
    const person = async (companyId: string, email: string, role: string) => {
      const [row] = await world.stack.api.db.orm.em
        .fork()
        .execute<{ id: number }[]>(
          'insert into users (company_id, email, role) values (?, ?, ?) returning id',
          [companyId, email, role],
        );
      return {
        id: row!.id,
        token: signUserToken(userTokenKeysOf(world.stack.api.config), {
          userId: row!.id,
          email,
          companyId,
          environment: 'test',
        }),
      };
    };
    const dismantler = await person(world.recycler.companyId, 'dismantler@black-mass.example', 'viewer');
    const userToken = dismantler.token;
    const byUser = await world.stack.api.call('GET', `/v1/dpps/${encodeURIComponent(world.dppId)}`, {
      key: userToken,
    });
    assert.equal(byUser.status, 200, byUser.text);
    assert.deepEqual(leafPointers(byUser.body[V1]).sort(), readableBy(['public', 'recycler']));
    const content = await world.stack.api.call('GET', contentPath(), { key: userToken });
    assert.deepEqual(content.body.roles, ['public', 'recycler']);
    // Removed from the recycler's team: the token (valid until it expires) no longer carries the role.
    await world.stack.api.db.orm.em.fork().execute('delete from users where id = ?', [dismantler.id]);
    const removed = await world.stack.api.call('GET', contentPath(), { key: userToken });
    assert.deepEqual(removed.body.roles, ['public']);
    // At the brand, only owners grant; every role lists.
    const viewer = await person(world.brand.companyId, 'viewer@voltaic.example', 'viewer');
    const refused = await world.stack.api.call('POST', '/v1/disclosure-grants', {
      key: viewer.token,
      body: { granteeCompanyId: world.stranger.companyId, role: 'repairer' },
    });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.code, 'role_forbidden');
    const listed = await world.stack.api.call('GET', '/v1/disclosure-grants', { key: viewer.token });
    assert.equal(listed.status, 200, listed.text);
    // The brand's own people read everything.
    const own = await world.stack.api.call('GET', contentPath(), { key: viewer.token });
    assert.deepEqual(leafPointers(own.body.data).sort(), readableBy([...ROLES]));
  });

  test('the console’s session cookie: the brand’s people read everything when the call names the environment', async () => {
    const em = world.stack.api.db.orm.em.fork();
    const [row] = await em.execute<{ id: number }[]>(
      "insert into users (company_id, email, role) values (?, 'engineer@voltaic.example', 'developer') returning id",
      [world.brand.companyId],
    );
    const { secret } = await createConsoleSession(em, row!.id);
    const cookie = { cookie: `dpp_console=${secret}` };
    const viaConsole = await world.stack.api.call('GET', contentPath(), { headers: cookie });
    assert.equal(viaConsole.status, 200, viaConsole.text);
    assert.deepEqual(leafPointers(viaConsole.body.data).sort(), readableBy([...ROLES]));
    // A page the browser opens (no x-service-env): the public's answer, cookie or not.
    const opened = await world.stack.api.call('GET', `/test${contentPath()}`, { env: null, headers: cookie });
    assert.equal(opened.status, 200, opened.text);
    assert.deepEqual(opened.body.roles, ['public']);
    // An ended session is refused, not downgraded.
    const ended = await world.stack.api.call('GET', contentPath(), {
      headers: { cookie: 'dpp_console=dpp_cs_gone' },
    });
    assert.equal(ended.status, 401, ended.text);
  });

  test('grants API: owner only, idempotent, listed, revoked → the grantee reads only public data', async () => {
    const asBrand = (method: string, path: string, body?: unknown) =>
      world.stack.api.call(method, path, {
        key: world.brand.testKey,
        ...(body === undefined ? {} : { body }),
      });
    const again = await asBrand('POST', '/v1/disclosure-grants', {
      granteeCompanyId: world.repairer.companyId,
      role: 'repairer',
    });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.grant.id, world.grants.repairer);
    const list = await asBrand('GET', '/v1/disclosure-grants');
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.grants.map((g: Json) => `${g.role} ${g.granteeCompanyId}`).sort(),
      [
        `notifiedBody ${world.notifiedBody.companyId}`,
        `recycler ${world.recycler.companyId}`,
        `repairer ${world.repairer.companyId}`,
      ].sort(),
    );
    // The grantee does not see the brand's grants, and cannot revoke them; it sees what it received.
    const theirs = await world.stack.api.call('GET', '/v1/disclosure-grants', {
      key: world.repairer.testKey,
    });
    assert.deepEqual(theirs.body.grants, []);
    const received = await world.stack.api.call('GET', '/v1/disclosure-grants/received', {
      key: world.repairer.testKey,
    });
    assert.equal(received.status, 200, received.text);
    assert.deepEqual(
      received.body.grants.map((g: Json) => [g.role, g.brandCompanyId, g.brandName]),
      [['repairer', world.brand.companyId, 'Voltaic Cells']],
    );
    const strangerReceived = await world.stack.api.call('GET', '/v1/disclosure-grants/received', {
      key: world.stranger.testKey,
    });
    assert.deepEqual(strangerReceived.body.grants, []);
    const notTheirs = await world.stack.api.call('DELETE', `/v1/disclosure-grants/${world.grants.repairer}`, {
      key: world.repairer.testKey,
    });
    assert.equal(notTheirs.status, 404, notTheirs.text);
    // Refusals: to oneself, to no company, a role that is not granted by brands, no credential.
    const self = await asBrand('POST', '/v1/disclosure-grants', {
      granteeCompanyId: world.brand.companyId,
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
        granteeCompanyId: world.stranger.companyId,
        role,
      });
      assert.equal(refused.status, 400, `${role}: ${refused.text}`);
    }
    const anonymous = await world.stack.api.call('GET', '/v1/disclosure-grants', { key: null });
    assert.equal(anonymous.status, 401, anonymous.text);
    // A grant in the test environment is not one in live.
    const live = await world.stack.api.call('GET', '/v1/disclosure-grants', {
      key: world.brand.liveKey,
      env: 'live',
    });
    assert.deepEqual(live.body.grants, []);

    const repairerRead = async () =>
      (await world.stack.api.call('GET', contentPath(), { key: world.repairer.testKey })).body;
    assert.ok((await repairerRead()).data.circularity.sparePartSources);
    const revoked = await asBrand('DELETE', `/v1/disclosure-grants/${world.grants.repairer}`);
    assert.equal(revoked.status, 204, revoked.text);
    const after = await repairerRead();
    assert.deepEqual(after.roles, ['public']);
    const receivedAfter = await world.stack.api.call('GET', '/v1/disclosure-grants/received', {
      key: world.repairer.testKey,
    });
    assert.deepEqual(receivedAfter.body.grants, []);
    assert.deepEqual(leafPointers(after.data).sort(), readableBy(['public']));
    const twice = await asBrand('DELETE', `/v1/disclosure-grants/${world.grants.repairer}`);
    assert.equal(twice.status, 404, twice.text);
    // Granted again: a new grant, read again.
    const regrant = await asBrand('POST', '/v1/disclosure-grants', {
      granteeCompanyId: world.repairer.companyId,
      role: 'repairer',
    });
    assert.equal(regrant.status, 201, regrant.text);
    assert.notEqual(regrant.body.grant.id, world.grants.repairer);
    assert.deepEqual((await repairerRead()).roles, ['public', 'repairer']);
    world.grants.repairer = regrant.body.grant.id;
  });

  test('the register through the operator CLI: off it → public only, back on → authority; a credential that is not valid is refused, not downgraded', async () => {
    const cli = (...args: string[]) =>
      promisify(execFile)('sh', ['scripts/node24.sh', 'scripts/cli.ts', ...args], {
        env: { ...process.env, DATABASE_URL: world.stack.api.db.url, LOG_LEVEL: 'warn' },
      });
    assert.match((await cli('authority:list')).stdout, new RegExp(world.authority.companyId));
    assert.match((await cli('authority:revoke', world.authority.companyId)).stdout, /^removed/);
    assert.doesNotMatch((await cli('authority:list')).stdout, new RegExp(world.authority.companyId));
    const answer = await world.stack.api.call('GET', contentPath(), { key: world.authority.testKey });
    assert.deepEqual(answer.body.roles, ['public']);
    assert.deepEqual(leafPointers(answer.body.data).sort(), readableBy(['public']));
    assert.match(
      (await cli('authority:grant', world.authority.companyId, '--note', 'MSA')).stdout,
      /^registered/,
    );
    assert.deepEqual(
      (await world.stack.api.call('GET', contentPath(), { key: world.authority.testKey })).body.roles,
      ['public', 'authority'],
    );
    await assert.rejects(cli('authority:grant', 'not-a-company'), /needs a company id/);
    const bad = await world.stack.api.call('GET', contentPath(), { key: 'dpp_test_not_a_key' });
    assert.equal(bad.status, 401, bad.text);
    // A grantee's live key reads the test passport as nobody special (environments are separate).
    const otherEnv = await world.stack.api.call('GET', contentPath(), {
      key: world.repairer.liveKey,
      env: 'live',
    });
    assert.equal(otherEnv.status, 404, otherEnv.text);
  });
});
