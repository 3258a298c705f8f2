import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { hashApiKey } from '../../src/accounts/keys/api-key-format.ts';
import { RECENT_KEY_MS } from '../../src/accounts/keys/recent-keys.ts';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';
import { startApiProcess } from '../support/api-process.ts';

describe('API keys over HTTP', () => {
  let api: TestApi;
  let acme: TestTenant;
  let globex: TestTenant;

  beforeAll(async () => {
    api = await startTestApi();
    acme = await api.createTenant('Acme Apparel');
    globex = await api.createTenant('Globex Shoes');
  });
  afterAll(() => api.close());

  test('a test key lists the test keys of its company, exactly in the spec shape', async () => {
    const res = await api.call('GET', '/v1/auth/api-keys', { env: 'test', key: acme.testKey });
    assert.equal(res.status, 200);
    assert.equal(res.body.success, true);
    assert.equal(res.body.apiKeys.length, 1);
    const [key] = res.body.apiKeys;
    assert.deepEqual(Object.keys(key).sort(), ['createdAt', 'id', 'name', 'prefix']);
    assert.ok(acme.testKey.startsWith(key.prefix), 'prefix is the start of the key');
    assert.ok(key.prefix.length < acme.testKey.length / 2, 'prefix does not reveal the key');
    assert.match(key.prefix, /^sk_test_/);
    assert.ok(!Number.isNaN(Date.parse(key.createdAt)));
  });

  test('create returns the key once, the key works, and only its hash is stored', async () => {
    const created = await api.call('POST', '/v1/auth/api-keys', {
      key: acme.testKey,
      body: { name: 'ERP batch' },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.success, true);
    assert.match(created.body.key, /^sk_test_[0-9A-Za-z]{40}$/);
    assert.equal(created.body.apiKey.name, 'ERP batch');
    assert.equal(created.headers.get('location'), `/v1/auth/api-keys/${created.body.apiKey.id}`);

    const rows = await api.db.orm.em
      .getConnection()
      .execute('select * from api_keys where id = ?', [created.body.apiKey.id]);
    assert.equal(rows.length, 1);
    const stored = JSON.stringify(rows[0]);
    assert.ok(!stored.includes(created.body.key), 'the clear key is nowhere in the row');
    assert.equal(rows[0]!.secret_hash, hashApiKey(created.body.key));

    const listed = await api.call('GET', '/v1/auth/api-keys', { key: created.body.key });
    assert.equal(listed.status, 200);
    assert.ok(listed.body.apiKeys.some((k: { id: string }) => k.id === created.body.apiKey.id));
    assert.ok(!listed.text.includes(created.body.key), 'listing never shows the key');

    const details = await api.call('GET', `/v1/auth/api-keys/${created.body.apiKey.id}`, {
      key: acme.testKey,
    });
    assert.equal(details.status, 200);
    assert.notEqual(details.body.apiKey.lastUsedAt, null, 'lastUsedAt is kept');
  });

  test('revoked keys answer 401 with WWW-Authenticate and leave the listing', async () => {
    const created = await api.call('POST', '/v1/auth/api-keys', {
      key: acme.testKey,
      body: { name: 'temporary' },
    });
    const id = created.body.apiKey.id;
    const revoked = await api.call('DELETE', `/v1/auth/api-keys/${id}`, { key: acme.testKey });
    assert.equal(revoked.status, 200);
    assert.equal(revoked.body.success, true);
    assert.ok(revoked.body.apiKey.revokedAt);

    const again = await api.call('DELETE', `/v1/auth/api-keys/${id}`, { key: acme.testKey });
    assert.equal(again.status, 200, 'revoking twice is idempotent');
    assert.equal(again.body.apiKey.revokedAt, revoked.body.apiKey.revokedAt);

    const used = await api.call('GET', '/v1/auth/api-keys', { key: created.body.key });
    assert.equal(used.status, 401);
    assert.equal(used.body.code, 'unauthorized');
    assert.match(used.headers.get('www-authenticate') ?? '', /^Bearer /);

    const listed = await api.call('GET', '/v1/auth/api-keys', { key: acme.testKey });
    assert.ok(!listed.body.apiKeys.some((k: { id: string }) => k.id === id));
  });

  test('a key in use stops working as soon as it is revoked on this API process', async () => {
    const created = await api.call('POST', '/v1/auth/api-keys', {
      key: acme.testKey,
      body: { name: 'busy' },
    });
    for (let i = 0; i < 3; i++) {
      const used = await api.call('GET', '/v1/auth/api-keys', { key: created.body.key });
      assert.equal(used.status, 200);
    }
    await api.call('DELETE', `/v1/auth/api-keys/${created.body.apiKey.id}`, { key: acme.testKey });
    const after = await api.call('GET', '/v1/auth/api-keys', { key: created.body.key });
    assert.equal(after.status, 401, 'the very next call is refused');
  });

  test('another API process refuses a revoked key within two seconds, having used it a moment before', async () => {
    const other = await startApiProcess({
      DATABASE_URL: api.db.url,
      PUBLIC_BASE_URL: api.config.publicBaseUrl,
      IPFS_STORE_DIR: api.config.ipfs.storeDir,
    });
    try {
      const created = await api.call('POST', '/v1/auth/api-keys', {
        key: acme.testKey,
        body: { name: 'replica' },
      });
      const there = () =>
        fetch(`${other.url}/v1/auth/api-keys`, {
          headers: { authorization: `Bearer ${created.body.key}`, 'x-service-env': 'test' },
        });
      assert.equal((await there()).status, 200, 'the other process knows the key');
      await api.call('DELETE', `/v1/auth/api-keys/${created.body.apiKey.id}`, { key: acme.testKey });
      const revokedAt = Date.now();
      let status = 200;
      while (status === 200 && Date.now() - revokedAt < 10_000) {
        status = (await there()).status;
        if (status === 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(status, 401);
      assert.ok(Date.now() - revokedAt <= RECENT_KEY_MS + 500, `refused after ${Date.now() - revokedAt} ms`);
    } finally {
      await other.stop();
    }
  });

  test('environment isolation: keys only act in their own environment', async () => {
    const testOnLive = await api.call('GET', '/v1/auth/api-keys', { env: 'live', key: acme.testKey });
    assert.equal(testOnLive.status, 403);
    assert.equal(testOnLive.body.code, 'environment_mismatch');
    const createOnLive = await api.call('POST', '/v1/auth/api-keys', {
      env: 'live',
      key: acme.testKey,
      body: { name: 'sneaky' },
    });
    assert.equal(createOnLive.status, 403);
    const liveOnTest = await api.call('GET', '/v1/auth/api-keys', { env: 'test', key: acme.liveKey });
    assert.equal(liveOnTest.status, 403);

    const testListing = await api.call('GET', '/v1/auth/api-keys', { env: 'test', key: acme.testKey });
    assert.ok(testListing.body.apiKeys.every((k: { prefix: string }) => k.prefix.startsWith('sk_test_')));
    const liveListing = await api.call('GET', '/v1/auth/api-keys', { env: 'live', key: acme.liveKey });
    assert.equal(liveListing.status, 200);
    assert.ok(liveListing.body.apiKeys.length >= 1);
    assert.ok(liveListing.body.apiKeys.every((k: { prefix: string }) => k.prefix.startsWith('sk_live_')));

    const liveKeyId = liveListing.body.apiKeys[0].id;
    const revokeLiveFromTest = await api.call('DELETE', `/v1/auth/api-keys/${liveKeyId}`, {
      key: acme.testKey,
    });
    assert.equal(revokeLiveFromTest.status, 404, 'a test key cannot see or revoke a live key');
    const stillLive = await api.call('GET', '/v1/auth/api-keys', { env: 'live', key: acme.liveKey });
    assert.equal(stillLive.status, 200);
  });

  test('tenant isolation: one company can neither list nor revoke another company’s keys', async () => {
    const globexKeys = await api.call('GET', '/v1/auth/api-keys', { key: globex.testKey });
    const globexIds = globexKeys.body.apiKeys.map((k: { id: string }) => k.id);
    const acmeKeys = await api.call('GET', '/v1/auth/api-keys', { key: acme.testKey });
    for (const id of globexIds) {
      assert.ok(!acmeKeys.body.apiKeys.some((k: { id: string }) => k.id === id));
      const read = await api.call('GET', `/v1/auth/api-keys/${id}`, { key: acme.testKey });
      assert.equal(read.status, 404);
      const revoke = await api.call('DELETE', `/v1/auth/api-keys/${id}`, { key: acme.testKey });
      assert.equal(revoke.status, 404);
    }
    const stillWorks = await api.call('GET', '/v1/auth/api-keys', { key: globex.testKey });
    assert.equal(stillWorks.status, 200);
  });

  test('unknown, malformed and missing credentials answer 401 with a Bearer challenge', async () => {
    const forged = `sk_test_${'A'.repeat(40)}`;
    const tampered = `${acme.testKey.slice(0, -1)}${acme.testKey.endsWith('x') ? 'y' : 'x'}`;
    for (const key of [forged, 'not-a-key', tampered]) {
      const res = await api.call('GET', '/v1/auth/api-keys', { key });
      assert.equal(res.status, 401, key);
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer realm="dpp"/);
      assert.equal(res.headers.get('content-type'), 'application/problem+json');
    }
    const missing = await api.call('GET', '/v1/auth/api-keys', {});
    assert.equal(missing.status, 401);
    const basic = await api.call('GET', '/v1/auth/api-keys', {
      headers: { authorization: 'Basic Zm9vOmJhcg==' },
    });
    assert.equal(basic.status, 401);
  });
});
