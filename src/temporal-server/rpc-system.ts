import type { ServerEnv } from './env.ts';
import type { Handler } from './grpc-server.ts';
import { describeNamespace } from './namespaces.ts';
import { durationToMs, type WorkflowRequest } from './proto.ts';

export const SERVER_VERSION = '1.27.0';

/** Server and namespace level RPCs. */
export function systemHandlers(env: ServerEnv): Record<string, Handler> {
  return {
    GetSystemInfo: () => ({
      serverVersion: SERVER_VERSION,
      capabilities: {
        signalAndQueryHeader: true,
        internalErrorDifferentiation: true,
        activityFailureIncludeHeartbeat: true,
        supportsSchedules: false,
        encodedFailureAttributes: true,
        buildIdBasedVersioning: false,
        upsertMemo: true,
        eagerWorkflowStart: false,
        sdkMetadata: true,
        countGroupByExecutionStatus: false,
        nexus: false,
      },
    }),
    GetClusterInfo: () => ({
      supportedClients: {},
      serverVersion: SERVER_VERSION,
      clusterId: 'dpp-temporal-server',
      clusterName: 'active',
      historyShardCount: 1,
      persistenceStore: 'memory',
      visibilityStore: 'memory',
      initialFailoverVersion: 1,
      failoverVersionIncrement: 10,
    }),
    DescribeNamespace: (request: WorkflowRequest<'DescribeNamespaceRequest'>) =>
      describeNamespace(
        request.id ? env.namespaces.getById(request.id) : env.namespaces.get(request.namespace),
      ),
    RegisterNamespace: (request: WorkflowRequest<'RegisterNamespaceRequest'>) => {
      env.namespaces.register(request.namespace, {
        description: request.description,
        ownerEmail: request.ownerEmail,
        data: request.data ?? {},
        retentionMs: durationToMs(request.workflowExecutionRetentionPeriod),
      });
      return {};
    },
    ListNamespaces: () => ({ namespaces: env.namespaces.list().map(describeNamespace) }),
  };
}
