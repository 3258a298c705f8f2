import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { addVirtualAuthenticator, launchChromium } from '../support/browser.ts';
import { addConsoleUser, consoleChecks, CONSOLE_PASSWORD as PASSWORD } from '../support/console-browser.ts';
import { startOpenIdProvider, type TestOpenIdProvider } from '../support/oidc-provider.ts';

const KEY_OWNER = 'keys@passkey.example';
const SSO_OWNER = 'owner@acme.example';

/**
 * Signing in to the console without a password: a passkey registered in the console (Chromium's virtual
 * authenticator), and the company's single sign-on found by the e-mail's domain (a real OpenID provider),
 * each ending in the console's HttpOnly session. The Security and Single sign-on pages pass axe and fit a phone.
 */
describe('console sign-in with a passkey and with SSO (Chromium)', () => {
  let api: TestApi;
  let idp: TestOpenIdProvider;
  let browser: Browser;
  let proofs: Server;
  let origin: string;
  const published = new Map<string, string>();
  const checks = consoleChecks(
    () => browser,
    () => origin,
  );

  const owner = (companyId: string, email: string) => addConsoleUser(api, companyId, email, 'owner');
  const signInWithPassword = checks.signIn;
  /** Who the browser's session is, asked the way the console asks (same origin, its cookie). */
  const sessionOf = (page: Page) =>
    page.evaluate(async () => {
      const response = await fetch('/v1/console/session', { headers: { 'x-service-env': 'test' } });
      return { status: response.status, body: await response.json() };
    });

  beforeAll(async () => {
    proofs = createServer((request, response) => {
      const token = published.get((request.url ?? '').slice(1));
      response.writeHead(token ? 200 : 404).end(token ?? '');
    });
    await new Promise<void>((ready) => proofs.listen(0, '127.0.0.1', ready));
    const port = await freePort();
    origin = `http://localhost:${port}`;
    // The provider on another site (127.0.0.1, the console at localhost): it sends the browser back cross-site,
    // as a company's identity provider does, so the cookies' SameSite attributes are exercised for real.
    idp = await startOpenIdProvider(`${origin}/v1/auth/sso/oidc/callback`, '127.0.0.1');
    // RP id localhost (WebAuthn refuses IP addresses): the console is opened at http://localhost:<port>.
    api = await startTestApi({
      PORT: String(port),
      SSO_DOMAIN_PROOF_URL: `http://127.0.0.1:${(proofs.address() as AddressInfo).port}/{domain}`,
      SSO_ALLOW_PRIVATE_URLS: 'true',
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await idp?.close();
    await new Promise<void>((done) => proofs?.close(() => done()));
  });

  test('register a passkey in Security, sign out, sign in with it; the password works beside it and after removal', async () => {
    const tenant = await api.createTenant('Passkey & Co');
    await owner(tenant.companyId, KEY_OWNER);
    const [context, page] = await checks.newContext();
    await addVirtualAuthenticator(context, page);

    await page.goto(`${origin}/console/sign-in`);
    await page.getByRole('heading', { level: 1, name: 'Sign in to the console' }).waitFor();
    await checks.checkPage(page, 'signin-ways');
    await signInWithPassword(page, KEY_OWNER);
    await page.getByRole('link', { name: 'Security' }).click();
    await page.getByRole('heading', { level: 1, name: 'Security' }).waitFor();
    await page.getByText('You have no passkey yet.').waitFor();
    await checks.checkPage(page, 'security-empty');

    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText(/Passkey added\. Sign in with it, or with your password/).waitFor();
    await page.getByRole('button', { name: 'I have stored them' }).click();
    const row = page.getByRole('row', { name: /Device passkey|Synced passkey/ });
    await row.waitFor();
    await checks.checkPage(page, 'security-passkey');
    // The API agrees: one passkey, and password sign-in still works for this account (a second way in).
    const listed = await page.evaluate(async () => {
      const response = await fetch('/v1/auth/passkeys', { headers: { 'x-service-env': 'test' } });
      return (await response.json()).passkeys as { id: string; lastUsedAt: string | null }[];
    });
    assert.equal(listed.length, 1);
    assert.equal(listed[0]!.lastUsedAt, null);
    const password = await api.call('POST', '/v1/auth/login', {
      body: { email: KEY_OWNER, password: PASSWORD },
    });
    assert.equal(password.status, 200, password.text);

    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to the console' }).waitFor();
    assert.equal((await sessionOf(page)).status, 401);
    await page.getByLabel('E-mail').fill(KEY_OWNER);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    const session = await sessionOf(page);
    assert.equal(session.status, 200);
    assert.equal(session.body.user.email, KEY_OWNER);
    assert.equal(session.body.user.role, 'owner');
    assert.equal(await page.evaluate(() => document.cookie), '', 'the session cookie is HttpOnly');
    const cookies = await context.cookies(origin);
    const cookie = cookies.find((c) => c.name === 'dpp_console');
    assert.ok(cookie?.httpOnly && cookie.sameSite === 'Strict', JSON.stringify(cookies));

    await page.getByRole('link', { name: 'Security' }).click();
    await row.waitFor();
    assert.doesNotMatch((await row.textContent()) ?? '', /Never/, 'the passkey shows when it was last used');
    await page.getByRole('button', { name: /^Remove / }).click();
    await page.getByRole('button', { name: /^Confirm removing / }).click();
    await page.getByText('You have no passkey yet.').waitFor();
    const back = await api.call('POST', '/v1/auth/login', { body: { email: KEY_OWNER, password: PASSWORD } });
    assert.equal(back.status, 200, 'without a passkey the password works again');
    await context.close();
  });

  test('an owner sets up SSO in the console; a colleague signs in through the OpenID provider', async () => {
    const tenant = await api.createTenant('Acme Apparel');
    await owner(tenant.companyId, SSO_OWNER);
    const [ownerContext, page] = await checks.newContext();
    await signInWithPassword(page, SSO_OWNER);
    await page.getByRole('link', { name: 'Single sign-on' }).click();
    await page.getByRole('heading', { level: 1, name: 'Single sign-on' }).waitFor();
    await page.getByText('No domain claimed yet.').waitFor();
    await checks.checkPage(page, 'sso-settings-empty');

    await page.getByLabel('Domain', { exact: true }).fill('acme.example');
    await page.getByRole('button', { name: 'Claim domain' }).click();
    await page.getByText(/acme\.example claimed: publish its token/).waitFor();
    const token = (await page.locator('td[data-label="Proof"] code').first().textContent()) ?? '';
    assert.match(token, /^dpp-domain-verification=/);
    // Not published yet: the page says why verifying fails.
    await page.getByRole('button', { name: 'Verify acme.example' }).click();
    await page
      .getByRole('alert')
      .getByText(/does not serve the verification token/)
      .waitFor();
    published.set('acme.example', token);
    await page.getByRole('button', { name: 'Verify acme.example' }).click();
    await page.getByText('acme.example is verified.').waitFor();
    await page.getByRole('cell', { name: 'Verified', exact: true }).waitFor();

    await page.getByLabel('Issuer URL').fill(idp.issuer);
    await page.getByLabel('Client id').fill(idp.client.id);
    await page.getByLabel(/Client secret/).fill(idp.client.secret);
    await page.getByRole('button', { name: 'Save identity provider' }).click();
    await page.getByText('Your OpenID Connect provider is saved.').waitFor();
    await page.getByText(idp.issuer, { exact: true }).waitFor();
    assert.ok(!((await page.content()) ?? '').includes(idp.client.secret), 'the secret is not shown back');
    await checks.checkPage(page, 'sso-settings-saved');
    await ownerContext.close();

    // A colleague who has no account yet: the sign-in page finds the company's provider by the domain.
    const [context, colleague] = await checks.newContext();
    await colleague.goto(`${origin}/console/sign-in`);
    await colleague.getByLabel('E-mail').fill('Jane@Acme.example');
    await colleague.getByRole('button', { name: 'Use single sign-on (SSO)' }).click();
    await colleague.waitForURL((url) => url.origin === idp.issuer);
    await colleague.fill('input[name="login"]', 'jane@acme.example');
    await colleague.fill('input[name="password"]', 'anything');
    await colleague.click('button[type="submit"]');
    await colleague.waitForSelector('button[type="submit"]');
    await colleague.click('button[type="submit"]');
    await colleague.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    assert.equal(new URL(colleague.url()).pathname, '/console/overview');
    await colleague.getByText('jane@acme.example').first().waitFor();
    const session = await sessionOf(colleague);
    assert.equal(session.status, 200, JSON.stringify(session.body));
    assert.deepEqual(
      {
        email: session.body.user.email,
        company: session.body.user.companyName,
        role: session.body.user.role,
      },
      { email: 'jane@acme.example', company: 'Acme Apparel', role: 'viewer' },
      'provisioned into the domain’s company as a viewer',
    );
    assert.equal(await colleague.evaluate(() => document.cookie), '', 'nothing readable by script');
    await checks.checkPage(colleague, 'signin-sso-done');
    // The viewer sees the SSO settings but cannot change them.
    await colleague.getByRole('link', { name: 'Single sign-on' }).click();
    await colleague.getByText(/Only owners change this; your role is viewer\./).waitFor();
    assert.equal(await colleague.getByRole('button', { name: 'Save identity provider' }).count(), 0);
    await context.close();
  });

  test('an SSO login started in one browser does not sign in another (login CSRF); a refusal says why', async () => {
    const [contextA, started] = await checks.newContext();
    await started.goto(`${origin}/console/sign-in`);
    const authorizationUrl = await started.evaluate(async () => {
      const response = await fetch('/v1/console/session/sso', {
        method: 'POST',
        headers: { 'x-service-env': 'test', 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'mallory@acme.example' }),
      });
      return (await response.json()).authorizationUrl as string;
    });
    // The victim's browser is brought to the provider with the attacker's login: it ends in the API's JSON
    // answer, not in a console session.
    const [contextB, victim] = await checks.newContext();
    await victim.goto(authorizationUrl);
    await victim.fill('input[name="login"]', 'mallory@acme.example');
    await victim.fill('input[name="password"]', 'anything');
    await victim.click('button[type="submit"]');
    await victim.waitForSelector('button[type="submit"]');
    await victim.click('button[type="submit"]');
    await victim.waitForURL(/\/v1\/auth\/sso\/oidc\/callback/);
    assert.equal(JSON.parse((await victim.textContent('body')) ?? '{}').success, true);
    await victim.goto(`${origin}/console/`);
    await victim.getByRole('heading', { level: 1, name: 'Sign in to the console' }).waitFor();
    assert.equal((await sessionOf(victim)).status, 401);
    await contextB.close();

    // The browser that started it comes back with a code the provider never issued: back to sign-in, told why.
    const state = new URL(authorizationUrl).searchParams.get('state');
    await started.goto(`${origin}/v1/auth/sso/oidc/callback?code=forged&state=${state}`);
    await started.getByRole('heading', { level: 1, name: 'Sign in to the console' }).waitFor();
    assert.equal(new URL(started.url()).searchParams.get('sso-error'), 'sso_state_invalid');
    await started.getByText('That single sign-on took too long or was already used: start again.').waitFor();
    await checks.checkPage(started, 'signin-sso-error');
    await contextA.close();
  });

  test('no script error, no unexpected failed response, nothing loaded from another origin', () => {
    // Expected refusals: the signed-out session check (401), the unverified domain (422), the victim's session
    // check (401).
    const expected = /^(401 .*\/v1\/console\/session|422 .*\/v1\/auth\/sso\/domains\/acme\.example\/verify)$/;
    assert.deepEqual(
      checks.failedResponses.filter((line) => !expected.test(line)),
      [],
    );
    assert.deepEqual(
      checks.errors.filter(
        (text) => !/^Failed to load resource: the server responded with a status of 4\d\d/.test(text),
      ),
      [],
    );
    const idpOrigin = new URL(idp.issuer).origin;
    assert.deepEqual(
      checks.foreignRequests.filter((url) => !url.startsWith(idpOrigin)),
      [],
    );
  });
});
