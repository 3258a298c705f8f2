import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { addVirtualAuthenticator, launchChromium } from '../support/browser.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtp-receiver.ts';

const EMAIL = 'passkey.user@example.com';
const PASSWORD = 'a long enough password';

describe('passkeys in Chromium with a virtual authenticator (DevTools WebAuthn)', () => {
  let api: TestApi;
  let smtp: SmtpReceiver;
  let browser: Browser;
  let page: Page;
  let origin: string;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    const port = await freePort();
    // RP id localhost (WebAuthn refuses IP addresses): the page is opened at http://localhost:<port>.
    api = await startTestApi({ PORT: String(port), SMTP_URL: smtp.url });
    origin = `http://localhost:${port}`;
    browser = await launchChromium();
    const context = await browser.newContext();
    page = await context.newPage();
    await addVirtualAuthenticator(context, page);
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await smtp?.close();
  });

  const result = async () => {
    await page.waitForFunction(() => (document.getElementById('out')?.textContent ?? '') !== '');
    const text = (await page.textContent('#out')) ?? '';
    await page.evaluate(() => {
      document.getElementById('out')!.textContent = '';
    });
    return text;
  };

  test('register a passkey, log in with it; password login is then refused', async () => {
    assert.equal(
      (
        await api.call('POST', '/v1/auth/register', {
          body: { email: EMAIL, password: PASSWORD, companyName: 'Keys' },
        })
      ).status,
      201,
    );
    const link = new URL(await smtp.tokenLink(EMAIL, '/v1/auth/confirm'));
    assert.equal((await api.call('GET', `${link.pathname}${link.search}`, { env: null })).status, 200);
    const token = (await api.call('POST', '/v1/auth/login', { body: { email: EMAIL, password: PASSWORD } }))
      .body.token;

    const challenge = await api.call('POST', '/v1/auth/passkey/register/challenge', {
      key: token,
      body: { email: EMAIL },
    });
    assert.equal(challenge.body.rp.id, 'localhost');
    assert.deepEqual(
      challenge.body.pubKeyCredParams.map((p: { alg: number }) => p.alg),
      [-7, -257],
    );
    const foreign = await api.call('POST', '/v1/auth/passkey/register/challenge', {
      key: token,
      body: { email: 'someone.else@example.com' },
    });
    assert.equal(foreign.body.code, 'email_mismatch');

    await page.goto(`${origin}/passkeys`);
    await page.fill('#email', EMAIL);
    await page.fill('#token', token);
    await page.click('#register');
    assert.match(await result(), /^registered: /);

    await page.fill('#token', '');
    await page.click('#login');
    const loggedIn = await result();
    assert.match(loggedIn, /^logged in: ey/);
    const passkeyToken = loggedIn.replace('logged in: ', '');
    assert.equal(
      (await api.call('GET', '/v1/auth/wallet', { key: passkeyToken })).status,
      200,
      'a working token',
    );

    // The passkey is a second way in: the password keeps working (issue 36).
    const password = await api.call('POST', '/v1/auth/login', { body: { email: EMAIL, password: PASSWORD } });
    assert.equal(password.status, 200, password.text);

    const [stored] = await api.db.orm.em
      .fork()
      .execute<{ n: number }[]>('select count(*)::int as n from passkeys');
    assert.equal(stored!.n, 1);

    // A login challenge looks the same for an address without passkeys (no enumeration).
    const decoy = await api.call('POST', '/v1/auth/passkey/login/challenge', {
      body: { email: 'nobody@example.com' },
    });
    assert.equal(decoy.body.allowCredentials.length, 1);
  });
});

// The callbacks above run in the page.
declare const document: { getElementById(id: string): { textContent: string | null } | null };
