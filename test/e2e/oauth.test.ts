import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';

describe('OAuth 2.0 client credentials', () => {
  let api: TestApi;
  let tenant: TestTenant;
  let client: { id: string; clientId: string };
  let clientSecret: string;
  const form = (fields: Record<string, string>, headers: Record<string, string> = {}, env = 'test') =>
    api.call('POST', '/v1/auth/oauth/token', {
      env,
      rawBody: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  const basic = (id: string, secret: string) =>
    `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

  beforeAll(async () => {
    api = await startTestApi();
    tenant = await api.createTenant('Acme ERP');
    const created = await api.call('POST', '/v1/auth/oauth/clients', {
      key: tenant.testKey,
      body: { name: 'SAP' },
    });
    assert.equal(created.status, 201, created.text);
    client = created.body.client;
    clientSecret = created.body.clientSecret;
  });
  afterAll(() => api.close());

  test('client_credentials (Basic, form body, JSON body): a 3600 s token that works where an API key does', async () => {
    const byBasic = await form(
      { grant_type: 'client_credentials' },
      { authorization: basic(client.clientId, clientSecret) },
    );
    assert.equal(byBasic.status, 200, byBasic.text);
    assert.equal(byBasic.headers.get('cache-control'), 'no-store');
    assert.equal(byBasic.body.token_type, 'Bearer');
    assert.equal(byBasic.body.expires_in, 3600);
    assert.match(byBasic.body.access_token, /^dpp_at_/);
    assert.match(byBasic.body.refresh_token, /^dpp_rt_/);
    const byForm = await form({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: clientSecret,
    });
    assert.equal(byForm.status, 200);
    const byJson = await api.call('POST', '/v1/auth/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: client.clientId, client_secret: clientSecret },
    });
    assert.equal(byJson.status, 200);

    const [stored] = await api.db.orm.em
      .fork()
      .execute<{ seconds: number }[]>(
        `select round(extract(epoch from expires_at - created_at))::int as seconds from oauth_tokens where kind = 'access' limit 1`,
      );
    assert.equal(stored!.seconds, 3600, 'exactly one hour');

    const inventory = await api.call('GET', '/v1/dpp/inventory', { key: byBasic.body.access_token });
    assert.equal(inventory.status, 200, inventory.text);
    const live = await api.call('GET', '/v1/dpp/inventory', { key: byBasic.body.access_token, env: 'live' });
    assert.equal(live.status, 403);
    assert.equal(live.body.code, 'environment_mismatch');
    const openapi = await api.call('GET', '/openapi.json', { env: null });
    assert.deepEqual(openapi.body.paths['/v1/dpp/inventory'].get.security, [
      { apiKey: [] },
      { oauthClient: [] },
    ]);
  });

  test('refresh rotates; reusing a rotated refresh token revokes the whole family', async () => {
    const first = await form({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: clientSecret,
    });
    const second = await form({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    assert.equal(second.status, 200, second.text);
    assert.notEqual(second.body.access_token, first.body.access_token);
    assert.notEqual(second.body.refresh_token, first.body.refresh_token);
    assert.equal(second.body.expires_in, 3600);
    const third = await form({ grant_type: 'refresh_token', refresh_token: second.body.refresh_token });
    assert.equal(third.status, 200);
    assert.equal((await api.call('GET', '/v1/dpp/inventory', { key: third.body.access_token })).status, 200);

    // A leaked, already rotated token (outside the short retry grace): every token of the grant dies.
    await api.db.orm.em
      .fork()
      .execute(`update oauth_tokens set used_at = now() - interval '1 minute' where used_at is not null`);
    const reused = await form({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    assert.equal(reused.status, 400);
    assert.equal(reused.body.error, 'invalid_grant');
    assert.equal(reused.body.code, 'invalid_grant');
    assert.equal(typeof reused.body.error_description, 'string');
    assert.equal((await api.call('GET', '/v1/dpp/inventory', { key: third.body.access_token })).status, 401);
    const latest = await form({ grant_type: 'refresh_token', refresh_token: third.body.refresh_token });
    assert.equal(latest.body.error, 'invalid_grant', 'the newest refresh token of the family is revoked too');
  });

  test('RFC 6749 errors: invalid_client (401, Basic challenge), unsupported_grant_type, invalid_request', async () => {
    const wrong = await form(
      { grant_type: 'client_credentials' },
      { authorization: basic(client.clientId, 'nope') },
    );
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error, 'invalid_client');
    assert.match(wrong.headers.get('www-authenticate') ?? '', /^Basic/);
    const otherEnv = await form(
      { grant_type: 'client_credentials', client_id: client.clientId, client_secret: clientSecret },
      {},
      'live',
    );
    assert.equal(otherEnv.body.error, 'invalid_client', 'a test client is not a live one');
    assert.equal((await form({ grant_type: 'password' })).body.error, 'unsupported_grant_type');
    assert.equal((await form({ grant_type: 'refresh_token' })).body.error, 'invalid_request');
    assert.equal((await form({})).body.error, 'invalid_request');
  });

  test('clients are listed without secrets, and revoking one kills its tokens', async () => {
    const listed = await api.call('GET', '/v1/auth/oauth/clients', { key: tenant.testKey });
    assert.equal(listed.body.clients[0].clientId, client.clientId);
    assert.ok(!JSON.stringify(listed.body).includes(clientSecret));
    const token = await form({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: clientSecret,
    });
    const revoked = await api.call('DELETE', `/v1/auth/oauth/clients/${client.id}`, { key: tenant.testKey });
    assert.equal(revoked.status, 200);
    assert.equal((await api.call('GET', '/v1/dpp/inventory', { key: token.body.access_token })).status, 401);
    assert.equal(
      (await form({ grant_type: 'refresh_token', refresh_token: token.body.refresh_token })).status,
      400,
    );
    const other = await api.createTenant('Other');
    const foreign = await api.call('DELETE', `/v1/auth/oauth/clients/${client.id}`, { key: other.testKey });
    assert.equal(foreign.status, 404);
  });
});
