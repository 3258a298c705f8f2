import type {
  Server,
  ServerUnaryCall,
  ServiceDefinition,
  sendUnaryData,
  UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { RpcError, toServiceError } from './errors.ts';
import type { Logger } from './logger.ts';
import { lookupService } from './proto.ts';

/** What a handler may know about the call it serves (long polls must stop when the caller goes away). */
export interface CallContext {
  readonly cancelled: boolean;
  /** Calls `listener` once if the caller cancels; the returned function stops listening. */
  onCancel(listener: () => void): () => void;
}

/**
 * A unary handler. The request is the decoded protobufjs message; `never` lets handlers declare their
 * concrete request type while still fitting in one table.
 */
export type Handler = (request: never, ctx: CallContext) => Promise<object> | object;

function callContext(call: ServerUnaryCall<unknown, unknown>): CallContext {
  return {
    get cancelled() {
      return call.cancelled;
    },
    onCancel(listener) {
      if (call.cancelled) {
        listener();
        return () => {};
      }
      call.once('cancelled', listener);
      return () => call.off('cancelled', listener);
    },
  };
}

/**
 * Registers `handlers` for the protobuf service `serviceName`, building the grpc-js method definitions from
 * the SDK's protobufjs reflection data. Methods without a handler are not registered, so grpc-js answers
 * them with UNIMPLEMENTED.
 */
export function addProtoService(
  server: Server,
  serviceName: string,
  handlers: Record<string, Handler>,
  log: Logger,
): void {
  const service = lookupService(serviceName);
  const definition: Record<string, ServiceDefinition[string]> = {};
  const implementation: UntypedServiceImplementation = {};
  for (const [name, handler] of Object.entries(handlers)) {
    const method = service.methods[name];
    if (!method) throw new Error(`${serviceName} has no method ${name}`);
    method.resolve();
    const requestType = method.resolvedRequestType;
    const responseType = method.resolvedResponseType;
    if (!requestType || !responseType) throw new Error(`Cannot resolve types of ${serviceName}.${name}`);
    definition[name] = {
      path: `/${serviceName}/${name}`,
      requestStream: false,
      responseStream: false,
      requestSerialize: (value: object) => Buffer.from(requestType.encode(value).finish()),
      requestDeserialize: (bytes: Buffer) => requestType.decode(bytes),
      responseSerialize: (value: object) => Buffer.from(responseType.encode(value).finish()),
      responseDeserialize: (bytes: Buffer) => responseType.decode(bytes),
    };
    implementation[name] = (call: ServerUnaryCall<object, object>, callback: sendUnaryData<object>) => {
      const ctx = callContext(call);
      Promise.resolve()
        .then(() => handler(call.request as never, ctx))
        .then(
          (response) => callback(null, response),
          (err: unknown) => {
            if (!(err instanceof RpcError)) log.error(`${name} failed`, err);
            else log.debug(`${name} -> ${err.code} ${err.message}`);
            callback(toServiceError(err));
          },
        );
    };
  }
  server.addService(definition, implementation);
}
