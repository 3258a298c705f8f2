import { readFile } from 'node:fs/promises';
import { Client, type ClientInterceptors } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import { NativeConnection } from '@temporalio/worker';
import type { Config } from '../../platform/config/config.ts';

type TemporalSettings = Config['temporal'];

async function tlsOptions(settings: TemporalSettings) {
  if (!settings.tls) return undefined;
  if (settings.tlsCertPath && settings.tlsKeyPath) {
    return {
      clientCertPair: { crt: await readFile(settings.tlsCertPath), key: await readFile(settings.tlsKeyPath) },
    };
  }
  return true;
}

/**
 * A client for starting, signalling and querying workflows (API side), with its connection. It runs over the
 * SDK's native (Rust) connection rather than @grpc/grpc-js, which keeps protobuf and HTTP/2 work off the
 * event loop that serves HTTP. Entry points install the Temporal Runtime (without its signal handlers) first.
 */
export async function connectClient(
  settings: TemporalSettings,
  address: string,
): Promise<{ client: Client; connection: NativeConnection }> {
  const connection = await connectWorker(settings, address);
  return {
    client: new Client({ connection, namespace: settings.namespace, interceptors: clientInterceptors() }),
    connection,
  };
}

/**
 * A span for each workflow start, signal and query, whose W3C trace context travels in the workflow's
 * headers (the SDK's OpenTelemetry interceptor): the workflow's and its activities' spans join the trace of
 * the HTTP request that started it. A no-op until tracing is installed (src/platform/observability/tracing.ts).
 */
export function clientInterceptors(): ClientInterceptors {
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor()] };
}

/** A native connection to the cluster (workers and clients). */
export async function connectWorker(settings: TemporalSettings, address: string): Promise<NativeConnection> {
  return NativeConnection.connect({
    address,
    tls: await tlsOptions(settings),
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
  });
}
