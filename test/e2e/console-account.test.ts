import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { hashPassword } from '../../src/accounts/identity/passwords.ts';
import { freePort } from '../../src/platform/runtime/ports.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { startSamlIdp } from '../support/saml-idp.ts';
import { KYB_SUBMISSION } from './fixtures/connect-accounts.ts';

const PASSWORD = 'console account pages need long passwords';
const PDF = Buffer.from('%PDF-1.7\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
/** Any text of the right length: SAML discovery only builds the redirect, it does not parse the certificate. */
const CERTIFICATE = `-----BEGIN CERTIFICATE-----\n${'A'.repeat(120)}\n-----END CERTIFICATE-----`;

/**
 * The console's account operations over HTTP: passkey and SSO sign-in answered with a console session, the
 * person's own passkeys, and billing, KYB and SSO settings by role (owners change, everyone reads), with the
 * console session as with API keys.
 */
describe('console account operations (passkeys, SSO sign-in, billing, KYB, SSO settings by role)', () => {
  let api: TestApi;
  let origin: string;
  const cookies: Record<string, string> = {};
  const ids: Record<string, number> = {};
  let acme: { companyId: string; testKey: string };
  let other: { companyId: string; testKey: string };

  const person = async (companyId: string, email: string, role: string) => {
    const [row] = await api.db.orm.em.fork().execute<{ id: number }[]>(
      `insert into users (company_id, email, password_hash, email_confirmed_at, role, created_at)
       values (?, ?, ?, now(), ?, now()) returning id`,
      [companyId, email, await hashPassword(PASSWORD), role],
    );
    ids[email] = row!.id;
    const signedIn = await api.call('POST', '/v1/console/session', {
      body: { email, password: PASSWORD },
      headers: { origin },
    });
    assert.equal(signedIn.status, 200, signedIn.text);
    cookies[email] = signedIn.headers.getSetCookie()[0]!.split(';')[0]!;
  };
  const as = (email: string, method: string, path: string, body?: unknown) =>
    api.call(method, path, { body, headers: { cookie: cookies[email]!, origin } });

  beforeAll(async () => {
    const port = await freePort();
    api = await startTestApi({ PORT: String(port) });
    origin = `http://localhost:${port}`;
    acme = await api.createTenant('Acme Apparel');
    other = await api.createTenant('Other Co');
    await person(acme.companyId, 'owner@acme.example', 'owner');
    await person(acme.companyId, 'dev@acme.example', 'developer');
    await person(acme.companyId, 'viewer@acme.example', 'viewer');
    await person(other.companyId, 'owner@other.example', 'owner');
  });
  afterAll(() => api?.close());

  test('billing: everyone reads plan and usage; only owners open checkout and the portal', async () => {
    for (const email of ['owner@acme.example', 'dev@acme.example', 'viewer@acme.example']) {
      const status = await as(email, 'GET', '/v1/billing/status');
      assert.equal(status.status, 200, status.text);
      assert.equal(status.body.plan, null);
      const usage = await as(email, 'GET', '/v1/billing/usage');
      assert.equal(usage.status, 200);
      assert.equal(usage.body.mints, 0);
    }
    for (const email of ['dev@acme.example', 'viewer@acme.example']) {
      const refused = await as(email, 'POST', '/v1/billing/checkout', { plan: 'pro' });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 'role_forbidden');
      assert.equal((await as(email, 'POST', '/v1/billing/portal', {})).body.code, 'role_forbidden');
    }
    assert.equal(
      (await as('owner@acme.example', 'POST', '/v1/billing/portal', {})).body.code,
      'no_billing_account',
    );
    const checkout = await as('owner@acme.example', 'POST', '/v1/billing/checkout', {
      plan: 'essential',
      successUrl: `${origin}/console/settings/billing`,
    });
    assert.equal(checkout.status, 201, checkout.text);
    assert.match(checkout.body.checkoutUrl, /^https:\/\//);
    const portal = await as('owner@acme.example', 'POST', '/v1/billing/portal', {});
    assert.equal(portal.status, 201, portal.text);
    assert.match(portal.body.portalUrl, /^https:\/\//);
    // The customer is the company's: the other company still has none, the API key sees the same one.
    assert.equal((await as('owner@other.example', 'GET', '/v1/billing/status')).body.customerId, null);
    assert.equal(
      (await api.call('GET', '/v1/billing/status', { key: acme.testKey })).body.customerId,
      (await as('viewer@acme.example', 'GET', '/v1/billing/status')).body.customerId,
    );
    assert.equal(
      (await as('owner@acme.example', 'POST', '/v1/billing/checkout', { plan: 'gold' })).status,
      400,
    );
    // A write without the console's Origin is refused before anything else (CSRF).
    const forged = await api.call('POST', '/v1/billing/checkout', {
      body: { plan: 'pro' },
      headers: { cookie: cookies['owner@acme.example']!, origin: 'https://evil.example' },
    });
    assert.equal(forged.body.code, 'cross_origin_refused');
  });

  test('KYB: everyone reads the status; only owners submit and upload; bad input is a 400', async () => {
    const before = await as('viewer@acme.example', 'GET', '/v1/kyb/status');
    assert.equal(before.status, 200);
    assert.equal(before.body.status, 'not_started');
    for (const email of ['dev@acme.example', 'viewer@acme.example']) {
      assert.equal((await as(email, 'POST', '/v1/kyb/submit', KYB_SUBMISSION)).body.code, 'role_forbidden');
      const upload = await as(email, 'POST', '/v1/kyb/upload-document', {
        documentType: 'registry_extract',
        contentBase64: PDF.toString('base64'),
      });
      assert.equal(upload.body.code, 'role_forbidden');
    }
    const invalid = await as('owner@acme.example', 'POST', '/v1/kyb/submit', {
      ...KYB_SUBMISSION,
      company: {
        ...KYB_SUBMISSION.company,
        address: { ...KYB_SUBMISSION.company.address, country: 'Germany' },
      },
    });
    assert.equal(invalid.status, 400);
    const submitted = await as('owner@acme.example', 'POST', '/v1/kyb/submit', KYB_SUBMISSION);
    assert.equal(submitted.status, 200, submitted.text);
    const status = await as('viewer@acme.example', 'GET', '/v1/kyb/status');
    assert.equal(status.body.connectId, submitted.body.connectId);
    assert.equal(
      (await api.call('GET', '/v1/kyb/status', { key: acme.testKey })).body.connectId,
      submitted.body.connectId,
      'the company’s account, whether by key or by person',
    );
    assert.equal((await as('owner@other.example', 'GET', '/v1/kyb/status')).body.connectId, null);
    const badType = await as('owner@acme.example', 'POST', '/v1/kyb/upload-document', {
      documentType: 'passport_photo',
      contentBase64: PDF.toString('base64'),
    });
    assert.equal(badType.status, 400);
    const uploaded = await as('owner@acme.example', 'POST', '/v1/kyb/upload-document', {
      documentType: 'registry_extract',
      contentBase64: PDF.toString('base64'),
    });
    assert.equal(uploaded.status, 201, uploaded.text);
    assert.match(uploaded.body.fileId, /^file_/);
  });

  test('SSO settings: everyone reads, only owners change; another company’s domain is not found', async () => {
    const claimedByOther = await api.call('POST', '/v1/auth/sso/domains', {
      key: other.testKey,
      body: { domain: 'other.example' },
    });
    assert.equal(claimedByOther.status, 201);
    for (const email of ['dev@acme.example', 'viewer@acme.example']) {
      assert.equal(
        (await as(email, 'POST', '/v1/auth/sso/domains', { domain: 'acme.example' })).body.code,
        'role_forbidden',
      );
      assert.equal(
        (
          await as(email, 'PUT', '/v1/auth/sso/saml', {
            entityId: 'https://idp.acme.example',
            ssoUrl: 'https://idp.acme.example/sso',
            certificate: CERTIFICATE,
          })
        ).body.code,
        'role_forbidden',
      );
    }
    const claimed = await as('owner@acme.example', 'POST', '/v1/auth/sso/domains', {
      domain: 'Acme.Example',
    });
    assert.equal(claimed.status, 201, claimed.text);
    assert.equal(
      (await as('owner@acme.example', 'POST', '/v1/auth/sso/domains', { domain: 'not a domain' })).status,
      400,
    );
    const foreign = await as('owner@acme.example', 'POST', '/v1/auth/sso/domains/other.example/verify');
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'domain_not_found');
    const saved = await as('owner@acme.example', 'PUT', '/v1/auth/sso/saml', {
      entityId: 'https://idp.acme.example',
      ssoUrl: 'https://idp.acme.example/sso',
      certificate: CERTIFICATE,
    });
    assert.equal(saved.status, 200, saved.text);
    const read = await as('viewer@acme.example', 'GET', '/v1/auth/sso');
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(
      read.body.domains.map((d: { domain: string; verified: boolean }) => [d.domain, d.verified]),
      [['acme.example', false]],
    );
    assert.equal(read.body.domains[0].verificationToken, claimed.body.verificationToken);
    assert.deepEqual(read.body.connection, {
      protocol: 'saml',
      entityId: 'https://idp.acme.example',
      ssoUrl: 'https://idp.acme.example/sso',
      required: false,
    });
    assert.ok(!read.text.includes('AAAAAAAAAA'), 'the certificate is not echoed');
    const otherRead = await as('owner@other.example', 'GET', '/v1/auth/sso');
    assert.deepEqual(
      otherRead.body.domains.map((d: { domain: string }) => d.domain),
      ['other.example'],
    );
    assert.equal(otherRead.body.connection, null);
  });

  test('SSO sign-in from the console: discovery sets the binding cookie; the callback then ends in the console', async () => {
    // The domain must be verified for discovery to find the company's provider.
    await api.db.orm.em
      .fork()
      .execute(`update sso_domains set verified_at = now() where domain = 'acme.example'`);
    const noOrigin = await api.call('POST', '/v1/console/session/sso', {
      body: { email: 'jane@acme.example' },
    });
    assert.equal(noOrigin.body.code, 'cross_origin_refused');
    assert.equal(
      (await api.call('POST', '/v1/console/session/sso', { body: { email: 'nope' }, headers: { origin } }))
        .status,
      400,
    );
    const elsewhere = await api.call('POST', '/v1/console/session/sso', {
      body: { email: 'someone@gmail.example' },
      headers: { origin },
    });
    assert.equal(elsewhere.body.method, 'password_or_passkey');
    assert.deepEqual(elsewhere.headers.getSetCookie(), []);

    const started = await api.call('POST', '/v1/console/session/sso', {
      body: { email: 'jane@acme.example' },
      headers: { origin },
    });
    assert.equal(started.status, 200, started.text);
    assert.equal(started.body.protocol, 'saml');
    const relayState = new URL(started.body.authorizationUrl).searchParams.get('RelayState');
    assert.ok(relayState);
    const [binding] = started.headers.getSetCookie();
    assert.match(binding!, new RegExp(`^dpp_console_sso=${relayState};`));
    for (const attribute of ['Path=/v1/auth/sso', 'HttpOnly', 'SameSite=None', 'Secure', 'Max-Age=600']) {
      assert.ok(binding!.includes(attribute), `${attribute} in ${binding}`);
    }

    // Without the binding cookie (another browser): the API's answer, as before — no console session.
    const form = (state: string) =>
      new URLSearchParams({ SAMLResponse: Buffer.from('<not-saml/>').toString('base64'), RelayState: state });
    const unbound = await api.call('POST', '/v1/auth/sso/saml/acs', {
      env: null,
      rawBody: form('an-unknown-state').toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(unbound.status, 401);
    assert.equal(unbound.body.code, 'sso_state_invalid');
    // With it: a refused assertion sends the browser back to the sign-in page with the reason, not a token.
    const bound = await api.call('POST', '/v1/auth/sso/saml/acs', {
      env: null,
      rawBody: form(relayState).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: binding!.split(';')[0]!,
      },
    });
    assert.equal(bound.status, 303, bound.text);
    assert.equal(bound.headers.get('location'), '/console/sign-in?sso-error=sso_login_failed');
    const set = bound.headers.getSetCookie();
    assert.ok(
      set.some((c) => c.startsWith('dpp_console_sso=;') && c.includes('Max-Age=0')),
      'binding cleared',
    );
    assert.ok(!set.some((c) => c.startsWith('dpp_console=')), 'no session');
    // The state was used up by that attempt: a second try with the same cookie is refused the same way.
    const again = await api.call('POST', '/v1/auth/sso/saml/acs', {
      env: null,
      rawBody: form(relayState).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: binding!.split(';')[0]! },
    });
    assert.equal(again.headers.get('location'), '/console/sign-in?sso-error=sso_state_invalid');
  });

  test('SAML sign-in started from the console: the IdP’s signed answer starts a console session', async () => {
    const globex = await api.createTenant('Globex');
    const metadata = await api.call('GET', '/v1/auth/sso/saml/metadata', { env: null });
    const idp = await startSamlIdp(metadata.text);
    const key = { key: globex.testKey };
    assert.equal(
      (await api.call('POST', '/v1/auth/sso/domains', { ...key, body: { domain: 'globex.example' } })).status,
      201,
    );
    await api.db.orm.em
      .fork()
      .execute(`update sso_domains set verified_at = now() where domain = 'globex.example'`);
    const saved = await api.call('PUT', '/v1/auth/sso/saml', {
      ...key,
      body: { entityId: idp.entityId, ssoUrl: idp.ssoUrl, certificate: idp.certificate },
    });
    assert.equal(saved.status, 200, saved.text);

    const started = await api.call('POST', '/v1/console/session/sso', {
      body: { email: 'Hank@Globex.example' },
      headers: { origin },
    });
    assert.equal(started.body.protocol, 'saml');
    const binding = started.headers.getSetCookie()[0]!.split(';')[0]!;
    const answer = await idp.respond(started.body.authorizationUrl, 'hank@globex.example');
    const acs = await api.call('POST', '/v1/auth/sso/saml/acs', {
      env: null,
      rawBody: new URLSearchParams(answer).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: binding },
    });
    assert.equal(acs.status, 303, acs.text);
    assert.equal(acs.headers.get('location'), '/console/');
    assert.ok(!acs.text.includes('token'), 'no token in the answer');
    const session = acs.headers.getSetCookie().find((c) => c.startsWith('dpp_console='));
    assert.ok(session?.includes('HttpOnly') && session.includes('SameSite=Strict'), String(session));
    const who = await api.call('GET', '/v1/console/session', {
      headers: { cookie: session!.split(';')[0]! },
    });
    assert.equal(who.status, 200, who.text);
    assert.deepEqual(
      { email: who.body.user.email, company: who.body.user.companyName, role: who.body.user.role },
      { email: 'hank@globex.example', company: 'Globex', role: 'viewer' },
    );
  });

  test('passkeys: the person lists and removes only their own; passkey sign-in checks origin and input', async () => {
    const empty = await as('dev@acme.example', 'GET', '/v1/auth/passkeys');
    assert.equal(empty.status, 200, empty.text);
    assert.deepEqual(empty.body.passkeys, []);
    const em = api.db.orm.em.fork();
    await em.execute(
      `insert into passkeys (id, user_id, public_key, counter, transports, device_type, backed_up)
       values ('b3duZXJzLWtleQ', ?, '\\x00', 0, '[]', 'singleDevice', false),
              ('ZGV2cy1rZXk', ?, '\\x00', 0, '[]', 'multiDevice', true)`,
      [ids['owner@other.example'], ids['dev@acme.example']],
    );
    const mine = await as('dev@acme.example', 'GET', '/v1/auth/passkeys');
    assert.deepEqual(
      mine.body.passkeys.map((p: { id: string; deviceType: string; backedUp: boolean }) => [
        p.id,
        p.deviceType,
        p.backedUp,
      ]),
      [['ZGV2cy1rZXk', 'multiDevice', true]],
    );
    const foreign = await as('dev@acme.example', 'DELETE', '/v1/auth/passkeys/b3duZXJzLWtleQ');
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'passkey_not_found');
    assert.equal((await as('dev@acme.example', 'DELETE', '/v1/auth/passkeys/not%20base64')).status, 400);
    // The passkey is a second way in: password sign-in keeps working beside it, and after it is removed.
    const beside = await api.call('POST', '/v1/console/session', {
      body: { email: 'dev@acme.example', password: PASSWORD },
      headers: { origin },
    });
    assert.equal(beside.status, 200, beside.text);
    assert.equal((await as('dev@acme.example', 'DELETE', '/v1/auth/passkeys/ZGV2cy1rZXk')).status, 200);
    assert.deepEqual((await as('dev@acme.example', 'GET', '/v1/auth/passkeys')).body.passkeys, []);
    const back = await api.call('POST', '/v1/console/session', {
      body: { email: 'dev@acme.example', password: PASSWORD },
      headers: { origin },
    });
    assert.equal(back.status, 200, back.text);
    // API keys are not people: they have no passkeys.
    assert.equal((await api.call('GET', '/v1/auth/passkeys', { key: acme.testKey })).status, 401);

    const assertion = {
      id: 'b3duZXJzLWtleQ',
      rawId: 'b3duZXJzLWtleQ',
      type: 'public-key',
      response: {
        clientDataJSON: Buffer.from(JSON.stringify({ challenge: 'nothing-issued' })).toString('base64url'),
        authenticatorData: 'AAAA',
        signature: 'AAAA',
      },
    };
    const noOrigin = await api.call('POST', '/v1/console/session/passkey', { body: assertion });
    assert.equal(noOrigin.body.code, 'cross_origin_refused');
    const badShape = await api.call('POST', '/v1/console/session/passkey', {
      body: { ...assertion, type: 'password' },
      headers: { origin },
    });
    assert.equal(badShape.status, 400);
    const unissued = await api.call('POST', '/v1/console/session/passkey', {
      body: assertion,
      headers: { origin },
    });
    assert.equal(unissued.status, 401);
    assert.equal(unissued.body.code, 'passkey_challenge_invalid');
    assert.deepEqual(unissued.headers.getSetCookie(), [], 'no session');
  });
});
