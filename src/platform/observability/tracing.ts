import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/** What the worker needs to export workflow spans too (its sink) and what stops the export at shutdown. */
export interface Tracing {
  resource: Resource;
  spanProcessor: SpanProcessor;
  /** Sends what is buffered and stops. */
  shutdown(): Promise<void>;
}

let installed: Tracing | undefined;

/**
 * OpenTelemetry traces for this process: the HTTP request span (api/middleware/http-observability.ts), the
 * Temporal client's StartWorkflow span, the workflow's and each activity's spans (the SDK's interceptors,
 * worker/worker.ts) share one trace through the W3C trace context in Temporal headers. Exported over OTLP/HTTP
 * (`{OTEL_EXPORTER_OTLP_ENDPOINT}/v1/traces`, headers from OTEL_EXPORTER_OTLP_HEADERS) when the endpoint is
 * set; without it nothing is installed and the OpenTelemetry API stays a no-op. `spanProcessor` replaces the
 * exporter (tests: an in-memory one). Once per process: later calls return the first installation.
 */
export function installTracing(
  settings: { otlpEndpoint: string | undefined; serviceName: string },
  options: { role: string; spanProcessor?: SpanProcessor },
): Tracing | undefined {
  if (installed) return installed;
  if (!settings.otlpEndpoint && !options.spanProcessor) return undefined;
  const spanProcessor =
    options.spanProcessor ??
    new BatchSpanProcessor(
      new OTLPTraceExporter({ url: `${settings.otlpEndpoint!.replace(/\/+$/, '')}/v1/traces` }),
    );
  const resource = Resource.default().merge(
    new Resource({
      'service.name': settings.serviceName,
      'service.namespace': 'dpp',
      'dpp.role': options.role,
    }),
  );
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  // Global tracer provider, AsyncLocalStorage context manager, W3C trace context and baggage propagation.
  provider.register();
  installed = { resource, spanProcessor, shutdown: () => provider.shutdown() };
  return installed;
}

/** The installation of this process, if any (the worker's span sink uses it). */
export function currentTracing(): Tracing | undefined {
  return installed;
}
