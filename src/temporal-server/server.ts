import { Server, ServerCredentials } from '@grpc/grpc-js';
import { VirtualClock } from './clock.ts';
import type { ServerEnv } from './env.ts';
import { installSyncDecompression } from './grpc-decompression.ts';
import { addProtoService } from './grpc-server.ts';
import { createLogger, type LogLevel } from './logger.ts';
import { NamespaceRegistry } from './namespaces.ts';
import { operatorHandlers } from './operator-service.ts';
import { executionHandlers } from './rpc-executions.ts';
import { systemHandlers } from './rpc-system.ts';
import { workerHandlers } from './rpc-workers.ts';
import { parseIndexedValueType } from './search-attributes.ts';
import { WorkflowStore } from './store.ts';
import { TaskQueueRegistry } from './task-queues.ts';
import { testServiceHandlers } from './test-service.ts';

export interface TemporalServerOptions {
  /** 0 or absent picks a free port. */
  port?: number;
  host?: string;
  /** 'time-skipping' behaves like the official test server, 'dev' like `temporal server start-dev`. */
  mode: 'time-skipping' | 'dev';
  /** Namespaces to create besides `default`. */
  namespaces?: string[];
  /** Custom search attributes (name -> type such as 'Keyword' or 'INDEXED_VALUE_TYPE_INT'), in every namespace. */
  searchAttributes?: Record<string, string>;
  logLevel?: LogLevel;
  /** How long an empty long poll waits before answering empty; defaults to 15 s. */
  pollTimeoutMs?: number;
}

export interface RunningTemporalServer {
  /** host:port to give to SDK connections. */
  readonly address: string;
  readonly port: number;
  close(): Promise<void>;
}

const MAX_MESSAGE_BYTES = 128 * 1024 * 1024;

export async function startTemporalServer(options: TemporalServerOptions): Promise<RunningTemporalServer> {
  const log = createLogger(options.logLevel ?? 'warn');
  const clock = new VirtualClock(options.mode === 'time-skipping', (err) =>
    log.error('timer callback failed', err),
  );
  const namespaces = new NamespaceRegistry();
  const env: ServerEnv = {
    clock,
    queues: new TaskQueueRegistry(),
    store: new WorkflowStore(),
    namespaces,
    log,
    pollTimeoutMs: options.pollTimeoutMs ?? 15_000,
  };
  const attributeTypes: Record<string, number> = {};
  for (const [name, typeName] of Object.entries(options.searchAttributes ?? {})) {
    const type = parseIndexedValueType(typeName);
    if (type === undefined) throw new Error(`Unknown search attribute type ${typeName} for ${name}`);
    attributeTypes[name] = type;
  }
  for (const name of ['default', ...(options.namespaces ?? [])]) {
    namespaces.ensure(name);
    namespaces.addSearchAttributes(name, attributeTypes);
  }

  installSyncDecompression();
  const server = new Server({
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
    // Channelz (gRPC's introspection service, which we do not serve) would track every call and stream.
    'grpc.enable_channelz': 0,
  });
  addProtoService(
    server,
    'temporal.api.workflowservice.v1.WorkflowService',
    { ...systemHandlers(env), ...executionHandlers(env), ...workerHandlers(env) },
    log,
  );
  addProtoService(server, 'temporal.api.operatorservice.v1.OperatorService', operatorHandlers(env), log);
  if (options.mode === 'time-skipping') {
    addProtoService(server, 'temporal.api.testservice.v1.TestService', testServiceHandlers(clock), log);
  }

  const host = options.host ?? '127.0.0.1';
  const bindHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(
      `${bindHost}:${options.port ?? 0}`,
      ServerCredentials.createInsecure(),
      (err, boundPort) => (err ? reject(err) : resolve(boundPort)),
    );
  });

  let closed: Promise<void> | undefined;
  return {
    address: `${bindHost}:${port}`,
    port,
    close() {
      closed ??= new Promise<void>((resolve) => {
        env.queues.releaseAll();
        clock.stop();
        const force = setTimeout(() => server.forceShutdown(), 2000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
      return closed;
    },
  };
}
