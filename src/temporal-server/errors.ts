import { Metadata, type ServerErrorResponse, status } from '@grpc/grpc-js';
import { api, encodeAny, type ReflectedType, root } from './proto.ts';

interface StatusDetail {
  type_url: string;
  value: Uint8Array;
}

/** An error the server answers with a specific gRPC status (and optional Temporal error details). */
export class RpcError extends Error {
  readonly code: status;
  readonly detail: StatusDetail | undefined;

  constructor(code: status, message: string, detail?: StatusDetail) {
    super(message);
    this.code = code;
    this.detail = detail;
  }
}

const errordetails = api.errordetails.v1;

function detail(name: string, type: unknown, message: object): StatusDetail {
  return encodeAny(`temporal.api.errordetails.v1.${name}`, type as ReflectedType, message);
}

export function notFound(message: string): RpcError {
  return new RpcError(status.NOT_FOUND, message, detail('NotFoundFailure', errordetails.NotFoundFailure, {}));
}

export function namespaceNotFound(namespace: string): RpcError {
  return new RpcError(
    status.NOT_FOUND,
    `Namespace ${namespace} is not found.`,
    detail('NamespaceNotFoundFailure', errordetails.NamespaceNotFoundFailure, { namespace }),
  );
}

export function invalidArgument(message: string): RpcError {
  return new RpcError(status.INVALID_ARGUMENT, message);
}

export function failedPrecondition(message: string): RpcError {
  return new RpcError(status.FAILED_PRECONDITION, message);
}

export function unimplemented(message: string): RpcError {
  return new RpcError(status.UNIMPLEMENTED, message);
}

export function alreadyExists(message: string): RpcError {
  return new RpcError(status.ALREADY_EXISTS, message);
}

export function workflowAlreadyStarted(workflowId: string, runId: string, startRequestId: string): RpcError {
  return new RpcError(
    status.ALREADY_EXISTS,
    `Workflow execution is already running. WorkflowId: ${workflowId}, RunId: ${runId}.`,
    detail('WorkflowExecutionAlreadyStartedFailure', errordetails.WorkflowExecutionAlreadyStartedFailure, {
      startRequestId,
      runId,
    }),
  );
}

export function queryFailed(message: string, failure: object | null | undefined): RpcError {
  return new RpcError(
    status.INVALID_ARGUMENT,
    message,
    detail('QueryFailedFailure', errordetails.QueryFailedFailure, { failure: failure ?? undefined }),
  );
}

/** Converts anything thrown by a handler into what grpc-js sends back to the caller. */
export function toServiceError(err: unknown): ServerErrorResponse {
  if (err instanceof RpcError) {
    const metadata = new Metadata();
    const rpcStatus = { code: err.code, message: err.message, details: err.detail ? [err.detail] : [] };
    const encoded = root.google.rpc.Status.encode(rpcStatus as never).finish();
    metadata.set('grpc-status-details-bin', Buffer.from(encoded));
    return Object.assign(new Error(err.message), { code: err.code, details: err.message, metadata });
  }
  const message = err instanceof Error ? err.message : String(err);
  return Object.assign(new Error(message), { code: status.INTERNAL, details: message });
}
