import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';
import { launchChromium } from '../support/browser.ts';
import { startOpenIdProvider, type TestOpenIdProvider } from '../support/oidc-provider.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtp-receiver.ts';

describe('enterprise SSO over OpenID Connect (a real provider, Chromium through its login)', () => {
  let api: TestApi;
  let idp: TestOpenIdProvider;
  let smtp: SmtpReceiver;
  let browser: Browser;
  let proofs: Server;
  const published = new Map<string, string>();
  let tenant: TestTenant;
  const call = (method: string, path: string, body?: unknown) =>
    api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    // Where companies publish domain proofs: a real HTTP server serving /{domain}.
    proofs = createServer((request, response) => {
      const token = published.get((request.url ?? '').slice(1));
      response.writeHead(token ? 200 : 404).end(token ?? '');
    });
    await new Promise<void>((ready) => proofs.listen(0, '127.0.0.1', ready));
    const port = await freePort();
    idp = await startOpenIdProvider(`http://localhost:${port}/v1/auth/sso/oidc/callback`);
    smtp = await startSmtpReceiver();
    api = await startTestApi({
      PORT: String(port),
      SMTP_URL: smtp.url,
      SSO_DOMAIN_PROOF_URL: `http://127.0.0.1:${(proofs.address() as AddressInfo).port}/{domain}`,
      // The provider and the proof server are local; production allows public https addresses only.
      SSO_ALLOW_PRIVATE_URLS: 'true',
    });
    tenant = await api.createTenant('Acme Apparel');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await idp?.close();
    await smtp?.close();
    await new Promise<void>((done) => proofs.close(() => done()));
  });

  /** The whole browser round: the provider's login and consent pages, then our callback's JSON. */
  async function ssoLogin(authorizationUrl: string, login: string) {
    const page = await browser.newPage();
    await page.goto(authorizationUrl);
    await page.fill('input[name="login"]', login);
    await page.fill('input[name="password"]', 'anything');
    await page.click('button[type="submit"]');
    await page.waitForSelector('button[type="submit"]');
    await page.click('button[type="submit"]');
    await page.waitForURL(/\/v1\/auth\/sso\/oidc\/callback/, { timeout: 5000 }).catch(async (error) => {
      throw new Error(`${error.message}: ${page.url()} ${await page.textContent('body')}`);
    });
    const body = JSON.parse((await page.textContent('body')) ?? '{}');
    await page.close();
    return body;
  }

  test('domain verified, provider configured, login provisions the user just in time; mandatory SSO', async () => {
    const claimed = await call('POST', '/v1/auth/sso/domains', { domain: 'acme.example' });
    assert.equal(claimed.status, 201, claimed.text);
    const early = await call('POST', '/v1/auth/sso/domains/acme.example/verify');
    assert.equal(early.body.code, 'domain_proof_missing');
    published.set('acme.example', claimed.body.verificationToken);
    assert.equal((await call('POST', '/v1/auth/sso/domains/acme.example/verify')).status, 200);
    const other = await api.createTenant('Imposter');
    const stolen = await api.call('POST', '/v1/auth/sso/domains', {
      key: other.testKey,
      body: { domain: 'acme.example' },
    });
    assert.equal(stolen.body.code, 'domain_claimed');

    const saved = await call('PUT', '/v1/auth/sso/oidc', {
      issuer: idp.issuer,
      clientId: idp.client.id,
      clientSecret: idp.client.secret,
    });
    assert.equal(saved.status, 200, saved.text);
    assert.ok(!saved.text.includes(idp.client.secret), 'the secret is never returned');

    const elsewhere = await api.call('POST', '/v1/auth/sso/discover', {
      body: { email: 'someone@gmail.example' },
    });
    assert.equal(elsewhere.body.method, 'password_or_passkey');
    const discovered = await api.call('POST', '/v1/auth/sso/discover', {
      body: { email: 'Jane@Acme.example' },
    });
    assert.equal(discovered.body.method, 'sso');
    const url = new URL(discovered.body.authorizationUrl);
    assert.equal(url.origin, idp.issuer);
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(url.searchParams.get('state') && url.searchParams.get('nonce'));

    const first = await ssoLogin(discovered.body.authorizationUrl, 'jane@acme.example');
    assert.equal(first.success, true, JSON.stringify(first));
    assert.deepEqual(
      { email: first.user.email, companyName: first.user.companyName },
      { email: 'jane@acme.example', companyName: 'Acme Apparel' },
      'provisioned into the domain’s company',
    );
    assert.equal((await api.call('GET', '/v1/auth/wallet', { key: first.token })).status, 200);
    const again = await ssoLogin(
      (await api.call('POST', '/v1/auth/sso/discover', { body: { email: 'jane@acme.example' } })).body
        .authorizationUrl,
      'jane@acme.example',
    );
    assert.equal(again.user.id, first.user.id, 'the same person, by issuer and subject');

    const forged = await api.call('GET', '/v1/auth/sso/oidc/callback?code=abc&state=not-a-state', {
      env: null,
    });
    assert.equal(forged.status, 401);
    assert.equal(forged.body.code, 'sso_state_invalid');

    // Someone of the domain with a password: allowed until the company makes SSO mandatory.
    const password = 'a long enough password';
    await api.call('POST', '/v1/auth/register', {
      body: { email: 'bob@acme.example', password, companyName: 'Bob' },
    });
    const link = new URL(await smtp.tokenLink('bob@acme.example', '/v1/auth/confirm'));
    await api.call('GET', `${link.pathname}${link.search}`, { env: null });
    const login = () => api.call('POST', '/v1/auth/login', { body: { email: 'bob@acme.example', password } });
    assert.equal((await login()).status, 200);
    await call('PUT', '/v1/auth/sso/oidc', {
      issuer: idp.issuer,
      clientId: idp.client.id,
      clientSecret: idp.client.secret,
      required: true,
    });
    const refused = await login();
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'sso_required');
  });
});
