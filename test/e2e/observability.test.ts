import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createApp } from '../../api/app.ts';
import { listen, type RunningHttpServer } from '../../api/server.ts';
import { createLogger } from '../../src/platform/logging/logger.ts';
import { installTracing } from '../../src/platform/observability/tracing.ts';
import type { TestTenant } from '../support/api.ts';
import { mintBody } from '../support/fixtures/mint.ts';
import { CONFORMITY_DOC } from '../support/fixtures/products.ts';
import { sunTap } from '../support/fixtures/sun.ts';
import { parseExposition, sampleValue } from '../support/prometheus-text.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { waitFor } from '../support/wait-for.ts';

// Installed before the stack starts, as the entry points do: spans of this process go to memory.
const spans = new InMemorySpanExporter();
installTracing(
  { otlpEndpoint: undefined, serviceName: 'dpp-test' },
  { role: 'test', spanProcessor: new SimpleSpanProcessor(spans) },
);

const UID = '04AB0B5E000001';
const REPLAYED = '04AB0B5E000002';

describe('operations: a mint seen through /metrics and through one trace', () => {
  let stack: TestStack;
  let tenant: TestTenant;
  let receiver: Server;
  let receiverUrl: string;
  let minted: { status: number; text: string };

  beforeAll(async () => {
    receiver = createServer((_request, response) => response.writeHead(204).end());
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    stack = await startTestStack({ apiClient: 'native' });
    tenant = await stack.api.createTenant();
    const call = (method: string, path: string, body?: unknown) =>
      stack.api.call(method, path, { key: tenant.testKey, ...(body === undefined ? {} : { body }) });
    assert.equal((await call('POST', '/v1/webhooks/endpoints', { url: receiverUrl })).status, 201);
    assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: UID })).status, 201);
    const parka = { name: 'Parka', custom_dpp_data: { conformity_url: CONFORMITY_DOC } };
    minted = await call('POST', '/v1/dpp/mint', mintBody({ chipUid: UID, ...parka }));
    assert.equal(minted.status, 201, minted.text);
    // A second chip's tap, shown to verify-chip first, is a replay when it comes with a mint: the workflow
    // refuses it (a non-retryable failure of its tap check).
    assert.equal((await call('POST', '/v1/dpp/enroll', { chipUid: REPLAYED })).status, 201);
    const seen = sunTap(REPLAYED, 3);
    const verified = await call('POST', '/v1/dpp/verify-chip', {
      chipUid: REPLAYED,
      piccData: seen.piccData,
      cmac: seen.cmac,
    });
    assert.equal(verified.body.authentic, true, verified.text);
    const replayed = await call(
      'POST',
      '/v1/dpp/mint',
      mintBody({ chipUid: REPLAYED, nfcData: seen.query, ...parka }),
    );
    assert.equal(replayed.status, 422, replayed.text);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  const scrape = async (baseUrl = stack.api.baseUrl, headers: Record<string, string> = {}) => {
    const response = await fetch(`${baseUrl}/metrics`, { headers });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      text: await response.text(),
    };
  };

  test('/metrics: a strict exposition with request latency by route pattern, the mint, activities, webhooks, outbox', async () => {
    const other = '04FFFFFFFFFF01';
    assert.equal((await stack.api.call('GET', `/v1/dpp/mint/${UID}`, { key: tenant.testKey })).status, 200);
    assert.equal((await stack.api.call('GET', `/v1/dpp/mint/${other}`, { key: tenant.testKey })).status, 404);
    // The webhook of asset.minted reaches the receiver (its first attempt is the dispatcher's), the outbox drains.
    const scraped = await waitFor(
      'webhook attempts counted',
      async () => parseExposition((await scrape()).text),
      (families) =>
        (sampleValue(families, 'dpp_webhook_attempts_total', { outcome: 'succeeded' }) ?? 0) >= 2 &&
        sampleValue(families, 'dpp_mints_total', { environment: 'test', outcome: 'refused' }) === 1 &&
        // Under load the dispatcher may not have taken the last event yet: the outbox drains, then it is read.
        sampleValue(families, 'dpp_outbox_pending_events') === 0,
      30,
    );
    const answer = await scrape();
    assert.equal(answer.status, 200);
    assert.match(answer.type ?? '', /^text\/plain; version=0\.0\.4/);

    const count = (labels: Record<string, string>) =>
      sampleValue(scraped, 'dpp_http_request_duration_seconds_count', labels);
    assert.equal(count({ method: 'POST', route: '/v1/dpp/mint', status: '201' }), 1);
    assert.equal(count({ method: 'POST', route: '/v1/dpp/mint', status: '422' }), 1);
    assert.equal(count({ method: 'POST', route: '/v1/dpp/enroll', status: '201' }), 2);
    const statusReads = scraped
      .get('dpp_http_request_duration_seconds')!
      .samples.filter((s) => s.name.endsWith('_count') && s.labels.route?.startsWith('/v1/dpp/mint/'));
    for (const sample of statusReads) assert.equal(sample.labels.route, '/v1/dpp/mint/:chipUid');
    assert.deepEqual(
      statusReads.map((s) => s.labels.status).sort(),
      ['200', '404'],
      'one series per route pattern and status, not per raw path',
    );

    assert.equal(sampleValue(scraped, 'dpp_mints_total', { environment: 'test', outcome: 'minted' }), 1);
    assert.equal(sampleValue(scraped, 'dpp_mints_total', { environment: 'test', outcome: 'refused' }), 1);
    assert.equal(sampleValue(scraped, 'dpp_mints_total', { outcome: 'failed' }), undefined);
    assert.equal(
      sampleValue(scraped, 'dpp_workflows_finished_total', {
        workflow: 'mintPassport',
        outcome: 'completed',
      }),
      1,
    );
    for (const activity of ['prepareMint', 'mintOnChain', 'recordMint'])
      assert.equal(
        sampleValue(scraped, 'dpp_activity_duration_seconds_count', {
          workflow: 'mintPassport',
          activity,
          outcome: 'completed',
        }),
        1,
        activity,
      );
    assert.ok((sampleValue(scraped, 'dpp_webhook_attempts_total', { outcome: 'succeeded' }) ?? 0) >= 2);
    assert.equal(sampleValue(scraped, 'dpp_outbox_pending_events'), 0);
    assert.equal(sampleValue(scraped, 'dpp_outbox_lag_seconds'), 0);
    assert.equal(scraped.get('dpp_chain_confirmation_seconds')?.type, 'histogram');
    assert.ok(scraped.has('process_cpu_user_seconds_total'), 'the default process metrics');
  });

  test('who may read it: loopback in development; a bearer token when set; nobody without one in live', async () => {
    const withToken = await listen(
      createApp({
        config: {
          ...stack.api.config,
          metrics: { token: 't'.repeat(40), requireToken: true, workerPort: undefined },
        },
        orm: stack.api.db.orm,
        logger: createLogger('silent'),
      }),
      '127.0.0.1',
      0,
    );
    const liveWithout = await listen(
      createApp({
        config: {
          ...stack.api.config,
          metrics: { token: undefined, requireToken: true, workerPort: undefined },
        },
        orm: stack.api.db.orm,
        logger: createLogger('silent'),
      }),
      '127.0.0.1',
      0,
    );
    const servers: RunningHttpServer[] = [withToken, liveWithout];
    try {
      const refused = await scrape(withToken.url);
      assert.equal(refused.status, 401);
      assert.equal(JSON.parse(refused.text).code, 'unauthorized');
      assert.equal((await scrape(withToken.url, { authorization: `Bearer ${'u'.repeat(40)}` })).status, 401);
      const allowed = await scrape(withToken.url, { authorization: `Bearer ${'t'.repeat(40)}` });
      assert.equal(allowed.status, 200);
      parseExposition(allowed.text);
      assert.equal((await scrape(liveWithout.url)).status, 404, 'live without a token: not served at all');
      // Development, no token: loopback only, and not when a proxy forwarded the request.
      assert.equal((await scrape(stack.api.baseUrl, { 'x-forwarded-for': '203.0.113.7' })).status, 401);
    } finally {
      for (const server of servers) await server.close(0);
    }
  });

  test('one trace: HTTP request → StartWorkflow → RunWorkflow → each activity', async () => {
    const byId = () => new Map(spans.getFinishedSpans().map((s) => [s.spanContext().spanId, s]));
    const request = spans
      .getFinishedSpans()
      .find((s) => s.name === 'POST /v1/dpp/mint' && s.attributes['http.response.status_code'] === 201);
    assert.ok(request, `no request span among ${spans.getFinishedSpans().map((s) => s.name)}`);
    const traceId = request.spanContext().traceId;
    const inTrace = () => spans.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
    const wanted = ['StartWorkflow:mintPassport', 'RunWorkflow:mintPassport'].concat(
      ['prepareMint', 'mintOnChain', 'recordMint'].flatMap((a) => [`StartActivity:${a}`, `RunActivity:${a}`]),
    );
    await waitFor(
      'the workflow and activity spans in the request’s trace',
      async () => inTrace().map((s) => s.name),
      (names) => wanted.every((name) => names.includes(name)),
      20,
    );
    const spansById = byId();
    const ancestors = (span: ReadableSpan): string[] => {
      const names: string[] = [];
      for (
        let parent = spansById.get(span.parentSpanId ?? '');
        parent;
        parent = spansById.get(parent.parentSpanId ?? '')
      )
        names.push(parent.name);
      return names;
    };
    for (const activity of ['prepareMint', 'mintOnChain', 'recordMint']) {
      const run = inTrace().find((s) => s.name === `RunActivity:${activity}`)!;
      const chain = ancestors(run);
      assert.equal(chain.at(-1), 'POST /v1/dpp/mint', `${activity}: ${chain.join(' ← ')}`);
      assert.ok(chain.includes('RunWorkflow:mintPassport'), `${activity}: ${chain.join(' ← ')}`);
      assert.ok(chain.includes('StartWorkflow:mintPassport'), `${activity}: ${chain.join(' ← ')}`);
    }
    assert.equal(request.attributes['http.route'], '/v1/dpp/mint');
  });
});
