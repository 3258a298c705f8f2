import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { addVirtualAuthenticator as laptop, launchChromium } from '../support/browser.ts';
import { addConsoleUser, consoleChecks, CONSOLE_PASSWORD as PASSWORD } from '../support/console-browser.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtp-receiver.ts';

const OWNER = 'laptop@recovery.example';
const NEW_PASSWORD = 'a brand new passphrase for the reset';

/**
 * Account safety (issue 36): a passkey is a second way in, with recovery codes for the day the device is lost;
 * a password reset tells each kind of account the truth and then works as it said; the console opened at
 * 127.0.0.1 signs in while a cross-site write is still refused.
 */
describe('passkeys with recovery, a truthful reset, the console at any loopback name (Chromium, SMTP)', () => {
  let api: TestApi;
  let smtp: SmtpReceiver;
  let browser: Browser;
  let origin: string;
  let port: number;
  const checks = consoleChecks(
    () => browser,
    () => origin,
    { shotPrefix: 'recovery-' },
  );
  const db = () => api.db.orm.em.fork();
  const signOut = async (page: Page) => {
    // As a person would: once the page has loaded (a list still loading would be refused, 401, once signed out).
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to the console' }).waitFor();
  };
  const signInWithCode = async (page: Page, code: string) => {
    await page.goto(`${origin}/console/sign-in`);
    await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(OWNER);
    await page.getByRole('button', { name: 'Lost your passkey? Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(code);
    await page.getByRole('button', { name: 'Sign in with the code' }).click();
  };

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    port = await freePort();
    // PUBLIC_BASE_URL is http://localhost:<port> (passkeys need a name); the last test opens 127.0.0.1 too.
    origin = `http://localhost:${port}`;
    api = await startTestApi({ PORT: String(port), SMTP_URL: smtp.url });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await smtp?.close();
  });

  test('a passkey adds a way in: codes shown once, the password still works, a lost passkey is recovered with a code once', async () => {
    const tenant = await api.createTenant('Recovery & Co');
    await addConsoleUser(api, tenant.companyId, OWNER, 'owner');
    const [context, page] = await checks.newContext();
    const device = await laptop(context, page);
    await checks.signIn(page, OWNER);
    await checks.openPage(page, 'Security');
    await page.getByText('You have no unused recovery code.').waitFor();

    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('heading', { level: 2, name: 'Your recovery codes' }).waitFor();
    await page.getByText('Passkey added. Sign in with it, or with your password as before.').waitFor();
    const codes = await page.getByRole('list', { name: 'Recovery codes' }).locator('li').allTextContents();
    assert.equal(codes.length, 10);
    for (const code of codes) assert.match(code, /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
    await checks.checkPage(page, 'security-codes-once');
    await page.getByRole('button', { name: 'I have stored them' }).click();
    await page.getByText('10 unused recovery codes left.').waitFor();
    // Shown once: back on the page, only the count; the database keeps hashes, never a code.
    await page.reload();
    await page.getByText('10 unused recovery codes left.').waitFor();
    assert.equal(await page.getByRole('list', { name: 'Recovery codes' }).count(), 0);
    const stored = await db().execute<{ code_hash: Buffer }[]>('select code_hash from recovery_codes');
    assert.equal(stored.length, 10);
    for (const row of stored) {
      assert.equal(row.code_hash.length, 32);
      assert.ok(!codes.some((code) => row.code_hash.toString('latin1').includes(code.slice(0, 4))));
    }
    await checks.checkPage(page, 'security-with-passkey');

    // The password is kept behind the passkey: it still signs in.
    await signOut(page);
    await checks.signIn(page, OWNER);
    await signOut(page);

    // The laptop is lost; a recovery code signs in and the Security page asks for a new passkey.
    await device.remove();
    await signInWithCode(page, codes[0]!.toLowerCase());
    await page.getByRole('heading', { level: 1, name: 'Security' }).waitFor();
    await page
      .getByText(
        'You signed in with a recovery code. Add a new passkey now, then remove the one you lost (9 recovery codes left).',
      )
      .waitFor();
    await page.getByText('9 unused recovery codes left.').waitFor();
    await checks.checkPage(page, 'security-after-recovery');

    // A used code is refused, in words.
    await signOut(page);
    await signInWithCode(page, codes[0]!);
    await page
      .getByRole('alert')
      .getByText(/This recovery code is wrong or already used \(each works once\)/)
      .waitFor();
    await checks.checkPage(page, 'signin-code-used');
    const again = await api.call('POST', '/v1/auth/recovery-code/login', {
      body: { email: OWNER, code: codes[0] },
    });
    assert.equal(again.status, 401);
    assert.equal(again.body.code, 'recovery_code_invalid');

    // A new laptop: the next code signs in, a new passkey is added (no new codes: eight are left), the lost one removed.
    const [newContext, newPage] = await checks.newContext();
    await laptop(newContext, newPage);
    await signInWithCode(newPage, codes[1]!);
    await newPage.getByText(/You signed in with a recovery code/).waitFor();
    await newPage.getByRole('button', { name: 'Add a passkey' }).click();
    await newPage.getByText('Passkey added. Sign in with it, or with your password as before.').waitFor();
    assert.equal(await newPage.getByRole('heading', { name: 'Your recovery codes' }).count(), 0);
    assert.equal(await newPage.getByText(/You signed in with a recovery code/).count(), 0);
    await newPage
      .getByRole('button', { name: /^Remove / })
      .last()
      .click();
    await newPage.getByRole('button', { name: /^Confirm removing / }).click();
    await newPage.getByText(/removed\.$/).waitFor();
    // The lost passkey (the older one, listed last) is gone; the new one stays.
    await newPage
      .getByRole('row', { name: /Device passkey|Synced passkey/ })
      .nth(1)
      .waitFor({ state: 'detached' });
    await newPage
      .getByRole('row', { name: /Device passkey|Synced passkey/ })
      .first()
      .waitFor();
    await newPage.getByText('8 unused recovery codes left.').waitFor();

    // A new set replaces the old one.
    await newPage.getByRole('button', { name: 'Make new recovery codes' }).click();
    await newPage.getByRole('button', { name: 'Make new codes' }).click();
    await newPage.getByText('New recovery codes made: the old ones no longer work.').waitFor();
    const fresh = await newPage.getByRole('list', { name: 'Recovery codes' }).locator('li').allTextContents();
    assert.equal(fresh.length, 10);
    const old = await api.call('POST', '/v1/auth/recovery-code/login', {
      body: { email: OWNER, code: codes[2] },
    });
    assert.equal(old.body.code, 'recovery_code_invalid', 'the old set stopped working');
    const viaApi = await api.call('POST', '/v1/auth/recovery-code/login', {
      body: { email: OWNER, code: fresh[0] },
    });
    assert.equal(viaApi.status, 200, viaApi.text);
    assert.equal(viaApi.body.remainingRecoveryCodes, 9);
    assert.match(viaApi.body.token, /^ey/);
    await context.close();
    await newContext.close();
  });

  test('a password reset tells each kind of account the truth, and then works as it said', async () => {
    const tenant = await api.createTenant('Reset Kinds');
    const people = {
      password: 'pw@kinds.example',
      passkey: 'pk@kinds.example',
      passkeyOnly: 'pkonly@kinds.example',
      sso: 'staff@sso-kinds.example',
    };
    for (const email of Object.values(people)) await addConsoleUser(api, tenant.companyId, email, 'viewer');
    const em = db();
    await em.execute('update users set password_hash = null where email = ?', [people.passkeyOnly]);
    await em.execute(
      `insert into passkeys (id, user_id, public_key, counter, transports, device_type, backed_up)
       select 'key-' || id, id, '\\x00', 0, '[]', 'multiDevice', true from users where email in (?, ?)`,
      [people.passkey, people.passkeyOnly],
    );
    const ssoCompany = await api.createTenant('SSO Kinds');
    await em.execute('update users set company_id = ? where email = ?', [ssoCompany.companyId, people.sso]);
    await em.execute(
      `insert into sso_domains (domain, company_id, verification_token, verified_at) values ('sso-kinds.example', ?, 't', now())`,
      [ssoCompany.companyId],
    );
    await em.execute(
      `insert into sso_connections (company_id, protocol, issuer, client_id, required) values (?, 'oidc', 'https://idp.example', 'c', true)`,
      [ssoCompany.companyId],
    );

    const resetFor = async (email: string, index = 0) => {
      const asked = await api.call('POST', '/v1/auth/password/reset-request', { body: { email } });
      assert.equal(asked.status, 202);
      return smtp.mailTo(email, index);
    };
    const setWith = async (email: string) => {
      const link = new URL(await smtp.tokenLink(email, '/reset-password'));
      return api.call('POST', '/v1/auth/password/reset', {
        env: null,
        body: { token: link.searchParams.get('token'), password: NEW_PASSWORD },
      });
    };
    const logIn = (email: string) =>
      api.call('POST', '/v1/auth/login', { body: { email, password: NEW_PASSWORD } });

    const password = await resetFor(people.password);
    assert.match(password.text, /Subject: Reset your password/);
    assert.doesNotMatch(password.text, /passkey/);
    assert.equal((await setWith(people.password)).body.message, 'Your password is set: sign in with it.');
    assert.equal((await logIn(people.password)).status, 200);

    const passkey = await resetFor(people.passkey);
    assert.match(passkey.text, /Your passkeys keep working beside the new password/);
    assert.equal(
      (await setWith(people.passkey)).body.message,
      'Your password is set: sign in with it or with your passkey.',
    );
    assert.equal((await logIn(people.passkey)).status, 200, 'the reset password signs in beside the passkey');

    const passkeyOnly = await resetFor(people.passkeyOnly);
    assert.match(passkeyOnly.text, /Subject: Set a password/);
    assert.match(passkeyOnly.text, /has no password yet: this link sets one/);
    assert.equal(
      (await setWith(people.passkeyOnly)).body.message,
      'Your password is set: sign in with it or with your passkey.',
    );
    assert.equal((await logIn(people.passkeyOnly)).status, 200);

    const sso = await resetFor(people.sso);
    assert.match(sso.text, /Subject: Your company signs you in with single sign-on/);
    assert.match(sso.text, /no password is used here and none\s+can be set/);
    assert.doesNotMatch(sso.text, /token=/, 'no reset link for an SSO-managed account');
    // A link mailed before the company made SSO mandatory is refused, not silently accepted.
    await em.execute('update sso_connections set required = false where company_id = ?', [
      ssoCompany.companyId,
    ]);
    await resetFor(people.sso, 1);
    await em.execute('update sso_connections set required = true where company_id = ?', [
      ssoCompany.companyId,
    ]);
    const link = new URL(await smtp.tokenLink(people.sso, '/reset-password', 1));
    const refused = await api.call('POST', '/v1/auth/password/reset', {
      env: null,
      body: { token: link.searchParams.get('token'), password: NEW_PASSWORD },
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'sso_required');
    assert.match(refused.body.detail, /single sign-on: no password is used here/);
    const [unchanged] = await em.execute<{ password_hash: string | null }[]>(
      'select password_hash from users where email = ?',
      [people.sso],
    );
    assert.ok(unchanged?.password_hash, 'the refused reset changed nothing');

    // The console's reset page shows the service's answer, not a fixed promise.
    await resetFor(people.passkey, 1);
    const [context, page] = await checks.newContext();
    await page.goto(await smtp.tokenLink(people.passkey, '/reset-password', 1));
    await page.getByLabel(/New password/).fill(`${NEW_PASSWORD} again`);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page
      .getByText('Your password is set: sign in with it or with your passkey.', { exact: false })
      .waitFor();
    await checks.checkPage(page, 'reset-done-passkey');
    await context.close();
  });

  test('the console at 127.0.0.1 signs in (same origin); a cross-site write is refused', async () => {
    const tenant = await api.createTenant('Loopback');
    const email = 'dev@loopback.example';
    await addConsoleUser(api, tenant.companyId, email, 'owner');
    const ip = `http://127.0.0.1:${port}`;
    const [context, page] = await checks.newContext();
    await page.goto(`${ip}/console/sign-in`);
    await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    // The Overview's own reads finished before this test signs out everywhere (no request left in flight).
    await page.waitForLoadState('networkidle');
    // Writes with the session work from there too (signing out everywhere: a DELETE with its Origin).
    const write = await page.evaluate(async () => {
      const response = await fetch('/v1/console/sessions', {
        method: 'DELETE',
        headers: { 'x-service-env': 'test' },
      });
      return response.status;
    });
    assert.equal(write, 200);
    await page.goto(`${ip}/console/sign-in`);
    await page.getByText(/Passkeys do not work at an IP address \(127\.0\.0\.1\)/).waitFor();
    await page.getByRole('link', { name: `http://localhost:${port}/console/sign-in` }).waitFor();
    await checks.checkPage(page, 'signin-at-127');
    await context.close();

    const body = { email, password: PASSWORD };
    const sameOrigin = await api.call('POST', '/v1/console/session', { body, headers: { origin: ip } });
    assert.equal(sameOrigin.status, 200, sameOrigin.text);
    const cookie = sameOrigin.headers.getSetCookie()[0]!.split(';')[0]!;
    for (const foreign of [
      'http://evil.example',
      `http://localhost:${port + 1}`,
      `https://127.0.0.1:${port}`,
    ]) {
      const signIn = await api.call('POST', '/v1/console/session', { body, headers: { origin: foreign } });
      assert.equal(signIn.body.code, 'cross_origin_refused', foreign);
      const signOutAll = await api.call('DELETE', '/v1/console/sessions', {
        headers: { origin: foreign, cookie },
      });
      assert.equal(signOutAll.body.code, 'cross_origin_refused', foreign);
    }
    assert.equal(
      (await api.call('GET', '/v1/console/session', { headers: { cookie } })).status,
      200,
      'still signed in',
    );
  });

  test('no script error, no unexpected failed response, nothing loaded from another origin', () => {
    // Expected: the signed-out session checks (401) and the used recovery code (401).
    const expected = /^401 .*\/v1\/console\/session(\/recovery-code)?$/;
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
    assert.deepEqual(checks.foreignRequests, []);
  });
});
