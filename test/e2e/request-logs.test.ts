import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { purgeOldEntries } from '../../src/accounts/request-log/store.ts';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';
import { waitUntil } from '../webhooks/support.ts';

const MAX_ROWS = 20;

/** Developers › Logs over HTTP: what is recorded, redacted, filtered, isolated, capped and purged. */
describe('the request log', () => {
  let api: TestApi;
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    api = await startTestApi({ REQUEST_LOG_MAX_ROWS: String(MAX_ROWS) });
    a = await api.createTenant('Alpha');
    b = await api.createTenant('Beta');
  });
  afterAll(async () => {
    await api?.close();
  });

  const as = (
    tenant: TestTenant,
    method: string,
    path: string,
    body?: unknown,
    env: 'test' | 'live' = 'test',
  ) => api.call(method, path, { key: env === 'test' ? tenant.testKey : tenant.liveKey, env, body });

  /** The tenant's log entries until one matches (entries are written within about a second). */
  const logged = async (
    tenant: TestTenant,
    query: string,
    match: (entry: Record<string, unknown>) => boolean,
  ) => {
    let found: Record<string, unknown> | undefined;
    await waitUntil(
      async () => {
        const page = await as(tenant, 'GET', `/v1/request-logs?${query}`);
        assert.equal(page.status, 200, page.text);
        found = (page.body.requestLogs as Record<string, unknown>[]).find(match);
        return found !== undefined;
      },
      10_000,
      `an entry of ${query}`,
    );
    return found!;
  };

  test('a failed call is recorded with its bodies, credentials redacted, and its request id', async () => {
    const failed = await as(a, 'PUT', '/v1/dpp/chip-keys', {
      sdmMetaReadKey: '00112233445566778899AABBCCDDEEFF',
      sdmFileReadKey: 'not hex',
    });
    assert.equal(failed.status, 400);
    const requestId = failed.headers.get('x-request-id')!;
    const summary = await logged(a, 'status=failed', (e) => e.requestId === requestId);
    assert.equal(summary.method, 'PUT');
    assert.equal(summary.path, '/v1/dpp/chip-keys');
    assert.equal(summary.status, 400);
    assert.equal(summary.errorCode, 'validation_failed');
    const credential = summary.credential as { kind: string; name: string; prefix: string };
    assert.equal(credential.kind, 'apiKey');
    assert.equal(credential.prefix, a.testKey.slice(0, 'sk_test_'.length + 8));

    const one = await as(a, 'GET', `/v1/request-logs/${summary.id}`);
    assert.equal(one.status, 200, one.text);
    const entry = one.body.requestLog;
    assert.deepEqual(JSON.parse(entry.requestBody.text), {
      sdmMetaReadKey: '[redacted]',
      sdmFileReadKey: '[redacted]',
    });
    assert.equal(JSON.parse(entry.responseBody.text).code, 'validation_failed');
    assert.equal(JSON.parse(entry.responseBody.text).requestId, requestId);
    assert.equal(entry.requestHeaders.authorization, `Bearer ${credential.prefix}…[redacted]`);
    assert.ok(!one.text.includes(a.testKey), 'the key itself is nowhere in the entry');
    assert.ok(!one.text.includes('00112233445566778899AABBCCDDEEFF'), 'nor the chip key');
  });

  test('a body with quotes, backslashes, SQL, other scripts and emoji is kept exactly as sent', async () => {
    const note = `say "hi" \\ back\\slash '); drop table request_logs; -- 東京 Ünïcödé 🙂 \u2028 tab\there`;
    const failed = await as(a, 'POST', '/v1/dpp/enroll', { chipUid: 'not a uid', note });
    assert.equal(failed.status, 400, failed.text);
    const requestId = failed.headers.get('x-request-id')!;
    const summary = await logged(a, 'status=failed', (e) => e.requestId === requestId);
    const one = await as(a, 'GET', `/v1/request-logs/${summary.id}`);
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(JSON.parse(one.body.requestLog.requestBody.text), { chipUid: 'not a uid', note });
  });

  test('secrets the API hands out are not in the log: a webhook secret, a new API key', async () => {
    const endpoint = await as(a, 'POST', '/v1/webhooks/endpoints', { url: 'https://hooks.alpha.example/in' });
    assert.equal(endpoint.status, 201, endpoint.text);
    const key = await as(a, 'POST', '/v1/auth/api-keys', { name: 'CI' });
    assert.equal(key.status, 201, key.text);
    for (const [path, secret] of [
      ['/v1/webhooks/endpoints', endpoint.body.secret as string],
      ['/v1/auth/api-keys', key.body.key as string],
    ] as const) {
      const summary = await logged(a, `method=POST&pathPrefix=${path}`, (e) => e.status === 201);
      const one = await as(a, 'GET', `/v1/request-logs/${summary.id}`);
      assert.ok(!one.text.includes(secret), `${path}: ${one.text}`);
      assert.match(one.body.requestLog.responseBody.text, /\[redacted\]/);
    }
  });

  test('filters: status class, method, path prefix, key', async () => {
    assert.equal((await as(a, 'GET', '/v1/webhooks/endpoints')).status, 200);
    await logged(
      a,
      'status=2xx&method=GET&pathPrefix=/v1/webhooks',
      (e) => e.path === '/v1/webhooks/endpoints',
    );
    const failed = await as(a, 'GET', '/v1/request-logs?status=failed');
    assert.ok(failed.body.requestLogs.every((e: { status: number }) => e.status >= 400));
    const posts = await as(a, 'GET', '/v1/request-logs?method=POST');
    assert.ok(posts.body.requestLogs.every((e: { method: string }) => e.method === 'POST'));
    const prefixed = await as(a, 'GET', '/v1/request-logs?pathPrefix=/v1/auth');
    assert.ok(prefixed.body.requestLogs.length > 0);
    assert.ok(prefixed.body.requestLogs.every((e: { path: string }) => e.path.startsWith('/v1/auth')));
    const keyId = prefixed.body.requestLogs[0].credential.apiKeyId;
    const byKey = await as(a, 'GET', `/v1/request-logs?apiKeyId=${keyId}`);
    assert.ok(byKey.body.requestLogs.length > 0);
    const none = await as(a, 'GET', `/v1/request-logs?apiKeyId=${crypto.randomUUID()}`);
    assert.deepEqual(none.body.requestLogs, []);
  });

  test('another company, or the other environment, sees none of it', async () => {
    const mine = await as(a, 'GET', '/v1/request-logs?limit=100');
    assert.ok(mine.body.requestLogs.length > 0);
    const id = mine.body.requestLogs[0].id;
    assert.equal((await as(b, 'GET', `/v1/request-logs/${id}`)).status, 404);
    assert.equal((await as(a, 'GET', `/v1/request-logs/${id}`, undefined, 'live')).status, 404);
    assert.deepEqual((await as(b, 'GET', '/v1/request-logs?limit=100')).body.requestLogs, []);
    assert.deepEqual(
      (await as(a, 'GET', '/v1/request-logs?limit=100', undefined, 'live')).body.requestLogs,
      [],
    );
  });

  test('traffic without a company is in no log (a refused key)', async () => {
    const bogus = await api.call('GET', '/v1/webhooks/endpoints', {
      key: `sk_test_${'x'.repeat(40)}`,
      headers: { 'x-request-id': 'refused-key-1' },
    });
    assert.equal(bogus.status, 401);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const [row] = await api.db.orm.em
      .fork()
      .execute<{ n: number }[]>(
        `select count(*)::int as n from request_logs where request_id = 'refused-key-1'`,
      );
    assert.equal(row!.n, 0);
  });

  test('each company keeps at most REQUEST_LOG_MAX_ROWS, the newest; the purge removes what is too old', async () => {
    for (let i = 0; i < MAX_ROWS + 10; i++)
      assert.equal((await as(b, 'GET', `/v1/webhooks/endpoints?n=${i}`)).status, 200);
    await logged(b, 'limit=1', (e) => e.path === '/v1/webhooks/endpoints');
    const count = async (tenant: TestTenant) => {
      const [row] = await api.db.orm.em
        .fork()
        .execute<{ n: number }[]>('select count(*)::int as n from request_logs where company_id = ?', [
          tenant.companyId,
        ]);
      return row!.n;
    };
    // Entries arrive in batches: the count passes the cap on its way up, so wait for the last call's entry too.
    const last = async () => {
      const [row] = await api.db.orm.em
        .fork()
        .execute<{ n: number }[]>(
          `select count(*)::int as n from request_logs where company_id = ? and query->>'n' = ?`,
          [b.companyId, String(MAX_ROWS + 9)],
        );
      return row!.n === 1;
    };
    await waitUntil(
      async () => (await last()) && (await count(b)) === MAX_ROWS,
      10_000,
      'B’s last call logged and its log trimmed to its cap',
    );
    const newest = await as(b, 'GET', '/v1/request-logs?limit=1');
    const one = await as(b, 'GET', `/v1/request-logs/${newest.body.requestLogs[0].id}`);
    assert.deepEqual(one.body.requestLog.query, { n: String(MAX_ROWS + 9) }, 'the newest stays');

    await api.db.orm.em
      .fork()
      .execute(`update request_logs set created_at = now() - interval '31 days' where company_id = ?`, [
        b.companyId,
      ]);
    const before = await count(a);
    assert.equal(await purgeOldEntries(api.db.orm.em.fork(), 30), MAX_ROWS);
    assert.equal(await count(b), 0);
    assert.equal(await count(a), before, 'A’s recent entries stay');
  });
});
