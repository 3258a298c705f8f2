import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';
import { startSamlIdp, type TestSamlIdp } from '../support/saml-idp.ts';

describe('enterprise SSO over SAML 2.0 (a signing IdP: samlify)', () => {
  let api: TestApi;
  let idp: TestSamlIdp;
  let tenant: TestTenant;
  let proofs: Server;
  let token = '';
  const call = (method: string, path: string, body?: unknown) =>
    api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
  const post = (fields: { SAMLResponse: string; RelayState: string }) =>
    api.call('POST', '/v1/auth/sso/saml/acs', {
      env: null,
      rawBody: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const discover = async (email: string) =>
    (await api.call('POST', '/v1/auth/sso/discover', { body: { email } })).body.authorizationUrl as string;

  beforeAll(async () => {
    proofs = createServer((_request, response) => response.end(token));
    await new Promise<void>((ready) => proofs.listen(0, '127.0.0.1', ready));
    api = await startTestApi({
      SSO_DOMAIN_PROOF_URL: `http://127.0.0.1:${(proofs.address() as AddressInfo).port}/{domain}`,
      // The provider and the proof server are local; production allows public https addresses only.
      SSO_ALLOW_PRIVATE_URLS: 'true',
    });
    tenant = await api.createTenant('Globex');
    const metadata = await api.call('GET', '/v1/auth/sso/saml/metadata', { env: null });
    assert.equal(metadata.status, 200);
    assert.match(metadata.text, /AssertionConsumerService[^>]+\/v1\/auth\/sso\/saml\/acs/);
    idp = await startSamlIdp(metadata.text);
    const claimed = await call('POST', '/v1/auth/sso/domains', { domain: 'globex.example' });
    token = claimed.body.verificationToken;
    assert.equal((await call('POST', '/v1/auth/sso/domains/globex.example/verify')).status, 200);
    const saved = await call('PUT', '/v1/auth/sso/saml', {
      entityId: idp.entityId,
      ssoUrl: idp.ssoUrl,
      certificate: idp.certificate,
    });
    assert.equal(saved.status, 200, saved.text);
  });
  afterAll(async () => {
    await api?.close();
    await new Promise<void>((done) => proofs.close(() => done()));
  });

  test('a signed response logs the person in, provisioned into the domain’s company; a replay is refused', async () => {
    const url = await discover('Hank@Globex.example');
    assert.ok(url.startsWith(idp.ssoUrl), url);
    const answer = await idp.respond(url, 'hank@globex.example');
    const first = await post(answer);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(
      { email: first.body.user.email, companyName: first.body.user.companyName },
      { email: 'hank@globex.example', companyName: 'Globex' },
    );
    const replayed = await post(answer);
    assert.equal(replayed.status, 401, 'the same response again: its login state is used');

    const second = await post(
      await idp.respond(await discover('hank@globex.example'), 'hank@globex.example'),
    );
    assert.equal(second.body.user.id, first.body.user.id, 'the same person, by issuer and NameID');
  });

  test('tampered, unsigned, replayed, unsolicited or foreign-domain responses are refused', async () => {
    const xmlOf = (answer: { SAMLResponse: string }) =>
      Buffer.from(answer.SAMLResponse, 'base64').toString('utf8');
    const withXml = (answer: { SAMLResponse: string; RelayState: string }, xml: string) => ({
      ...answer,
      SAMLResponse: Buffer.from(xml).toString('base64'),
    });
    const fresh = async (email = 'hank@globex.example') =>
      idp.respond(await discover('hank@globex.example'), email);

    const tampered = await fresh();
    const changed = await post(
      withXml(tampered, xmlOf(tampered).replace(/hank@globex\.example/g, 'boss@globex.example')),
    );
    assert.equal(changed.status, 401, changed.text);
    assert.equal(changed.body.code, 'sso_login_failed');

    const unsigned = await fresh();
    const stripped = xmlOf(unsigned).replace(/<(\w+:)?Signature[\s\S]*?<\/(\w+:)?Signature>/g, '');
    assert.notEqual(stripped, xmlOf(unsigned), 'the response was signed');
    assert.equal((await post(withXml(unsigned, stripped))).status, 401);

    // A genuine response used once, then presented again under a new login: refused.
    const used = await fresh();
    assert.equal((await post(used)).status, 200);
    const newLogin = new URL(await discover('hank@globex.example')).searchParams.get('RelayState')!;
    const replay = await post({ ...used, RelayState: newLogin });
    assert.equal(replay.status, 401, replay.text);

    // A response to a request we no longer wait for (expired, or never sent): InResponseTo is unknown.
    const unsolicited = await fresh();
    await api.db.orm.em.fork().execute('delete from saml_requests');
    assert.equal((await post(unsolicited)).status, 401);

    const outsider = await post(await fresh('eve@elsewhere.example'));
    assert.equal(outsider.status, 401);
    assert.equal(outsider.body.code, 'sso_login_failed');
  });
});
