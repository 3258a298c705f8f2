import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { installTracing, type Tracing } from '../../src/platform/observability/tracing.ts';
import type { TestTenant } from '../support/api.ts';
import type { TestStack } from '../support/stack.ts';
import {
  enrollAndMintParka,
  startStackWithWorkerProcess,
  type WorkerProcess,
} from '../support/worker-process.ts';

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  role: string;
  service: string;
}

/** A tiny OTLP/HTTP receiver: keeps every span POSTed to /v1/traces (JSON encoding), with its resource's role. */
async function startReceiver(): Promise<{
  url: string;
  spans: ReceivedSpan[];
  paths: string[];
  server: Server;
}> {
  const spans: ReceivedSpan[] = [];
  const paths: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      paths.push(`${request.method} ${request.url} ${request.headers['content-type']}`);
      // biome-ignore lint/suspicious/noExplicitAny: the OTLP JSON document
      const document = JSON.parse(body) as any;
      for (const resourceSpans of document.resourceSpans ?? []) {
        const attribute = (key: string) =>
          resourceSpans.resource.attributes.find((a: { key: string }) => a.key === key)?.value.stringValue;
        for (const scope of resourceSpans.scopeSpans ?? [])
          for (const span of scope.spans ?? [])
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              name: span.name,
              role: attribute('dpp.role'),
              service: attribute('service.name'),
            });
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, paths, server };
}

/**
 * Traces as a deployment gets them: the API (this process) and the production worker process (worker/main.ts)
 * each export over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT, and the spans of one mint form one trace across both.
 */
describe('OpenTelemetry over OTLP: one trace from the API process through the worker process', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let tracing: Tracing;
  let stack: TestStack;
  let tenant: TestTenant;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    receiver = await startReceiver();
    tracing = installTracing({ otlpEndpoint: `${receiver.url}/`, serviceName: 'dpp-otlp' }, { role: 'api' })!;
    ({ stack, tenant, worker } = await startStackWithWorkerProcess({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'dpp-otlp',
    }));
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await stack?.close();
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  test('HTTP request (api) → StartWorkflow (api) → RunWorkflow (worker) → each activity (worker)', async () => {
    const uid = '04AB0B5E0000F1';
    await enrollAndMintParka(stack, tenant, uid);
    // Both processes flush what their batch processors hold when they stop (the worker on SIGTERM).
    const stopped = await worker!.stop();
    worker = undefined;
    assert.equal(stopped.exitCode, 0);
    await tracing.shutdown();

    assert.ok(
      receiver.paths.every((p) => p.startsWith('POST /v1/traces application/json')),
      receiver.paths.join(),
    );
    const request = receiver.spans.find((s) => s.name === 'POST /v1/dpp/mint');
    assert.ok(request, `spans received: ${receiver.spans.map((s) => `${s.role}:${s.name}`).join(', ')}`);
    assert.equal(request.role, 'api');
    assert.equal(request.service, 'dpp-otlp');
    const inTrace = receiver.spans.filter((s) => s.traceId === request.traceId);
    const byId = new Map(inTrace.map((s) => [s.spanId, s]));
    const path = (span: ReceivedSpan) => {
      const names: string[] = [];
      for (
        let at: ReceivedSpan | undefined = span;
        at;
        at = at.parentSpanId ? byId.get(at.parentSpanId) : undefined
      )
        names.push(`${at.role}:${at.name}`);
      return names;
    };
    for (const activity of ['prepareMint', 'mintOnChain', 'recordMint']) {
      const run = inTrace.find((s) => s.name === `RunActivity:${activity}`);
      assert.ok(run, `RunActivity:${activity} in the trace: ${inTrace.map((s) => s.name).join(', ')}`);
      assert.equal(run.role, 'worker');
      const names = path(run);
      assert.equal(names.at(-1), 'api:POST /v1/dpp/mint', names.join(' ← '));
      assert.ok(names.includes('api:StartWorkflow:mintPassport'), names.join(' ← '));
      assert.ok(names.includes('worker:RunWorkflow:mintPassport'), names.join(' ← '));
    }
  });
});
