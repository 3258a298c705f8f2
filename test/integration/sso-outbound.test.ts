import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';

describe('SSO never reaches internal addresses (production policy)', () => {
  let api: TestApi;
  let tenant: TestTenant;
  const call = (method: string, path: string, body?: unknown) =>
    api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    api = await startTestApi({ SSO_DOMAIN_PROOF_URL: 'http://127.0.0.1:9/{domain}' });
    tenant = await api.createTenant('Careful Co');
  });
  afterAll(() => api.close());

  test('an issuer on http, or one that resolves to loopback, is refused before any request', async () => {
    for (const issuer of ['http://idp.example', 'https://localhost', 'https://169.254.169.254']) {
      const refused = await call('PUT', '/v1/auth/sso/oidc', { issuer, clientId: 'c', clientSecret: 's' });
      assert.equal(refused.status, 422, `${issuer}: ${refused.text}`);
      assert.equal(refused.body.code, 'issuer_not_usable');
      assert.match(refused.body.detail, /not https|not a public address/);
    }
  });

  test('a domain proof URL on a private address is refused', async () => {
    assert.equal((await call('POST', '/v1/auth/sso/domains', { domain: 'careful.example' })).status, 201);
    const refused = await call('POST', '/v1/auth/sso/domains/careful.example/verify');
    assert.equal(refused.status, 422);
    assert.equal(refused.body.code, 'sso_url_not_allowed');
  });
});
