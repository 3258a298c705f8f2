import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { http, mailTo, ok } from './client.ts';

// A brand's first minutes: it registers, confirms its address from the mail it receives, logs in and sees the
// invisible wallet its account holds passports in.
describe('a brand signs up', () => {
  test('register → confirmation mail → confirm → log in → its wallet', async () => {
    const email = `founder.${Date.now()}@brand.example`;
    const password = 'correct horse battery staple';
    const registered = await http('POST', '/v1/auth/register', {
      body: { email, password, companyName: 'Journey Brand GmbH' },
    });
    assert.equal(registered.status, 201, registered.text);

    const tooEarly = await http('POST', '/v1/auth/login', { body: { email, password } });
    assert.equal(tooEarly.status, 403, `login before confirming: ${tooEarly.text}`);

    const mail = await mailTo(email);
    const link = /^(http\S+\/v1\/auth\/confirm\?token=\S+)$/m.exec(mail)?.[1];
    assert.ok(link, `the mail holds the confirmation link on a line of its own:\n${mail}`);
    const confirmed = await http('GET', link, { env: null, headers: { accept: 'text/html' } });
    assert.ok(
      confirmed.status < 400,
      `following the link: ${confirmed.status} ${confirmed.text.slice(0, 300)}`,
    );
    const again = await http('GET', link, { env: null });
    assert.ok(again.status >= 400, 'the link works once');

    const login = await ok(http('POST', '/v1/auth/login', { body: { email, password } }), 'login');
    assert.ok(login.token, JSON.stringify(login));
    const wallet = await ok(http('GET', '/v1/auth/wallet', { key: login.token }), 'wallet');
    assert.match(JSON.stringify(wallet), /0x[0-9a-fA-F]{40}/);

    const wrong = await http('POST', '/v1/auth/login', { body: { email, password: 'not the password' } });
    assert.equal(wrong.status, 401);
  });
});
