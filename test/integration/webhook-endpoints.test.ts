import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { WebhookEndpoint } from '../../src/platform/db/entities/index.ts';
import { TENANT_FILTER } from '../../src/platform/db/tenant-scope.ts';
import { SecretBox } from '../../src/platform/secret-box.ts';
import { activeSigningSecrets } from '../../src/webhooks/endpoint-secrets.ts';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';

const PUBLIC_URL = 'https://93.184.215.14/hooks/dpp';

describe('webhook endpoints over HTTP', () => {
  let api: TestApi;
  let strictApi: TestApi;
  let acme: TestTenant;
  let globex: TestTenant;

  const loadEndpoint = (id: string) =>
    api.db.orm.em.fork().findOneOrFail(WebhookEndpoint, { id }, { filters: { [TENANT_FILTER]: false } });
  const secretsOf = async (id: string, at = new Date()) =>
    activeSigningSecrets(new SecretBox(undefined), await loadEndpoint(id), at);

  beforeAll(async () => {
    api = await startTestApi();
    strictApi = await startTestApi({ WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST: 'false' });
    acme = await api.createTenant('Acme');
    globex = await api.createTenant('Globex');
  });
  afterAll(async () => {
    await api.close();
    await strictApi.close();
  });

  test('create answers the endpoint and its secret once; the secret is sealed at rest', async () => {
    const res = await api.call('POST', '/v1/webhooks/endpoints', {
      key: acme.testKey,
      body: {
        url: 'http://127.0.0.1:4010/hook',
        description: 'ERP',
        eventTypes: ['asset.minted', 'asset.minted'],
      },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.success, true);
    assert.match(res.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const endpoint = res.body.endpoint;
    assert.deepEqual(Object.keys(endpoint).sort(), [
      'createdAt',
      'description',
      'disabledReason',
      'enabled',
      'eventTypes',
      'id',
      'secretRotation',
      'updatedAt',
      'url',
    ]);
    assert.equal(endpoint.url, 'http://127.0.0.1:4010/hook');
    assert.deepEqual(endpoint.eventTypes, ['asset.minted'], 'duplicates collapse');
    assert.equal(endpoint.enabled, true);
    assert.equal(endpoint.disabledReason, null);
    assert.equal(endpoint.secretRotation, null);
    assert.equal(res.headers.get('location'), `/v1/webhooks/endpoints/${endpoint.id}`);

    const rows = await api.db.orm.em
      .getConnection()
      .execute('select * from webhook_endpoints where id = ?', [endpoint.id]);
    assert.ok(!Buffer.from(rows[0]!.secret).includes(Buffer.from(res.body.secret)), 'not stored in clear');
    assert.deepEqual(
      await secretsOf(endpoint.id),
      [res.body.secret],
      'the sealed secret opens to the one shown',
    );

    const read = await api.call('GET', `/v1/webhooks/endpoints/${endpoint.id}`, { key: acme.testKey });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.endpoint, endpoint);
    const listed = await api.call('GET', '/v1/webhooks/endpoints', { key: acme.testKey });
    assert.ok(listed.body.endpoints.some((e: { id: string }) => e.id === endpoint.id));
    for (const text of [read.text, listed.text]) assert.ok(!text.includes('whsec_'), 'never shown again');
  });

  test('bad input is a 400 naming each field', async () => {
    const cases: [unknown, string][] = [
      [{ url: 'ftp://example.com/x' }, 'body.url'],
      [{ url: 'https://user:pw@example.com/x' }, 'body.url'],
      [{ url: `https://example.com/${'a'.repeat(2048)}` }, 'body.url'],
      [{ url: 'not a url' }, 'body.url'],
      [{ url: PUBLIC_URL, eventTypes: ['asset.exploded'] }, 'body.eventTypes.0'],
      [{ url: PUBLIC_URL, eventTypes: ['webhook.test'] }, 'body.eventTypes.0'],
      [{ url: PUBLIC_URL, secret: 'mine' }, 'body'],
      [{ url: PUBLIC_URL, enabled: 'yes' }, 'body.enabled'],
      [{}, 'body.url'],
    ];
    for (const [body, path] of cases) {
      const res = await api.call('POST', '/v1/webhooks/endpoints', { key: acme.testKey, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.code, 'validation_failed');
      assert.ok(
        res.body.errors.some((e: { path: string }) => e.path === path),
        `${JSON.stringify(body)} → ${JSON.stringify(res.body.errors)}`,
      );
    }
    const badId = await api.call('GET', '/v1/webhooks/endpoints/nope', { key: acme.testKey });
    assert.equal(badId.status, 400);
  });

  test('live refuses private, loopback and metadata targets with 422 webhook_url_not_allowed', async () => {
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://10.0.0.8/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[fd00:ec2::254]/',
      'http://[::ffff:192.168.0.1]/',
      'http://100.64.1.1/',
    ]) {
      const res = await api.call('POST', '/v1/webhooks/endpoints', {
        env: 'live',
        key: acme.liveKey,
        body: { url },
      });
      assert.equal(res.status, 422, url);
      assert.equal(res.body.code, 'webhook_url_not_allowed');
    }
    const ok = await api.call('POST', '/v1/webhooks/endpoints', {
      env: 'live',
      key: acme.liveKey,
      body: { url: PUBLIC_URL },
    });
    assert.equal(ok.status, 201, ok.text);
    const patched = await api.call('PATCH', `/v1/webhooks/endpoints/${ok.body.endpoint.id}`, {
      env: 'live',
      key: acme.liveKey,
      body: { url: 'http://192.168.1.10/hook' },
    });
    assert.equal(patched.status, 422, 'updates are checked too');
    const unchanged = await api.call('GET', `/v1/webhooks/endpoints/${ok.body.endpoint.id}`, {
      env: 'live',
      key: acme.liveKey,
    });
    assert.equal(unchanged.body.endpoint.url, PUBLIC_URL);
  });

  test('live refuses IPv6 forms embedding a non-public IPv4 and cloud metadata addresses, on create and update', async () => {
    const refusedUrls = [
      'http://[::a9fe:a9fe]/latest/meta-data', // IPv4-compatible ::169.254.169.254
      'http://[::127.0.0.1]:8080/', // IPv4-compatible loopback
      'http://[::ffff:0:a9fe:a9fe]/', // SIIT ::ffff:0:169.254.169.254
      'http://[::ffff:7f00:1]/', // IPv4-mapped, hex form
      'http://[64:ff9b::a00:1]/', // NAT64 of 10.0.0.1
      'http://[64:ff9b:1::1]/', // local-use NAT64: translation not knowable here
      'http://[2002:c0a8:101::1]/', // 6to4 of 192.168.1.1
      'http://[2001:0:a9fe:a9fe::1]/', // Teredo with a link-local server
      'http://168.63.129.16/machine', // Azure wire server (a public-range address)
      'http://100.100.100.200/latest/meta-data', // Alibaba Cloud metadata
      'http://[fd00:ec2::254]/latest/meta-data', // AWS metadata over IPv6
    ];
    const ok = await api.call('POST', '/v1/webhooks/endpoints', {
      env: 'live',
      key: acme.liveKey,
      body: { url: PUBLIC_URL },
    });
    assert.equal(ok.status, 201, ok.text);
    for (const url of refusedUrls) {
      const created = await api.call('POST', '/v1/webhooks/endpoints', {
        env: 'live',
        key: acme.liveKey,
        body: { url },
      });
      assert.equal(created.status, 422, `create ${url}: ${created.text}`);
      assert.equal(created.body.code, 'webhook_url_not_allowed');
      const patched = await api.call('PATCH', `/v1/webhooks/endpoints/${ok.body.endpoint.id}`, {
        env: 'live',
        key: acme.liveKey,
        body: { url },
      });
      assert.equal(patched.status, 422, `update ${url}: ${patched.text}`);
      assert.equal(patched.body.code, 'webhook_url_not_allowed');
    }
    // The same forms embedding a public IPv4 are ordinary public addresses.
    for (const url of ['http://[64:ff9b::5db8:d70e]/hooks', 'http://[2002:5db8:d70e::1]/hooks']) {
      const accepted = await api.call('PATCH', `/v1/webhooks/endpoints/${ok.body.endpoint.id}`, {
        env: 'live',
        key: acme.liveKey,
        body: { url },
      });
      assert.equal(accepted.status, 200, `${url}: ${accepted.text}`);
    }
  });

  test('test accepts local receivers unless WEBHOOK_ALLOW_PRIVATE_URLS_IN_TEST=false', async () => {
    const tenant = await strictApi.createTenant('Strict');
    const refused = await strictApi.call('POST', '/v1/webhooks/endpoints', {
      key: tenant.testKey,
      body: { url: 'http://localhost:3999/hook' },
    });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.code, 'webhook_url_not_allowed');
    const accepted = await api.call('POST', '/v1/webhooks/endpoints', {
      key: acme.testKey,
      body: { url: 'http://localhost:3999/hook' },
    });
    assert.equal(accepted.status, 201);
  });

  test('PATCH changes only what is sent; enabling clears the reason we disabled it', async () => {
    const created = await api.call('POST', '/v1/webhooks/endpoints', {
      key: acme.testKey,
      body: { url: PUBLIC_URL, description: 'first', eventTypes: ['asset.sold'] },
    });
    const id = created.body.endpoint.id;
    const renamed = await api.call('PATCH', `/v1/webhooks/endpoints/${id}`, {
      key: acme.testKey,
      body: { description: null, eventTypes: [] },
    });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.endpoint.description, null);
    assert.deepEqual(renamed.body.endpoint.eventTypes, [], 'empty: all event types');
    assert.equal(renamed.body.endpoint.url, PUBLIC_URL);
    assert.equal(renamed.body.endpoint.enabled, true);

    await api.db.orm.em
      .getConnection()
      .execute(
        `update webhook_endpoints set enabled = false, disabled_reason = 'Receiver answered 410 Gone' where id = ?`,
        [id],
      );
    const disabled = await api.call('GET', `/v1/webhooks/endpoints/${id}`, { key: acme.testKey });
    assert.equal(disabled.body.endpoint.enabled, false);
    assert.equal(disabled.body.endpoint.disabledReason, 'Receiver answered 410 Gone');
    const enabled = await api.call('PATCH', `/v1/webhooks/endpoints/${id}`, {
      key: acme.testKey,
      body: { enabled: true },
    });
    assert.equal(enabled.body.endpoint.enabled, true);
    assert.equal(enabled.body.endpoint.disabledReason, null);

    const strictExtra = await api.call('PATCH', `/v1/webhooks/endpoints/${id}`, {
      key: acme.testKey,
      body: { secret: 'x' },
    });
    assert.equal(strictExtra.status, 400);
  });

  test('rotation: new secret once, both sign during the overlap, overlap 0 retires the old one', async () => {
    const created = await api.call('POST', '/v1/webhooks/endpoints', {
      key: acme.testKey,
      body: { url: PUBLIC_URL },
    });
    const id = created.body.endpoint.id;
    const original = created.body.secret;

    const before = Date.now();
    const rotated = await api.call('POST', `/v1/webhooks/endpoints/${id}/rotate-secret`, {
      key: acme.testKey,
    });
    assert.equal(rotated.status, 200, 'the body is optional');
    assert.notEqual(rotated.body.secret, original);
    const expires = Date.parse(rotated.body.previousSecretExpiresAt);
    assert.ok(Math.abs(expires - (before + 86_400_000)) < 5_000, 'default overlap is one day');
    assert.deepEqual(await secretsOf(id), [rotated.body.secret, original], 'new first');
    assert.deepEqual(await secretsOf(id, new Date(expires + 1)), [rotated.body.secret], 'old one expires');
    const shown = await api.call('GET', `/v1/webhooks/endpoints/${id}`, { key: acme.testKey });
    assert.deepEqual(shown.body.endpoint.secretRotation, {
      previousSecretExpiresAt: rotated.body.previousSecretExpiresAt,
    });
    assert.ok(!shown.text.includes(rotated.body.secret));

    const third = await api.call('POST', `/v1/webhooks/endpoints/${id}/rotate-secret`, {
      key: acme.testKey,
      body: { overlapSeconds: 3600 },
    });
    assert.deepEqual(await secretsOf(id), [third.body.secret, rotated.body.secret], 'only two secrets sign');

    const now = await api.call('POST', `/v1/webhooks/endpoints/${id}/rotate-secret`, {
      key: acme.testKey,
      body: { overlapSeconds: 0 },
    });
    assert.equal(now.body.previousSecretExpiresAt, null);
    assert.deepEqual(await secretsOf(id), [now.body.secret]);
    const after = await api.call('GET', `/v1/webhooks/endpoints/${id}`, { key: acme.testKey });
    assert.equal(after.body.endpoint.secretRotation, null);

    for (const overlapSeconds of [-1, 604_801, 1.5]) {
      const bad = await api.call('POST', `/v1/webhooks/endpoints/${id}/rotate-secret`, {
        key: acme.testKey,
        body: { overlapSeconds },
      });
      assert.equal(bad.status, 400, String(overlapSeconds));
    }
  });

  test('concurrent rotations serialise: each predecessor stays valid as the previous secret', async () => {
    const created = await api.call('POST', '/v1/webhooks/endpoints', {
      key: acme.testKey,
      body: { url: PUBLIC_URL },
    });
    const id = created.body.endpoint.id;
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        api.call('POST', `/v1/webhooks/endpoints/${id}/rotate-secret`, { key: acme.testKey }),
      ),
    );
    const issued = results.map((r) => r.body.secret);
    const [current, previous] = await secretsOf(id);
    assert.ok(issued.includes(current!), 'the current secret is one that was handed out');
    assert.ok([created.body.secret, ...issued].includes(previous!));
    assert.notEqual(current, previous);
  });

  test('delete is soft: gone from the API, the row stays; deleting again is 404', async () => {
    const created = await api.call('POST', '/v1/webhooks/endpoints', {
      key: acme.testKey,
      body: { url: PUBLIC_URL },
    });
    const id = created.body.endpoint.id;
    const deleted = await api.call('DELETE', `/v1/webhooks/endpoints/${id}`, { key: acme.testKey });
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body, { success: true, message: 'Webhook endpoint deleted.', id });
    assert.equal((await api.call('GET', `/v1/webhooks/endpoints/${id}`, { key: acme.testKey })).status, 404);
    const listed = await api.call('GET', '/v1/webhooks/endpoints', { key: acme.testKey });
    assert.ok(!listed.body.endpoints.some((e: { id: string }) => e.id === id));
    for (const [method, path, body] of [
      ['DELETE', `/v1/webhooks/endpoints/${id}`, undefined],
      ['PATCH', `/v1/webhooks/endpoints/${id}`, { enabled: false }],
      ['POST', `/v1/webhooks/endpoints/${id}/rotate-secret`, {}],
    ] as const) {
      const res = await api.call(method, path, { key: acme.testKey, body });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(res.body.code, 'webhook_endpoint_not_found');
    }
    assert.ok((await loadEndpoint(id)).deletedAt, 'the row is kept with deletedAt');
  });

  test('isolation: other companies and the other environment see nothing', async () => {
    const created = await api.call('POST', '/v1/webhooks/endpoints', {
      key: acme.testKey,
      body: { url: PUBLIC_URL },
    });
    const id = created.body.endpoint.id;
    const other = await api.call('GET', '/v1/webhooks/endpoints', { key: globex.testKey });
    assert.deepEqual(other.body.endpoints, []);
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { enabled: false }],
      ['DELETE', undefined],
    ] as const) {
      const res = await api.call(method, `/v1/webhooks/endpoints/${id}`, { key: globex.testKey, body });
      assert.equal(res.status, 404, method);
    }
    const rotate = await api.call('POST', `/v1/webhooks/endpoints/${id}/rotate-secret`, {
      key: globex.testKey,
    });
    assert.equal(rotate.status, 404);
    const live = await api.call('GET', `/v1/webhooks/endpoints/${id}`, { env: 'live', key: acme.liveKey });
    assert.equal(live.status, 404, 'test endpoints are not live endpoints');
    const mismatch = await api.call('GET', '/v1/webhooks/endpoints', { env: 'live', key: acme.testKey });
    assert.equal(mismatch.status, 403);
    const anonymous = await api.call('GET', '/v1/webhooks/endpoints', {});
    assert.equal(anonymous.status, 401);
    assert.equal((await api.call('GET', `/v1/webhooks/endpoints/${id}`, { key: acme.testKey })).status, 200);
  });

  test('the OpenAPI document lists every webhook operation', async () => {
    const doc = await api.call('GET', '/openapi.json', { env: null });
    const paths = doc.body.paths;
    assert.ok(paths['/v1/webhooks/endpoints'].post);
    assert.ok(paths['/v1/webhooks/endpoints'].get);
    assert.ok(paths['/v1/webhooks/endpoints/{id}'].patch);
    assert.ok(paths['/v1/webhooks/endpoints/{id}'].delete);
    assert.equal(paths['/v1/webhooks/endpoints/{id}/rotate-secret'].post.requestBody.required, false);
    assert.ok(paths['/v1/webhooks/endpoints/{id}/test'].post);
    assert.ok(paths['/v1/webhooks/endpoints/{id}/deliveries'].get);
    assert.ok(paths['/v1/webhooks/events/{eventId}/deliveries'].get);
    assert.ok(paths['/v1/webhooks/dead-letters'].get);
    assert.ok(paths['/v1/webhooks/dead-letters/{deliveryId}/replay'].post);
    assert.equal(paths['/v1/webhooks/dead-letters/replay'].post.requestBody.required, true);
  });
});
