import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { hashPassword } from '../../src/accounts/identity/passwords.ts';
import { freePort } from '../../src/platform/runtime/ports.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtp-receiver.ts';

const PASSWORD = 'team members need long passwords';

/** Settings > Team over HTTP: owners give roles, a company keeps an owner, other companies' people are unseen. */
describe('team roles', () => {
  let api: TestApi;
  let smtp: SmtpReceiver;
  let origin: string;
  const cookies: Record<string, string> = {};
  const ids: Record<string, number> = {};

  /** A confirmed account that registered its own company (so it owns it). */
  const register = async (email: string, companyName: string) => {
    assert.equal(
      (await api.call('POST', '/v1/auth/register', { body: { email, password: PASSWORD, companyName } }))
        .status,
      201,
    );
    const link = new URL(await smtp.tokenLink(email, '/v1/auth/confirm'));
    assert.equal((await api.call('GET', `${link.pathname}${link.search}`, { env: null })).status, 200);
  };
  const signIn = async (email: string) => {
    const res = await api.call('POST', '/v1/console/session', {
      body: { email, password: PASSWORD },
      headers: { origin },
    });
    assert.equal(res.status, 200, res.text);
    cookies[email] = res.headers.getSetCookie()[0]!.split(';')[0]!;
    ids[email] = res.body.user.id;
  };
  const as = (email: string, method: string, path: string, body?: unknown) =>
    api.call(method, path, { body, headers: { cookie: cookies[email]!, origin } });

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    const port = await freePort();
    api = await startTestApi({ PORT: String(port), SMTP_URL: smtp.url });
    origin = `http://localhost:${port}`;
    await register('owner@team.example', 'Team Co');
    await register('owner@other.example', 'Other Co');
    const em = api.db.orm.em.fork();
    const [company] = await em.execute<{ company_id: string }[]>(
      'select company_id from users where email = ?',
      ['owner@team.example'],
    );
    // Invitations are not built yet: a second person joins the way SSO provisions them, as a viewer.
    await em.execute(
      `insert into users (company_id, email, password_hash, email_confirmed_at, created_at) values (?, ?, ?, now(), now())`,
      [company!.company_id, 'newcomer@team.example', await hashPassword(PASSWORD)],
    );
    for (const email of ['owner@team.example', 'owner@other.example', 'newcomer@team.example'])
      await signIn(email);
  });
  afterAll(async () => {
    await api?.close();
    await smtp?.close();
  });

  test('everyone sees their own company’s people only', async () => {
    const listed = await as('newcomer@team.example', 'GET', '/v1/team/members');
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.members.map((m: { email: string; role: string; emailConfirmed: boolean }) => [
        m.email,
        m.role,
        m.emailConfirmed,
      ]),
      [
        ['owner@team.example', 'owner', true],
        ['newcomer@team.example', 'viewer', true],
      ],
    );
    const other = await as('owner@other.example', 'GET', '/v1/team/members');
    assert.deepEqual(
      other.body.members.map((m: { email: string }) => m.email),
      ['owner@other.example'],
    );
    // API keys are not people: the team takes a person's credential.
    const tenant = await api.createTenant('Keys Only');
    assert.equal((await api.call('GET', '/v1/team/members', { key: tenant.testKey })).status, 401);
  });

  test('only an owner gives roles; the change holds on the person’s next request', async () => {
    const newcomer = ids['newcomer@team.example']!;
    const refused = await as('newcomer@team.example', 'PATCH', `/v1/team/members/${newcomer}`, {
      role: 'owner',
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'role_forbidden');
    assert.equal(
      (await as('newcomer@team.example', 'POST', '/v1/auth/api-keys', { name: 'before' })).status,
      403,
      'a viewer creates no key',
    );

    const promoted = await as('owner@team.example', 'PATCH', `/v1/team/members/${newcomer}`, {
      role: 'developer',
    });
    assert.equal(promoted.status, 200, promoted.text);
    assert.equal(promoted.body.member.role, 'developer');
    // The same console session, now a developer: keys may be created.
    assert.equal(
      (await as('newcomer@team.example', 'POST', '/v1/auth/api-keys', { name: 'after' })).status,
      201,
    );
    assert.equal(
      (await as('newcomer@team.example', 'GET', '/v1/console/session')).body.user.role,
      'developer',
    );
  });

  test('the company keeps an owner; another company’s people and bad input are refused', async () => {
    const owner = ids['owner@team.example']!;
    const last = await as('owner@team.example', 'PATCH', `/v1/team/members/${owner}`, { role: 'viewer' });
    assert.equal(last.status, 409);
    assert.equal(last.body.code, 'last_owner');

    const foreign = await as(
      'owner@team.example',
      'PATCH',
      `/v1/team/members/${ids['owner@other.example']}`,
      {
        role: 'viewer',
      },
    );
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'member_not_found');
    const [otherRole] = await api.db.orm.em
      .fork()
      .execute<{ role: string }[]>('select role from users where email = ?', ['owner@other.example']);
    assert.equal(otherRole!.role, 'owner', 'nothing changed in the other company');

    assert.equal(
      (await as('owner@team.example', 'PATCH', `/v1/team/members/${owner}`, { role: 'admin' })).status,
      400,
    );
    assert.equal(
      (await as('owner@team.example', 'PATCH', '/v1/team/members/abc', { role: 'viewer' })).status,
      400,
    );
    assert.equal(
      (await as('owner@team.example', 'PATCH', '/v1/team/members/99999999999', { role: 'viewer' })).status,
      400,
    );

    // With a second owner the first may step down.
    const newcomer = ids['newcomer@team.example']!;
    assert.equal(
      (await as('owner@team.example', 'PATCH', `/v1/team/members/${newcomer}`, { role: 'owner' })).status,
      200,
    );
    const stepDown = await as('owner@team.example', 'PATCH', `/v1/team/members/${owner}`, {
      role: 'developer',
    });
    assert.equal(stepDown.status, 200);
    assert.equal(
      (await as('owner@team.example', 'PATCH', `/v1/team/members/${newcomer}`, { role: 'viewer' })).body.code,
      'role_forbidden',
      'no longer an owner',
    );
  });

  test('an owner invites a person by e-mail: they set a password from the mail and sign in with the role given', async () => {
    const email = 'invitee@team.example';
    // After the previous test the newcomer owns the company and its founder is a developer.
    const notOwner = await as('owner@team.example', 'POST', '/v1/team/invitations', {
      email,
      role: 'viewer',
    });
    assert.equal(notOwner.status, 403);
    assert.equal(notOwner.body.code, 'role_forbidden');
    const tenant = await api.createTenant('Keys Only Again');
    assert.equal(
      (
        await api.call('POST', '/v1/team/invitations', {
          key: tenant.testKey,
          body: { email, role: 'viewer' },
        })
      ).status,
      401,
    );

    const invited = await as('newcomer@team.example', 'POST', '/v1/team/invitations', {
      email,
      role: 'developer',
    });
    assert.equal(invited.status, 201, invited.text);
    assert.deepEqual(
      {
        email: invited.body.member.email,
        role: invited.body.member.role,
        confirmed: invited.body.member.emailConfirmed,
      },
      { email, role: 'developer', confirmed: false },
    );
    const mail = await smtp.mailTo(email);
    assert.match(mail.text, /Subject: newcomer@team\.example invited you to Team Co/);
    assert.match(mail.text, /as developer\./);
    // Not a member who can sign in yet: no password.
    const early = await api.call('POST', '/v1/console/session', {
      body: { email, password: PASSWORD },
      headers: { origin },
    });
    assert.equal(early.status, 401);

    // Invited again before accepting: a new link; the address is still one person.
    assert.equal(
      (await as('newcomer@team.example', 'POST', '/v1/team/invitations', { email, role: 'developer' }))
        .status,
      201,
    );
    const link = new URL(await smtp.tokenLink(email, '/reset-password', 1));
    const set = await api.call('POST', '/v1/auth/password/reset', {
      env: null,
      body: { token: link.searchParams.get('token'), password: PASSWORD },
    });
    assert.equal(set.status, 200, set.text);
    await signIn(email);
    assert.equal((await as(email, 'GET', '/v1/console/session')).body.user.role, 'developer');
    const members = (await as(email, 'GET', '/v1/team/members')).body.members as {
      email: string;
      role: string;
      emailConfirmed: boolean;
    }[];
    const joined = members.filter((m) => m.email === email);
    assert.deepEqual(
      joined.map((m) => [m.role, m.emailConfirmed]),
      [['developer', true]],
      'one person, confirmed by setting the password from the mail',
    );

    const taken = await as('newcomer@team.example', 'POST', '/v1/team/invitations', {
      email: 'owner@other.example',
      role: 'viewer',
    });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.code, 'email_already_registered');
    assert.equal(
      (
        await as('newcomer@team.example', 'POST', '/v1/team/invitations', {
          email: 'x@team.example',
          role: 'boss',
        })
      ).status,
      400,
    );
  });

  test('an owner removes a person: their console sessions end at once; the last owner stays', async () => {
    // After the previous tests: the newcomer is the only owner, the founder and the invitee are developers.
    const invitee = 'invitee@team.example';
    const inviteeId = ids[invitee]!;
    assert.equal((await as(invitee, 'GET', '/v1/console/session')).status, 200, 'signed in before');
    const byDeveloper = await as('owner@team.example', 'DELETE', `/v1/team/members/${inviteeId}`);
    assert.equal(byDeveloper.status, 403);
    assert.equal(byDeveloper.body.code, 'role_forbidden');
    const tenant = await api.createTenant('Keys Cannot Remove');
    assert.equal(
      (await api.call('DELETE', `/v1/team/members/${inviteeId}`, { key: tenant.testKey })).status,
      401,
    );

    const lastOwner = await as(
      'newcomer@team.example',
      'DELETE',
      `/v1/team/members/${ids['newcomer@team.example']}`,
    );
    assert.equal(lastOwner.status, 409);
    assert.equal(lastOwner.body.code, 'last_owner');
    const foreign = await as(
      'newcomer@team.example',
      'DELETE',
      `/v1/team/members/${ids['owner@other.example']}`,
    );
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'member_not_found');
    assert.equal((await as('newcomer@team.example', 'DELETE', '/v1/team/members/abc')).status, 400);
    // A cross-origin page cannot remove anyone with the owner's cookie.
    const forged = await api.call('DELETE', `/v1/team/members/${inviteeId}`, {
      headers: { cookie: cookies['newcomer@team.example']!, origin: 'https://evil.example' },
    });
    assert.equal(forged.status, 403);

    const removed = await as('newcomer@team.example', 'DELETE', `/v1/team/members/${inviteeId}`);
    assert.equal(removed.status, 200, removed.text);
    assert.equal(removed.body.member.email, invitee);
    const ended = await as(invitee, 'GET', '/v1/console/session');
    assert.equal(ended.status, 401, 'the removed person’s session ended');
    assert.equal(ended.body.code, 'session_ended');
    const again = await api.call('POST', '/v1/console/session', {
      body: { email: invitee, password: PASSWORD },
      headers: { origin },
    });
    assert.equal(again.status, 401, 'and they cannot sign in again');
    const members = (await as('newcomer@team.example', 'GET', '/v1/team/members')).body.members as {
      email: string;
    }[];
    assert.deepEqual(
      members.map((m) => m.email),
      ['owner@team.example', 'newcomer@team.example'],
    );
    assert.equal(
      (await as('newcomer@team.example', 'DELETE', `/v1/team/members/${inviteeId}`)).status,
      404,
      'removed once',
    );
  });
});
