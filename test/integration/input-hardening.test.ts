import assert from 'node:assert/strict';
import { Agent } from 'node:http';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';
import { callFrom, rawExchange, stallingUpload } from '../support/raw-http.ts';

const TRUSTED_PROXY = '127.0.0.4';
const BODY_TIMEOUT_MS = 1000;

interface FieldError {
  path: string;
  message: string;
  code: string;
}

function assertFieldProblem(
  res: { status: number; headers: Headers; body: { code?: string; errors?: FieldError[] } },
  path: string,
  code: string,
): FieldError {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.headers.get('content-type'), 'application/problem+json');
  assert.equal(res.body.code, 'validation_failed');
  const error = res.body.errors?.find((e) => e.path === path);
  assert.ok(error, `errors[] names ${path}: ${JSON.stringify(res.body.errors)}`);
  assert.equal(error.code, code);
  return error;
}

describe('input the database cannot store, bounds and slow bodies', () => {
  let api: TestApi;
  let tenant: TestTenant;

  beforeAll(async () => {
    api = await startTestApi({
      BODY_READ_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
      TRUSTED_PROXIES: TRUSTED_PROXY,
    });
    tenant = await api.createTenant();
  });
  afterAll(() => api.close());

  test('POST /v1/erp/provision: NUL in material_number, order_id or metadata.name → 400 naming the field', async () => {
    const key = tenant.testKey;
    const erp = { material_number: 'MAT-4711', order_id: 'PO-2026-0042' };
    assertFieldProblem(
      await api.call('POST', '/v1/erp/provision', {
        key,
        body: { erp_metadata: { ...erp, material_number: 'MAT-\u00004711' } },
      }),
      'body.erp_metadata.material_number',
      'nul_character',
    );
    assertFieldProblem(
      await api.call('POST', '/v1/erp/provision', {
        key,
        body: { erp_metadata: { ...erp, order_id: '\u0000' } },
      }),
      'body.erp_metadata.order_id',
      'nul_character',
    );
    assertFieldProblem(
      await api.call('POST', '/v1/erp/provision', {
        key,
        body: { gtin: '04006381333931', metadata: { name: 'Trail Runner\u0000 GTX' } },
      }),
      'body.metadata.name',
      'nul_character',
    );
    const bulk = await api.call('POST', '/v1/erp/provision/bulk', {
      key,
      body: { items: [{ erp_metadata: erp }, { erp_metadata: { ...erp, order_id: 'PO-\ud800' } }] },
    });
    assertFieldProblem(bulk, 'body.items.1.erp_metadata.order_id', 'unpaired_surrogate');
    // The same requests without the NUL are fine, and nothing was stored by the refused ones.
    const ok = await api.call('POST', '/v1/erp/provision', { key, body: { erp_metadata: erp } });
    assert.equal(ok.status, 201, ok.text);
    const rows = (await api.db.orm.em
      .getConnection()
      .execute('select count(*)::int as count from asset_twins')) as { count: number }[];
    assert.equal(rows[0]?.count, 1);
  });

  test('POST /v1/factory/bind and /v1/iaas/log-event: NUL in service_internal_id / locationName → 400', async () => {
    const key = tenant.testKey;
    assertFieldProblem(
      await api.call('POST', '/v1/factory/bind', {
        key,
        body: { service_internal_id: 'svc_\u0000', hardware: { chip_uid: '04:DE:5F:1E:AC:C0:40' } },
      }),
      'body.service_internal_id',
      'nul_character',
    );
    const event = {
      tokenId: '1',
      action: 'SHIPPED',
      locationName: 'Hamburg\u0000 Port',
      latitude: 53.54,
      longitude: 9.98,
      metadata: { carrier: 'DHL', container: 'MSCU1234567' },
    };
    assertFieldProblem(
      await api.call('POST', '/v1/iaas/log-event', { key, body: event }),
      'body.locationName',
      'nul_character',
    );
    const badKey = await api.call('POST', '/v1/iaas/log-event', {
      key,
      body: { ...event, locationName: 'Hamburg', metadata: { 'lot\u0000': 'A1' } },
    });
    assertFieldProblem(badKey, 'body.metadata.lot\\u0000', 'nul_character');
  });

  test('webhook endpoint and API key texts: NUL in description (create and update) and name → 400', async () => {
    const key = tenant.testKey;
    const url = 'http://127.0.0.1:9/hooks/dpp';
    assertFieldProblem(
      await api.call('POST', '/v1/webhooks/endpoints', { key, body: { url, description: 'ERP\u0000 hook' } }),
      'body.description',
      'nul_character',
    );
    const created = await api.call('POST', '/v1/webhooks/endpoints', {
      key,
      body: { url, description: 'ERP' },
    });
    assert.equal(created.status, 201, created.text);
    const path = `/v1/webhooks/endpoints/${created.body.endpoint.id}`;
    assertFieldProblem(
      await api.call('PATCH', path, { key, body: { description: '\u0000' } }),
      'body.description',
      'nul_character',
    );
    const unchanged = await api.call('GET', path, { key });
    assert.equal(unchanged.status, 200, unchanged.text);
    assert.equal(unchanged.body.endpoint.description, 'ERP');

    assertFieldProblem(
      await api.call('POST', '/v1/auth/api-keys', { key, body: { name: 'CI deploy key\u0000' } }),
      'body.name',
      'nul_character',
    );
    assertFieldProblem(
      await api.call('POST', '/v1/auth/api-keys', { key, body: { name: 'CI \ud800 key' } }),
      'body.name',
      'unpaired_surrogate',
    );
    const keys = await api.call('GET', '/v1/auth/api-keys', { key });
    assert.equal(keys.body.apiKeys.length, 1, 'no key was created');
  });

  test('NUL in a query or path parameter → 400 naming it', async () => {
    assertFieldProblem(
      await api.call('GET', '/v1/iaas/events?tokenId=1%00', { key: tenant.testKey }),
      'query.tokenId',
      'nul_character',
    );
    assertFieldProblem(
      await api.call('GET', '/v1/aas/resolve/urn%3Aexample%00x', { key: tenant.testKey }),
      'path.id',
      'nul_character',
    );
  });

  test('metadata nested 10,000 levels deep → 400 naming the depth limit; 1,001 keys → 400 naming that limit', async () => {
    const deep = `${'{"level":'.repeat(9_999)}{}${'}'.repeat(9_999)}`;
    const rawBody = `{"tokenId":"1","action":"SHIPPED","locationName":"Hamburg","latitude":53.54,"longitude":9.98,"metadata":${deep}}`;
    assert.ok(rawBody.length < api.config.limits.jsonBodyBytes, 'under the body size limit');
    const res = await api.call('POST', '/v1/iaas/log-event', { key: tenant.testKey, rawBody });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'validation_failed');
    const [error] = res.body.errors as FieldError[];
    assert.equal(error?.code, 'too_deep');
    assert.ok(error?.path.startsWith('body.metadata.level.'), error?.path);
    assert.match(error?.message ?? '', /at most 32 levels/);

    const wide = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`attr${i}`, i]));
    const many = await api.call('POST', '/v1/iaas/log-event', {
      key: tenant.testKey,
      body: {
        tokenId: '1',
        action: 'SHIPPED',
        locationName: 'Hamburg',
        latitude: 1,
        longitude: 1,
        metadata: wide,
      },
    });
    const tooMany = assertFieldProblem(many, 'body.metadata', 'too_many_keys');
    assert.match(tooMany.message, /at most 1000 keys/);
  });

  test('a body that stalls after 10 of 2,097,152 declared bytes → 408 problem, connection closed, within the bound', async () => {
    const result = await stallingUpload(
      api.http.port,
      '/v1/erp/provision/bulk',
      {
        'x-service-env': 'test',
        authorization: `Bearer ${tenant.testKey}`,
        'content-type': 'application/json',
      },
      2_097_152,
      '{"items":[',
    );
    assert.match(result.response, /^HTTP\/1\.1 408 /);
    assert.match(result.response, /content-type: application\/problem\+json/i);
    assert.match(result.response, /"code":"request_timeout"/);
    assert.ok(
      result.firstByteMs !== undefined && result.firstByteMs >= BODY_TIMEOUT_MS - 50,
      `${result.firstByteMs}`,
    );
    assert.ok(result.closedMs < BODY_TIMEOUT_MS + 3000, `closed after ${result.closedMs} ms`);
  });

  test('a stalled body nobody reads (refused before it) is cut by the server backstop', async () => {
    const result = await stallingUpload(
      api.http.port,
      '/v1/erp/provision/bulk',
      { 'x-service-env': 'test', authorization: 'Bearer sk_test_wrong', 'content-type': 'application/json' },
      2_097_152,
      '{"items":[',
    );
    assert.match(result.response, /^HTTP\/1\.1 401 /);
    // Node's requestTimeout (body timeout + 5 s, checked every second) closes the connection.
    assert.ok(result.closedMs < BODY_TIMEOUT_MS + 8000, `closed after ${result.closedMs} ms`);
  });

  test('1e309 anywhere in a body (nested in event metadata too) → 400 naming the field, not a 500', async () => {
    const key = tenant.testKey;
    const event = `{"tokenId":"1","action":"SHIPPED","locationName":"Hamburg","latitude":53.54,"longitude":9.98`;
    const nested = await api.call('POST', '/v1/iaas/log-event', {
      key,
      rawBody: `${event},"metadata":{"sensor":{"readings":[20.5,1e309]}}}`,
    });
    const error = assertFieldProblem(nested, 'body.metadata.sensor.readings.1', 'non_finite_number');
    assert.match(error.message, /finite/);
    assertFieldProblem(
      await api.call('POST', '/v1/iaas/log-event', { key, rawBody: `${event},"metadata":{"t":-1e309}}` }),
      'body.metadata.t',
      'non_finite_number',
    );
    assertFieldProblem(
      await api.call('POST', '/v1/iaas/log-event', {
        key,
        rawBody: `${event.replace('"latitude":53.54', '"latitude":1e400')}}`,
      }),
      'body.latitude',
      'non_finite_number',
    );
    assertFieldProblem(
      await api.call('POST', '/v1/erp/provision', {
        key,
        rawBody: '{"erp_metadata":{"material_number":"M-1","order_id":"P-1","weight":9e999}}',
      }),
      'body.erp_metadata.weight',
      'non_finite_number',
    );
  });

  test('a body cut short (the client ends its side before the declared length) → 408 problem, not silence', async () => {
    const head =
      'POST /v1/erp/provision/bulk HTTP/1.1\r\nhost: 127.0.0.1\r\nx-service-env: test\r\n' +
      `authorization: Bearer ${tenant.testKey}\r\ncontent-type: application/json\r\n`;
    const result = await rawExchange(api.http.port, `${head}content-length: 1000\r\n\r\n{"items":[`, {
      halfClose: true,
    });
    assert.match(result.response, /^HTTP\/1\.1 408 /);
    assert.match(result.response, /content-type: application\/problem\+json/i);
    assert.match(result.response, /"code":"request_timeout"/);
    assert.ok(result.closedMs < BODY_TIMEOUT_MS + 3000, `closed after ${result.closedMs} ms`);
  });

  test('a malformed chunked body → 400 problem, then the connection is closed', async () => {
    const head =
      'POST /v1/erp/provision/bulk HTTP/1.1\r\nhost: 127.0.0.1\r\nx-service-env: test\r\n' +
      `authorization: Bearer ${tenant.testKey}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`;
    for (const body of ['zz\r\n{"items":[]}\r\n0\r\n\r\n', '5\r\n{"ite\r\nnot-hex\r\nms":[]}\r\n0\r\n\r\n']) {
      const result = await rawExchange(api.http.port, head + body);
      assert.match(result.response, /^HTTP\/1\.1 400 /, JSON.stringify(body));
      assert.match(result.response, /content-type: application\/problem\+json/i);
      assert.match(result.response, /"code":"malformed_request"/);
      assert.ok(result.closedMs < 3000, `closed after ${result.closedMs} ms`);
    }
  });

  describe('rate limit per client address', () => {
    const agents: Agent[] = [];
    const agentFor = (localAddress: string) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 8, localAddress });
      agents.push(agent);
      return agent;
    };
    afterAll(() => {
      for (const agent of agents) agent.destroy();
    });

    /**
     * The bucket holds 600 and refills 10 a second while the flood runs, so a few more than 600 pass (as many
     * as refilled during the flood: the buckets are in PostgreSQL, so on a busy machine a flood takes seconds);
     * what matters is that the flood is cut off and stays cut off.
     */
    let floodMs = 0;
    function assertCutOff(statuses: number[], passed: number) {
      const through = statuses.filter((s) => s === passed).length;
      const limited = statuses.filter((s) => s === 429).length;
      const refilled = Math.ceil((floodMs / 1000) * 10);
      assert.ok(through >= 600 && through <= 600 + refilled, `${through} × ${passed} in ${floodMs} ms`);
      assert.equal(through + limited, statuses.length, `only ${passed} and 429: ${[...new Set(statuses)]}`);
      // Calls are counted, not ordered: 8 run at once and take the bucket's row lock in no fixed order.
    }

    /** Sends `count` requests (8 at a time) and answers their statuses in order. */
    async function flood(count: number, send: (i: number) => Promise<{ status: number }>): Promise<number[]> {
      const statuses: number[] = new Array(count);
      let next = 0;
      const started = Date.now();
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < count) {
            const i = next++;
            statuses[i] = (await send(i)).status;
          }
        }),
      );
      floodMs = Date.now() - started;
      return statuses;
    }

    test('650 calls with wrong API keys from one address: 401 up to the per-IP limit, then 429 with Retry-After', async () => {
      const agent = agentFor('127.0.0.2');
      const port = api.http.port;
      const statuses = await flood(650, (i) =>
        callFrom(agent, port, 'GET', '/v1/auth/api-keys', {
          'x-service-env': 'test',
          authorization: `Bearer sk_test_guess${i}`,
        }),
      );
      assertCutOff(statuses, 401);
      // Right after the flood the address stays refused: a token comes back every 100 ms, so of two calls in a
      // row at most the first may find one.
      const guess = () =>
        callFrom(agent, port, 'GET', '/v1/auth/api-keys', {
          'x-service-env': 'test',
          authorization: 'Bearer sk_test_another_guess',
        });
      let limited = await guess();
      if (limited.status === 401) limited = await guess();
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers['retry-after']) >= 1);
      assert.equal(JSON.parse(limited.body).code, 'rate_limited');
      // A genuine key from that address still has its own budget.
      const genuine = await callFrom(agent, port, 'GET', '/v1/auth/api-keys', {
        'x-service-env': 'test',
        authorization: `Bearer ${tenant.testKey}`,
      });
      assert.equal(genuine.status, 200);
    });

    test('a fresh X-Forwarded-For per request does not mint fresh buckets from an untrusted peer', async () => {
      const agent = agentFor('127.0.0.3');
      const statuses = await flood(650, (i) =>
        callFrom(agent, api.http.port, 'GET', '/healthz', {
          'x-forwarded-for': `198.51.${Math.floor(i / 250)}.${i % 250}`,
        }),
      );
      assertCutOff(statuses, 200);
    });

    test('behind a trusted proxy each forwarded client has its own bucket, and spoofed entries are ignored', async () => {
      const agent = agentFor(TRUSTED_PROXY);
      const port = api.http.port;
      const distinct = await flood(650, (i) =>
        callFrom(agent, port, 'GET', '/healthz', {
          'x-forwarded-for': `203.0.${Math.floor(i / 250)}.${i % 250}`,
        }),
      );
      assert.deepEqual(new Set(distinct), new Set([200]), 'distinct clients behind the proxy');
      // One client varying what it sends; the proxy appends the address it saw, the right-most entry.
      const spoofed = await flood(650, (i) =>
        callFrom(agent, port, 'GET', '/healthz', { 'x-forwarded-for': `10.${i % 250}.0.1, 192.0.2.77` }),
      );
      assertCutOff(spoofed, 200);
    });
  });
});
