import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { consoleCookieFor, sessionCookieHeader } from '../../api/middleware/console-session.ts';
import { hashPassword } from '../../src/accounts/identity/passwords.ts';
import { freePort } from '../../src/platform/runtime/ports.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtp-receiver.ts';

const OWNER = 'owner@console.example';
const VIEWER = 'viewer@console.example';
const PASSWORD = 'correct horse battery staple';

/** The console's session over HTTP: cookie, CSRF defence, renewal, sign-out, and roles on the API keys. */
describe('web console session and roles', () => {
  let api: TestApi;
  let smtp: SmtpReceiver;
  let origin: string;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    const port = await freePort();
    api = await startTestApi({ PORT: String(port), SMTP_URL: smtp.url });
    origin = `http://localhost:${port}`;
  });
  afterAll(async () => {
    await api?.close();
    await smtp?.close();
  });

  /** A request as the console's page makes it: the cookie and its own Origin. */
  const asConsole = (cookie: string, method: string, path: string, body?: unknown, from = origin) =>
    api.call(method, path, { body, headers: { cookie, origin: from } });

  const cookieOf = (headers: Headers) => {
    const set = headers.getSetCookie().find((c) => c.startsWith('dpp_console='));
    assert.ok(set, 'a session cookie is set');
    return { header: set, pair: set.split(';')[0]! };
  };

  const signIn = async (email: string) => {
    const res = await api.call('POST', '/v1/console/session', {
      body: { email, password: PASSWORD },
      headers: { origin },
    });
    assert.equal(res.status, 200, res.text);
    return { ...cookieOf(res.headers), user: res.body.user };
  };

  let owner: { pair: string; header: string };

  test('sign up, confirm from the mail, sign in: an HttpOnly SameSite=Strict cookie, the first user owns', async () => {
    const registered = await api.call('POST', '/v1/auth/register', {
      body: { email: OWNER, password: PASSWORD, companyName: 'Console Co' },
    });
    assert.equal(registered.status, 201);
    const link = new URL(await smtp.tokenLink(OWNER, '/v1/auth/confirm'));
    // A browser following the link is sent to the console's sign-in page; an API client gets JSON.
    const fromBrowser = await api.call('GET', `${link.pathname}${link.search}`, {
      env: null,
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    assert.equal(fromBrowser.status, 303);
    assert.equal(fromBrowser.headers.get('location'), '/console/sign-in?email-confirmed=true');
    const used = await api.call('GET', `${link.pathname}${link.search}`, { env: null });
    assert.equal(used.status, 410, 'the link works once');
    assert.equal(used.body.code, 'confirmation_link_invalid');
    const usedInBrowser = await api.call('GET', `${link.pathname}${link.search}`, {
      env: null,
      headers: { accept: 'text/html' },
    });
    assert.equal(usedInBrowser.headers.get('location'), '/console/sign-in?email-confirmed=false');

    // A sign-in posted from another origin (login CSRF) is refused before the password is looked at.
    const foreign = await api.call('POST', '/v1/console/session', {
      body: { email: OWNER, password: PASSWORD },
      headers: { origin: 'http://evil.example' },
    });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.body.code, 'cross_origin_refused');
    assert.equal(foreign.headers.getSetCookie().length, 0);

    const wrong = await api.call('POST', '/v1/console/session', {
      body: { email: OWNER, password: 'not the password at all' },
      headers: { origin },
    });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.code, 'invalid_credentials');

    const session = await signIn(OWNER);
    owner = session;
    assert.equal(session.user.role, 'owner');
    assert.equal(session.user.companyName, 'Console Co');
    const attributes = session.header.split(';').map((a) => a.trim().toLowerCase());
    assert.ok(attributes.includes('httponly'));
    assert.ok(attributes.includes('samesite=strict'));
    assert.ok(attributes.includes('path=/'));
    assert.ok(!attributes.includes('secure'), 'plain http on localhost: not Secure');
    assert.match(
      session.pair,
      /^dpp_console=dpp_sess_[\w-]{43}$/,
      'its own prefix: not an OAuth client secret (dpp_cs_)',
    );

    const me = await api.call('GET', '/v1/console/session', { headers: { cookie: session.pair } });
    assert.equal(me.status, 200);
    assert.deepEqual(me.body.user, {
      id: session.user.id,
      email: OWNER,
      companyName: 'Console Co',
      role: 'owner',
      // What the console offers follows these (ROLE_RIGHTS): an owner holds every right.
      rights: ['manageKeys', 'manageWebhooks', 'managePassports', 'manageTeam', 'manageCompany', 'read'],
    });
    assert.equal(me.headers.get('cache-control'), 'no-store');
    // The session is not bound to an environment: the console's switch names it per call.
    assert.equal(
      (await api.call('GET', '/v1/console/session', { env: 'live', headers: { cookie: session.pair } })).body
        .environment,
      'live',
    );
  });

  test('Secure and __Host- outside localhost', () => {
    const cookie = consoleCookieFor('https://dpp.example.com');
    assert.deepEqual(cookie, { name: '__Host-dpp_console', secure: true, origin: 'https://dpp.example.com' });
    assert.match(
      sessionCookieHeader(cookie, 'dpp_sess_x'),
      /^__Host-dpp_console=dpp_sess_x; .*HttpOnly; SameSite=Strict; Secure$/,
    );
  });

  test('an owner creates a test key with the session; the key works on the API; revoked, it stops', async () => {
    const created = await asConsole(owner.pair, 'POST', '/v1/auth/api-keys', { name: 'From the console' });
    assert.equal(created.status, 201, created.text);
    const key: string = created.body.key;
    assert.match(key, /^sk_test_/);

    const withKey = await api.call('GET', '/v1/auth/api-keys', { key });
    assert.equal(withKey.status, 200);
    const listed = await api.call('GET', '/v1/auth/api-keys?details=true', {
      headers: { cookie: owner.pair },
    });
    const mine = listed.body.apiKeys.find((k: { id: string }) => k.id === created.body.apiKey.id);
    assert.ok(mine.lastUsedAt, 'the list shows when the key was last used');
    assert.equal(mine.prefix, created.body.apiKey.prefix);

    // The same write from another origin (a sibling subdomain is same-site, so SameSite alone would not stop it).
    const forged = await asConsole(
      owner.pair,
      'DELETE',
      `/v1/auth/api-keys/${mine.id}`,
      undefined,
      'http://app.localhost:1',
    );
    assert.equal(forged.status, 403);
    assert.equal(forged.body.code, 'cross_origin_refused');
    assert.equal(
      (await api.call('GET', '/v1/auth/api-keys', { key })).status,
      200,
      'the forged revoke did nothing',
    );

    // A page elsewhere cannot even send the x-service-env header every /v1 call needs: its preflight is refused.
    const preflight = await api.call('OPTIONS', `/v1/auth/api-keys/${mine.id}`, {
      env: null,
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'DELETE',
        'access-control-request-headers': 'x-service-env',
      },
    });
    assert.equal(preflight.headers.get('access-control-allow-origin'), null);
    assert.equal(preflight.headers.get('access-control-allow-headers'), null);

    const revoked = await asConsole(owner.pair, 'DELETE', `/v1/auth/api-keys/${mine.id}`);
    assert.equal(revoked.status, 200);
    const refused = await api.call('GET', '/v1/auth/api-keys', { key });
    assert.equal(refused.status, 401);

    // A live key needs the live environment named: the session works there too, and keys stay apart.
    const live = await asConsole(owner.pair, 'POST', '/v1/auth/api-keys', { name: 'Live' });
    assert.equal(live.status, 201);
    const liveCreated = await api.call('POST', '/v1/auth/api-keys', {
      env: 'live',
      body: { name: 'Live one' },
      headers: { cookie: owner.pair, origin },
    });
    assert.match(liveCreated.body.key, /^sk_live_/);
  });

  test('a viewer sees the keys but cannot create or revoke them (cookie and user token alike)', async () => {
    const [company] = await api.db.orm.em
      .fork()
      .execute<{ company_id: string }[]>('select company_id from users where email = ?', [OWNER]);
    await api.db.orm.em.fork().execute(
      `insert into users (company_id, email, password_hash, email_confirmed_at, role, created_at)
       values (?, ?, ?, now(), 'viewer', now())`,
      [company!.company_id, VIEWER, await hashPassword(PASSWORD)],
    );
    const viewer = await signIn(VIEWER);
    assert.equal(viewer.user.role, 'viewer');
    const list = await api.call('GET', '/v1/auth/api-keys', { headers: { cookie: viewer.pair } });
    assert.equal(list.status, 200);
    assert.ok(list.body.apiKeys.length >= 1);
    const create = await asConsole(viewer.pair, 'POST', '/v1/auth/api-keys', { name: 'Nope' });
    assert.equal(create.status, 403);
    assert.equal(create.body.code, 'role_forbidden');
    assert.equal(create.headers.get('content-type'), 'application/problem+json');
    const revoke = await asConsole(viewer.pair, 'DELETE', `/v1/auth/api-keys/${list.body.apiKeys[0].id}`);
    assert.equal(revoke.status, 403);

    const token = (await api.call('POST', '/v1/auth/login', { body: { email: VIEWER, password: PASSWORD } }))
      .body.token;
    const byToken = await api.call('POST', '/v1/auth/api-keys', { key: token, body: { name: 'Nope' } });
    assert.equal(byToken.status, 403);
    assert.equal(byToken.body.code, 'role_forbidden');
    assert.equal((await api.call('GET', '/v1/auth/api-keys', { key: token })).status, 200);
    const ownerToken = (
      await api.call('POST', '/v1/auth/login', { body: { email: OWNER, password: PASSWORD } })
    ).body.token;
    assert.equal(
      (await api.call('POST', '/v1/auth/api-keys', { key: ownerToken, body: { name: 'By token' } })).status,
      201,
    );
  });

  test('OAuth clients with the session: an owner creates one whose token works, a viewer cannot, revoked it stops', async () => {
    const created = await asConsole(owner.pair, 'POST', '/v1/auth/oauth/clients', { name: 'ERP connector' });
    assert.equal(created.status, 201, created.text);
    const { clientId } = created.body.client;
    const token = await api.call('POST', '/v1/auth/oauth/token', {
      body: {
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: created.body.clientSecret,
      },
    });
    assert.equal(token.status, 200, token.text);
    const access = token.body.access_token;
    assert.equal((await api.call('GET', '/v1/auth/api-keys', { key: access })).status, 200);

    const viewer = await signIn(VIEWER);
    const listed = await api.call('GET', '/v1/auth/oauth/clients', { headers: { cookie: viewer.pair } });
    assert.equal(listed.status, 200);
    assert.ok(listed.body.clients.some((c: { clientId: string }) => c.clientId === clientId));
    const refused = await asConsole(viewer.pair, 'POST', '/v1/auth/oauth/clients', { name: 'Nope' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'role_forbidden');
    const notRevoked = await asConsole(
      viewer.pair,
      'DELETE',
      `/v1/auth/oauth/clients/${created.body.client.id}`,
    );
    assert.equal(notRevoked.status, 403);

    const revoked = await asConsole(owner.pair, 'DELETE', `/v1/auth/oauth/clients/${created.body.client.id}`);
    assert.equal(revoked.status, 200);
    assert.equal((await api.call('GET', '/v1/auth/api-keys', { key: access })).status, 401);
  });

  test('webhooks with the session: owners and developers change them, viewers only read', async () => {
    const created = await asConsole(owner.pair, 'POST', '/v1/webhooks/endpoints', {
      url: 'https://hooks.example.com/dpp',
      eventTypes: ['asset.minted'],
    });
    assert.equal(created.status, 201, created.text);
    assert.match(created.body.secret, /^whsec_/);
    const id = created.body.endpoint.id;

    const viewer = await signIn(VIEWER);
    const read = await api.call('GET', `/v1/webhooks/endpoints/${id}`, { headers: { cookie: viewer.pair } });
    assert.equal(read.status, 200);
    assert.equal(
      (await api.call('GET', '/v1/webhooks/dead-letters', { headers: { cookie: viewer.pair } })).status,
      200,
    );
    for (const [method, path, body] of [
      ['POST', '/v1/webhooks/endpoints', { url: 'https://hooks.example.com/nope' }],
      ['PATCH', `/v1/webhooks/endpoints/${id}`, { enabled: false }],
      ['POST', `/v1/webhooks/endpoints/${id}/rotate-secret`, {}],
      ['DELETE', `/v1/webhooks/endpoints/${id}`, undefined],
      ['POST', `/v1/webhooks/dead-letters/${crypto.randomUUID()}/replay`, undefined],
    ] as const) {
      const refused = await asConsole(viewer.pair, method, path, body);
      assert.equal(refused.status, 403, `${method} ${path}: ${refused.text}`);
      assert.equal(refused.body.code, 'role_forbidden');
    }
    const disabled = await asConsole(owner.pair, 'PATCH', `/v1/webhooks/endpoints/${id}`, { enabled: false });
    assert.equal(disabled.status, 200, disabled.text);
    assert.equal(disabled.body.endpoint.enabled, false);
    assert.equal((await asConsole(owner.pair, 'DELETE', `/v1/webhooks/endpoints/${id}`)).status, 200);
  });

  test('the secret is renewed after 15 minutes; a superseded secret presented later ends the session', async () => {
    const session = await signIn(OWNER);
    const em = api.db.orm.em.fork();
    await em.execute(
      `update console_sessions set rotated_at = now() - interval '16 minutes' where secret_hash = sha256(?::bytea)`,
      [session.pair.slice('dpp_console='.length)],
    );
    const renewal = await api.call('GET', '/v1/console/session', { headers: { cookie: session.pair } });
    assert.equal(renewal.status, 200);
    const renewed = cookieOf(renewal.headers).pair;
    assert.notEqual(renewed, session.pair);
    // In flight with the old secret a moment later: still accepted (grace), not renewed again.
    const inFlight = await api.call('GET', '/v1/console/session', { headers: { cookie: session.pair } });
    assert.equal(inFlight.status, 200);
    assert.equal(inFlight.headers.getSetCookie().length, 0);
    // Long after the renewal, the old secret means someone else holds it: the whole session ends.
    await em.execute(
      `update console_sessions set rotated_at = now() - interval '2 minutes' where secret_hash = sha256(?::bytea)`,
      [renewed.slice('dpp_console='.length)],
    );
    const replayed = await api.call('GET', '/v1/console/session', { headers: { cookie: session.pair } });
    assert.equal(replayed.status, 401);
    assert.equal(replayed.body.code, 'session_ended');
    assert.match(replayed.headers.getSetCookie()[0]!, /^dpp_console=; Max-Age=0/);
    assert.equal(
      (await api.call('GET', '/v1/console/session', { headers: { cookie: renewed } })).status,
      401,
    );
  });

  test('an idle session ends after 30 minutes', async () => {
    const session = await signIn(OWNER);
    await api.db.orm.em
      .fork()
      .execute(
        `update console_sessions set last_seen_at = now() - interval '31 minutes' where secret_hash = sha256(?::bytea)`,
        [session.pair.slice('dpp_console='.length)],
      );
    assert.equal(
      (await api.call('GET', '/v1/console/session', { headers: { cookie: session.pair } })).status,
      401,
    );
  });

  test('sign out ends this session; sign out everywhere ends all of them', async () => {
    const first = await signIn(OWNER);
    const second = await signIn(OWNER);
    const out = await asConsole(first.pair, 'DELETE', '/v1/console/session');
    assert.equal(out.status, 200);
    assert.match(out.headers.getSetCookie()[0]!, /^dpp_console=; Max-Age=0/);
    assert.equal(
      (await api.call('GET', '/v1/console/session', { headers: { cookie: first.pair } })).status,
      401,
    );
    assert.equal(
      (await api.call('GET', '/v1/console/session', { headers: { cookie: second.pair } })).status,
      200,
    );

    const third = await signIn(OWNER);
    const everywhere = await asConsole(third.pair, 'DELETE', '/v1/console/sessions');
    assert.equal(everywhere.status, 200);
    assert.ok(everywhere.body.ended >= 2);
    for (const s of [second, third]) {
      assert.equal(
        (await api.call('GET', '/v1/console/session', { headers: { cookie: s.pair } })).status,
        401,
      );
    }
    // Without a cookie or with a made-up one: 401, never a 500.
    assert.equal((await api.call('GET', '/v1/console/session')).status, 401);
    assert.equal(
      (await api.call('GET', '/v1/console/session', { headers: { cookie: 'dpp_console=dpp_sess_made-up' } }))
        .status,
      401,
    );
    assert.equal(
      (await api.call('GET', '/v1/console/session', { headers: { cookie: 'dpp_console=%00;;=' } })).status,
      401,
    );
  });

  test('/console: the built page with a strict CSP, its assets from the same origin', async () => {
    for (const path of ['/console', '/console/', '/console/settings/developers']) {
      const page = await api.call('GET', path, { env: null });
      assert.equal(page.status, 200, path);
      assert.match(page.headers.get('content-type')!, /^text\/html/);
      const csp = page.headers.get('content-security-policy')!;
      assert.match(csp, /script-src 'self'/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.doesNotMatch(page.text, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
      assert.doesNotMatch(page.text, /https?:\/\//, 'nothing from elsewhere');
    }
    const index = (await api.call('GET', '/console', { env: null })).text;
    const script = /<script type="module" crossorigin src="(\/console\/assets\/[^"]+\.js)"/.exec(index)![1]!;
    const asset = await api.call('GET', script, { env: null });
    assert.equal(asset.status, 200);
    assert.match(asset.headers.get('content-type')!, /^text\/javascript/);
    assert.match(asset.headers.get('cache-control')!, /immutable/);
    assert.equal((await api.call('GET', '/console/assets/missing.js', { env: null })).status, 404);
    const outside = await api.call('GET', '/console/assets/..%2F..%2Fpackage.json', { env: null });
    assert.doesNotMatch(outside.text, /"dependencies"/, 'no file outside the build is served');
    const post = await api.call('POST', '/console', { env: null });
    assert.equal(post.status, 405);
  });
});
