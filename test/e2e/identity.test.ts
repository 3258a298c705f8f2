import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3';
import { computeAddress } from 'ethers';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { ENTRY_POINT_ADDRESS } from '../../src/adapters/bundler/account-contracts.ts';
import { smartAccountAddress } from '../../src/adapters/bundler/smart-account-address.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtp-receiver.ts';

const PASSWORD = 'correct horse battery staple';

describe('accounts: register → e-mail over SMTP → confirm → login → user token', () => {
  let api: TestApi;
  let smtp: SmtpReceiver;
  const register = (email: string, password = PASSWORD) =>
    api.call('POST', '/v1/auth/register', { body: { email, password, companyName: 'Jane’s Closet' } });
  const login = (email: string, password = PASSWORD, env = 'test') =>
    api.call('POST', '/v1/auth/login', { env, body: { email, password } });
  const confirmLinkOf = async (email: string) => new URL(await smtp.tokenLink(email, '/v1/auth/confirm'));

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    api = await startTestApi({ SMTP_URL: smtp.url, WALLET_MASTER_SECRET: 'w'.repeat(40) });
  });
  afterAll(async () => {
    await api?.close();
    await smtp?.close();
  });

  test('the whole way in, and the token works where a user token is accepted', async () => {
    const registered = await register('Jane.Doe@Example.com');
    assert.equal(registered.status, 201, registered.text);
    assert.equal(registered.body.success, true);
    assert.equal(typeof registered.body.userId, 'number');
    assert.match(registered.body.message, /confirm/i);

    const early = await login('jane.doe@example.com');
    assert.equal(early.status, 403);
    assert.equal(early.body.code, 'email_not_confirmed');

    const link = await confirmLinkOf('jane.doe@example.com');
    const confirmed = await api.call('GET', `${link.pathname}${link.search}`, { env: null });
    assert.equal(confirmed.status, 200, confirmed.text);
    const again = await api.call('GET', `${link.pathname}${link.search}`, { env: null });
    assert.equal(again.status, 410, 'a confirmation link works once');

    const loggedIn = await login('JANE.DOE@example.com');
    assert.equal(loggedIn.status, 200, loggedIn.text);
    assert.deepEqual(loggedIn.body.user, {
      id: registered.body.userId,
      email: 'jane.doe@example.com',
      companyName: 'Jane’s Closet',
    });
    const token: string = loggedIn.body.token;
    const [header, payload] = token
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    assert.equal(header.alg, 'EdDSA');
    assert.equal(payload.exp - payload.iat, 900);
    assert.equal(payload.env, 'test');
    const jwks = await api.call('GET', '/.well-known/jwks.json', { env: null });
    assert.equal(jwks.body.keys[0].kid, header.kid, 'the signing key is published');

    const wallet = await api.call('GET', '/v1/auth/wallet', { key: token });
    assert.equal(wallet.status, 200, wallet.text);
    // Independent derivation: keccak-256 (noble) of master secret ‖ 0x00 ‖ normalised e-mail.
    const seed = keccak_256(
      Buffer.concat([Buffer.from('w'.repeat(40)), Buffer.from([0]), Buffer.from('jane.doe@example.com')]),
    );
    // The wallet is the smart account that key owns (issue 40), at its counterfactual address.
    const owner = computeAddress(`0x${Buffer.from(seed).toString('hex')}`);
    assert.equal(wallet.body.ownerAddress, owner);
    assert.equal(wallet.body.kind, 'smart-account');
    assert.equal(wallet.body.address, smartAccountAddress(ENTRY_POINT_ADDRESS, owner));
    assert.notEqual(wallet.body.address, owner);
    assert.equal(
      (await api.call('GET', '/v1/auth/wallet', { key: token })).body.address,
      wallet.body.address,
    );

    const otherEnvironment = await api.call('GET', '/v1/auth/wallet', { key: token, env: 'live' });
    assert.equal(otherEnvironment.status, 403);
    assert.equal(otherEnvironment.body.code, 'environment_mismatch');
    const tampered = `${token.slice(0, -4)}${token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    assert.equal((await api.call('GET', '/v1/auth/wallet', { key: tampered })).status, 401);
    const apiKeyRoute = await api.call('GET', '/v1/dpp/inventory', { key: token });
    assert.equal(apiKeyRoute.status, 401, 'a user token is not an API key');
    // The company's keys are the exception: its people manage them (the console; roles in docs/console.md).
    assert.equal((await api.call('GET', '/v1/auth/api-keys', { key: token })).status, 200);
  });

  test('no enumeration; weak passwords refused; a known address registers like a new one', async () => {
    assert.equal((await register('weak@example.com', 'short')).body.code, 'weak_password');
    const first = await register('lock@example.com');
    assert.equal(first.status, 201);
    // Issue 33: a 409 told which addresses have accounts; the owner is mailed instead (login-throttle.test.ts).
    const duplicate = await register('LOCK@example.com');
    assert.equal(duplicate.status, 201);
    assert.equal(duplicate.body.message, first.body.message);
    const link = await confirmLinkOf('lock@example.com');
    assert.equal((await api.call('GET', `${link.pathname}${link.search}`, { env: null })).status, 200);

    const unknown = await login('nobody@example.com', 'whatever password 1');
    const wrong = await login('lock@example.com', 'whatever password 1');
    assert.equal(unknown.status, 401);
    assert.equal(wrong.status, 401);
    assert.equal(unknown.body.code, wrong.body.code);
    assert.equal(unknown.body.detail, wrong.body.detail, 'the same answer for an unknown address');

    // Failures slow guessing down but lock nothing (issue 33: five used to lock the owner out for 15 minutes);
    // test/e2e/login-throttle.test.ts shows the delays.
    for (let i = 0; i < 4; i++)
      assert.equal((await login('lock@example.com', `wrong password ${i}`)).status, 401);
    // A password reset: the same answer for any address; the mailed link opens a form that sets the new
    // password (no JavaScript, no environment header).
    const unknownReset = await api.call('POST', '/v1/auth/password/reset-request', {
      body: { email: 'nobody@example.com' },
    });
    const knownReset = await api.call('POST', '/v1/auth/password/reset-request', {
      body: { email: 'lock@example.com' },
    });
    assert.equal(unknownReset.status, 202);
    assert.deepEqual(knownReset.body, unknownReset.body);
    // Mails to the address: the confirmation, "someone tried to register", the reset link.
    const resetLink = new URL(await smtp.tokenLink('lock@example.com', '/reset-password', 2));
    // The link opens the console's page; without JavaScript, its noscript block links the API's own form.
    assert.equal(resetLink.pathname, '/console/reset-password');
    const consolePage = await api.call('GET', `${resetLink.pathname}${resetLink.search}`, { env: null });
    assert.equal(consolePage.status, 200);
    assert.equal(consolePage.headers.get('cache-control'), 'no-store');
    assert.equal(consolePage.headers.get('referrer-policy'), 'same-origin');
    const fallback = /<noscript>.*<a href="(\/reset-password\?token=[\w-]+)">/.exec(consolePage.text);
    assert.ok(fallback, 'the console page links the form that works without JavaScript');
    assert.equal(
      new URL(fallback[1]!, api.baseUrl).searchParams.get('token'),
      resetLink.searchParams.get('token'),
    );
    // Only a token's characters make it into the page.
    const forged = await api.call(
      'GET',
      `/console/reset-password?token=${encodeURIComponent('"><script>alert(1)</script>xxxxxxxxxxxx')}`,
      { env: null },
    );
    assert.equal(forged.status, 200);
    assert.doesNotMatch(forged.text, /<noscript>|alert\(1\)/);
    const page = await api.call('GET', fallback[1]!, { env: null });
    assert.equal(page.status, 200);
    assert.match(page.text, /<form method="post" action="\/v1\/auth\/password\/reset">/);
    const token = resetLink.searchParams.get('token')!;
    const submit = (password: string) =>
      api.call('POST', '/v1/auth/password/reset', {
        env: null,
        rawBody: new URLSearchParams({ token, password }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    assert.equal((await submit('tiny')).body.code, 'weak_password');
    assert.equal((await submit('a brand new long password')).status, 200);
    assert.equal((await submit('a brand new long password')).status, 410, 'a reset link works once');
    assert.equal(
      (await login('lock@example.com', 'a brand new long password')).status,
      200,
      'the new password works at once',
    );
    assert.equal((await login('lock@example.com')).status, 401, 'the old password is gone');

    const [stored] = await api.db.orm.em
      .fork()
      .execute<{ password_hash: string }[]>(
        `select password_hash from users where email = 'lock@example.com'`,
      );
    assert.match(stored!.password_hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    assert.ok(!stored!.password_hash.includes(createHash('sha256').update(PASSWORD).digest('base64')));
  });
});
