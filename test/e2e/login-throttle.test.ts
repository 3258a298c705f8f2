import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { freePort } from '../../src/platform/runtime/ports.ts';
import { type CallResult, startTestApi, type TestApi } from '../support/api.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtp-receiver.ts';

const PASSWORD = 'the owner knows this one';

/**
 * Failed logins slow guessing down but never lock the owner out (issue 33, item 2), and neither login nor
 * registration tells which addresses have accounts.
 */
describe('login throttling without a lockout; no account enumeration', () => {
  let api: TestApi;
  let smtp: SmtpReceiver;
  let origin: string;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    const port = await freePort();
    // The test process is a trusted proxy, so X-Forwarded-For names the client (one office network, or several).
    api = await startTestApi({ PORT: String(port), SMTP_URL: smtp.url, TRUSTED_PROXIES: '127.0.0.1' });
    origin = `http://localhost:${port}`;
  });
  afterAll(async () => {
    await api?.close();
    await smtp?.close();
  });

  const registered = async (email: string) => {
    const answer = await api.call('POST', '/v1/auth/register', {
      body: { email, password: PASSWORD, companyName: 'Owner GmbH' },
    });
    assert.equal(answer.status, 201, answer.text);
    const link = new URL(await smtp.tokenLink(email, '/v1/auth/confirm'));
    assert.equal((await api.call('GET', `${link.pathname}${link.search}`, { env: null })).status, 200);
  };
  const deviceCookieOf = (answer: CallResult) =>
    answer.headers
      .getSetCookie()
      .find((c) => c.startsWith('dpp_device='))
      ?.split(';')[0];
  /** The API login from a client address, with a device cookie if the client kept one. */
  const login = (email: string, password: string, client: string, cookie?: string) =>
    api.call('POST', '/v1/auth/login', {
      body: { email, password },
      headers: { 'x-forwarded-for': client, ...(cookie ? { cookie } : {}) },
    });
  const consoleSignIn = (email: string, password: string, client: string, cookie?: string) =>
    api.call('POST', '/v1/console/session', {
      body: { email, password },
      headers: { origin, 'x-forwarded-for': client, ...(cookie ? { cookie } : {}) },
    });
  /** Time passes for the throttle: every stored failure and delay moves `seconds` into the past. */
  const elapse = (seconds: number) =>
    api.db.orm.em.fork().execute(
      `update login_throttle set last_failure_at = last_failure_at - make_interval(secs => ?),
         blocked_until = blocked_until - make_interval(secs => ?)`,
      [seconds, seconds],
    );
  /** `failures` wrong passwords from `client`, each once the previous delay is over: every one is checked. */
  const slowDown = async (emailFor: (i: number) => string, client: string, failures: number) => {
    for (let i = 0; i < failures; i++) {
      await elapse(30);
      const answer = await login(emailFor(i), `wrong guess number ${i}`, client);
      assert.equal(answer.status, 401, answer.text);
    }
  };
  /** The problem body without what differs on every request. */
  const comparable = (answer: CallResult) => {
    const { requestId: _requestId, ...rest } = answer.body ?? {};
    return { status: answer.status, body: rest, cookies: answer.headers.getSetCookie().length };
  };

  test("someone else's wrong passwords, even from the owner's network, never keep the owner out", async () => {
    const owner = 'owner@throttle.example';
    const office = '198.51.100.20';
    await registered(owner);
    const first = await login(owner, PASSWORD, office);
    assert.equal(first.status, 200, first.text);
    const device = deviceCookieOf(first);

    // A colleague's machine in the same office (same public address) guesses a dozen times.
    for (let i = 0; i < 12; i++) await login(owner, `guess number ${i} ok`, office);

    const known = await login(owner, PASSWORD, office, device);
    assert.equal(known.status, 200, `the owner's known device is let in at once: ${known.text}`);
    const consoleKnown = await consoleSignIn(owner, PASSWORD, office, device);
    assert.equal(consoleKnown.status, 200, `and so is the console sign-in: ${consoleKnown.text}`);
    assert.ok(device, 'a successful login hands the client a known-device cookie');
    const attributes = first.headers
      .getSetCookie()
      .find((c) => c.startsWith('dpp_device='))!
      .toLowerCase()
      .split(';')
      .map((a) => a.trim());
    assert.ok(attributes.includes('httponly') && attributes.includes('samesite=strict'));

    // Guessing goes on until the account waits the longest delay: a new device now waits like the guesser ...
    await slowDown(() => owner, '203.0.113.9', 10);
    const newDevice = await login(owner, PASSWORD, office);
    const wrong = await login(owner, 'surely not this one', office);
    assert.equal(newDevice.status, 401, 'during a delay the right password is not even looked at');
    assert.deepEqual(comparable(newDevice), comparable(wrong));
    // ... but never for more than the cap: half a minute later the owner is in, from anywhere.
    await elapse(30);
    const later = await consoleSignIn(owner, PASSWORD, office);
    assert.equal(later.status, 200, later.text);
    assert.ok(deviceCookieOf(later), 'the console sign-in hands out a known-device cookie too');

    // A device cookie of another account (or a made-up one) exempts nobody.
    const stranger = 'stranger@throttle.example';
    await registered(stranger);
    const strangerDevice = deviceCookieOf(await login(stranger, PASSWORD, '192.0.2.1'));
    assert.ok(strangerDevice);
    await slowDown(() => owner, '203.0.113.9', 10);
    assert.equal((await login(owner, PASSWORD, office, strangerDevice)).status, 401);
    assert.equal((await login(owner, PASSWORD, office, 'dpp_device=made-up-token')).status, 401);
    assert.equal(
      (await login(owner, PASSWORD, office, device)).status,
      200,
      'the owner’s own device still is',
    );
  });

  test('guesses sent in parallel take turns: only the free ones are checked', async () => {
    const owner = 'parallel@throttle.example';
    await registered(owner);
    const burst = await Promise.all(
      Array.from({ length: 16 }, (_, i) => login(owner, `parallel guess ${i}`, '203.0.113.77')),
    );
    assert.ok(burst.every((answer) => answer.status === 401));
    // Sixteen checked failures would mean a 30 s wait; five (and a straggler or two) mean a few seconds.
    await elapse(8);
    assert.equal((await login(owner, PASSWORD, '192.0.2.77')).status, 200);
  });

  test('while guessing goes on, a password reset lets the owner in from a new device at once', async () => {
    const owner = 'resetter@throttle.example';
    await registered(owner);
    await slowDown(() => owner, '203.0.113.50', 10);
    assert.equal((await login(owner, PASSWORD, '192.0.2.60')).status, 401, 'a new device waits');
    await api.call('POST', '/v1/auth/password/reset-request', { body: { email: owner } });
    const token = new URL(await smtp.tokenLink(owner, '/reset-password', 1)).searchParams.get('token')!;
    const reset = await api.call('POST', '/v1/auth/password/reset', {
      env: null,
      body: { token, password: 'a fresh password for me' },
    });
    assert.equal(reset.status, 200, reset.text);
    assert.equal((await login(owner, 'a fresh password for me', '192.0.2.60')).status, 200);
  });

  test('one client guessing many addresses is slowed down as a client', async () => {
    const target = 'sprayed@throttle.example';
    await registered(target);
    const sprayer = '198.51.100.66';
    await slowDown((i) => `nobody${i}@throttle.example`, sprayer, 25);
    const fromSprayer = await login(target, PASSWORD, sprayer);
    assert.equal(fromSprayer.status, 401, 'the spraying client waits, whatever it tries');
    assert.equal((await login(target, PASSWORD, '198.51.100.67')).status, 200, 'others do not');
    await elapse(30);
    assert.equal((await login(target, PASSWORD, sprayer)).status, 200, 'and only for a while');
  });

  test('an unknown address, a wrong password and a delayed attempt get the same answer after the same work', async () => {
    const accounts = ['alike1@throttle.example', 'alike2@throttle.example', 'alike3@throttle.example'];
    for (const email of accounts) await registered(email);
    // alike3 is slowed down to the longest delay.
    await slowDown(() => accounts[2]!, '192.0.2.200', 10);
    await login('warm-up@throttle.example', 'the decoy hash is made once', '192.0.2.1');

    const times = { unknown: [] as number[], wrong: [] as number[], delayed: [] as number[] };
    const timed = async (kind: keyof typeof times, run: () => Promise<CallResult>) => {
      const start = performance.now();
      const answer = await run();
      times[kind].push(performance.now() - start);
      return answer;
    };
    const answers: CallResult[] = [];
    for (let i = 0; i < 8; i++) {
      const client = `192.0.2.${10 + i}`;
      answers.push(
        await timed('unknown', () => login(`nobody-${i}@throttle.example`, 'a wrong password', client)),
        await timed('wrong', () => login(accounts[i % 2]!, 'a wrong password', client)),
        await timed('delayed', () => login(accounts[2]!, 'a wrong password', client)),
      );
    }
    const consoleAnswers = [
      await consoleSignIn('nobody-c@throttle.example', 'a wrong password', '192.0.2.30'),
      await consoleSignIn(accounts[0]!, 'a wrong password', '192.0.2.31'),
      await consoleSignIn(accounts[2]!, PASSWORD, '192.0.2.32'),
    ];
    for (const answer of answers) assert.deepEqual(comparable(answer), comparable(answers[1]!), answer.text);
    for (const answer of consoleAnswers) {
      assert.deepEqual(comparable(answer), comparable(consoleAnswers[1]!), answer.text);
      assert.equal(answer.body.detail, answers[0]!.body.detail);
    }
    assert.equal(answers[0]!.status, 401);
    assert.equal(answers[0]!.body.code, 'invalid_credentials');
    assert.doesNotMatch(answers[0]!.body.detail, /lock|until|\d{4}-\d\d-\d\d/i);

    // The same argon2id verification on every path: the medians stay within a generous factor of each other
    // (skipping the hash would make a delayed answer several times faster).
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const reference = median(times.wrong);
    for (const kind of ['unknown', 'delayed'] as const) {
      const ratio = median(times[kind]) / reference;
      assert.ok(ratio > 0.5 && ratio < 2, `${kind}: median ${median(times[kind])} ms vs ${reference} ms`);
    }
  });

  test('registering a known address answers as for a new one and mails the owner instead', async () => {
    const email = 'taken@throttle.example';
    const fresh = await api.call('POST', '/v1/auth/register', {
      body: { email, password: PASSWORD, companyName: 'First Owner' },
    });
    const again = await api.call('POST', '/v1/auth/register', {
      body: { email: 'Taken@Throttle.example', password: 'an impostor password', companyName: 'Impostor' },
    });
    assert.equal(again.status, fresh.status, again.text);
    assert.equal(again.status, 201);
    assert.deepEqual(Object.keys(again.body).sort(), Object.keys(fresh.body).sort());
    assert.equal(again.body.message, fresh.body.message);
    assert.equal(typeof again.body.userId, 'number');
    assert.notEqual(again.body.userId, fresh.body.userId);

    const notice = await smtp.mailTo(email, 1);
    assert.match(notice.text, /Subject: .*register/i);
    assert.match(notice.text, /someone tried to register/i);
    assert.match(notice.text, /reset-password|password\/reset|forgot/i);
    assert.doesNotMatch(notice.text, /\/v1\/auth\/confirm\?token=/, 'no way in is mailed');

    // Nothing changed: one company, the first password, still unconfirmed until the first link is followed.
    const em = api.db.orm.em.fork();
    const companies = await em.execute<{ name: string }[]>(
      `select c.name from companies c join users u on u.company_id = c.id where u.email = ?`,
      [email],
    );
    assert.deepEqual(
      companies.map((c) => c.name),
      ['First Owner'],
    );
    assert.equal((await em.execute(`select 1 from companies where name = 'Impostor'`)).length, 0);
    const link = new URL(await smtp.tokenLink(email, '/v1/auth/confirm'));
    assert.equal((await api.call('GET', `${link.pathname}${link.search}`, { env: null })).status, 200);
    assert.equal((await login(email, PASSWORD, '192.0.2.90')).status, 200);
    assert.equal((await login(email, 'an impostor password', '192.0.2.91')).status, 401);
  });
});
