import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { startTestApi, type TestApi, type TestTenant } from '../support/api.ts';

function assertProblem(
  res: { status: number; headers: Headers; body: Record<string, unknown> },
  status: number,
  code: string,
) {
  assert.equal(res.status, status);
  assert.equal(res.headers.get('content-type'), 'application/problem+json');
  assert.equal(res.body.status, status);
  assert.equal(res.body.code, code);
  assert.equal(res.body.success, false);
  assert.equal(typeof res.body.title, 'string');
  assert.equal(typeof res.body.detail, 'string');
  assert.equal(res.body.requestId, res.headers.get('x-request-id'));
  assert.ok(!JSON.stringify(res.body).includes('    at '), 'no stack trace');
}

/** A raw request, for what fetch will not send (TRACE) or send whole (a 20 KB URL). */
function request(
  baseUrl: string,
  method: string,
  path: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${path}`, { method, headers: { 'x-service-env': 'test' } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTP conventions', () => {
  let api: TestApi;
  let tenant: TestTenant;

  beforeAll(async () => {
    api = await startTestApi({ JSON_BODY_LIMIT_BYTES: '2048', RATE_LIMIT_PER_MINUTE: '600' });
    tenant = await api.createTenant();
  });
  afterAll(() => api.close());

  test('every response carries a request id; a well-formed client id is echoed', async () => {
    const generated = await api.call('GET', '/healthz');
    assert.match(generated.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    const echoed = await api.call('GET', '/healthz', { headers: { 'x-request-id': 'erp-batch-42.7' } });
    assert.equal(echoed.headers.get('x-request-id'), 'erp-batch-42.7');
    const hostile = await api.call('GET', '/healthz', { headers: { 'x-request-id': 'a b<script>' } });
    assert.notEqual(hostile.headers.get('x-request-id'), 'a b<script>');
  });

  test('health and readiness', async () => {
    const health = await api.call('GET', '/healthz', { env: null });
    assert.deepEqual(health.body, { status: 'ok' });
    const ready = await api.call('GET', '/readyz', { env: null });
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { status: 'ready', checks: { database: 'ok' } });
  });

  test('x-service-env is required on /v1 and must be live or test', async () => {
    assertProblem(
      await api.call('GET', '/v1/auth/api-keys', { env: null, key: tenant.testKey }),
      400,
      'missing_environment',
    );
    assertProblem(
      await api.call('GET', '/v1/auth/api-keys', { env: 'prod', key: tenant.testKey }),
      400,
      'invalid_environment',
    );
  });

  test('unknown route → 404 problem; wrong method → 405 problem with Allow', async () => {
    assertProblem(await api.call('GET', '/v1/nothing-here', { key: tenant.testKey }), 404, 'not_found');
    assertProblem(await api.call('GET', '/nope', { env: null }), 404, 'not_found');
    const put = await api.call('PUT', '/v1/auth/api-keys', { key: tenant.testKey, body: {} });
    assertProblem(put, 405, 'method_not_allowed');
    assert.match(put.headers.get('allow') ?? '', /GET/);
    // A method no route has at all (TRACE) is refused the same way, not with a 5xx.
    const trace = await request(api.baseUrl, 'TRACE', '/v1/auth/api-keys');
    assert.equal(trace.status, 405);
    assert.equal(trace.headers['content-type'], 'application/problem+json');
    assert.match(String(trace.headers.allow), /GET/);
  });

  test('a request line or headers over 16 KiB get a 431 problem, not a bare status line', async () => {
    const answer = await request(api.baseUrl, 'GET', `/v1/aas/resolve/${'9'.repeat(20_000)}`);
    assert.equal(answer.status, 431);
    assert.equal(answer.headers['content-type'], 'application/problem+json');
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    assert.equal(body.code, 'headers_too_large');
    assert.equal(body.requestId, answer.headers['x-request-id']);
  });

  test('malformed JSON → 400, wrong content type → 415, oversize body → 413', async () => {
    assertProblem(
      await api.call('POST', '/v1/auth/api-keys', { key: tenant.testKey, rawBody: '{"name": ' }),
      400,
      'malformed_json',
    );
    assertProblem(
      await api.call('POST', '/v1/auth/api-keys', {
        key: tenant.testKey,
        rawBody: 'name=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      'unsupported_media_type',
    );
    const big = await api.call('POST', '/v1/auth/api-keys', {
      key: tenant.testKey,
      body: { name: 'x'.repeat(5000) },
    });
    assertProblem(big, 413, 'payload_too_large');
  });

  test('validation errors name every bad field', async () => {
    const res = await api.call('POST', '/v1/auth/api-keys', {
      key: tenant.testKey,
      body: { name: '', extra: 1 },
    });
    assertProblem(res, 400, 'validation_failed');
    const paths = (res.body.errors as { path: string }[]).map((e) => e.path).sort();
    assert.deepEqual(paths, ['body', 'body.name']);
    const missing = await api.call('POST', '/v1/auth/api-keys', { key: tenant.testKey });
    assertProblem(missing, 400, 'validation_failed');
    const badId = await api.call('GET', '/v1/auth/api-keys/not-a-uuid', { key: tenant.testKey });
    assertProblem(badId, 400, 'validation_failed');
    assert.equal((badId.body.errors as { path: string }[])[0]?.path, 'path.id');
  });

  test('OpenAPI 3.1 is generated from the validating schemas, and /docs works offline', async () => {
    const doc = await api.call('GET', '/openapi.json', { env: null });
    assert.equal(doc.status, 200);
    assert.equal(doc.body.openapi, '3.1.0');
    const create = doc.body.paths['/v1/auth/api-keys'].post;
    assert.equal(create.requestBody.content['application/json'].schema.properties.name.maxLength, 100);
    assert.ok(doc.body.paths['/v1/auth/api-keys/{id}'].delete);
    assert.ok(
      create.parameters.some(
        (p: { $ref?: string }) => p.$ref === '#/components/parameters/ServiceEnvironment',
      ),
    );
    // Public reads that take their environment from the address do not ask clients for the header.
    const publicRead = doc.body.paths['/v1/dpps/{dppId}'].get;
    assert.ok(
      !(publicRead.parameters ?? []).some(
        (p: { $ref?: string }) => p.$ref === '#/components/parameters/ServiceEnvironment',
      ),
    );
    const noHeader = await api.call('GET', '/v1/dpps/urn%3Auuid%3A00000000-0000-4000-8000-000000000000', {
      env: null,
    });
    assert.equal(noHeader.status, 404, noHeader.text);
    // Every status an operation answers is listed (schemathesis holds the service to it): no catch-all.
    for (const [path, item] of Object.entries(
      doc.body.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>,
    )) {
      for (const [method, operation] of Object.entries(item)) {
        assert.equal(operation.responses.default, undefined, `${method} ${path} has no catch-all response`);
        assert.ok(operation.responses['503'], `${method} ${path} documents 503`);
      }
    }
    const bind = doc.body.paths['/v1/factory/bind'].post;
    assert.ok(
      bind.parameters.some((p: { $ref?: string }) => p.$ref === '#/components/parameters/IdempotencyKey'),
    );
    assert.match(bind.responses['409'].description, /chip_already_bound.*idempotency_request_in_progress/s);
    assert.ok(doc.body.paths['/v1/webhooks/endpoints/{id}'].get.responses['404']);
    const page = await api.call('GET', '/docs', { env: null });
    assert.equal(page.status, 200);
    assert.ok(!/https?:\/\//.test(page.text), 'the docs page loads nothing from the network');
    const bundle = await api.call('GET', '/docs/assets/swagger-ui-bundle.js', { env: null });
    assert.equal(bundle.status, 200);
    assert.ok(bundle.text.length > 100_000);
  });
});

describe('rate limiting', () => {
  let api: TestApi;
  let tenant: TestTenant;
  beforeAll(async () => {
    api = await startTestApi({ RATE_LIMIT_PER_MINUTE: '3', PUBLIC_RATE_LIMIT_PER_MINUTE: '6' });
    tenant = await api.createTenant();
  });
  afterAll(() => api.close());

  test('a credential over its per-minute budget gets 429 with Retry-After', async () => {
    for (let i = 0; i < 3; i++)
      assert.equal((await api.call('GET', '/v1/auth/api-keys', { key: tenant.testKey })).status, 200);
    const limited = await api.call('GET', '/v1/auth/api-keys', { key: tenant.testKey });
    assertProblem(limited, 429, 'rate_limited');
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    const other = await api.call('GET', '/v1/auth/api-keys', { key: tenant.liveKey, env: 'live' });
    assert.equal(other.status, 200, 'another credential has its own budget');
  });

  test('public pages (consumers behind one carrier NAT address) have their own, larger per-address budget', async () => {
    for (let i = 0; i < 6; i++) {
      const context = await api.call('GET', '/contexts/dpp/v1', { env: null });
      assert.equal(context.status, 200, `scan ${i + 1} of 6`);
    }
    assertProblem(await api.call('GET', '/contexts/dpp/v1', { env: null }), 429, 'rate_limited');
    // The address's API budget (unauthenticated /v1 calls) is separate and still untouched.
    assert.equal(
      (await api.call('POST', '/v1/public/webhook/checkout', { env: null, body: {} })).status,
      400,
    );
  });
});
