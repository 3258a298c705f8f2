import type { ServerEnv } from './env.ts';
import type { Handler } from './grpc-server.ts';
import type { OperatorRequest } from './proto.ts';
import { SYSTEM_SEARCH_ATTRIBUTES } from './search-attributes.ts';

/** OperatorService: search attribute registration (per namespace; empty namespace means `default`). */
export function operatorHandlers(env: ServerEnv): Record<string, Handler> {
  return {
    AddSearchAttributes: (request: OperatorRequest<'AddSearchAttributesRequest'>) => {
      env.namespaces.addSearchAttributes(request.namespace || 'default', request.searchAttributes ?? {});
      return {};
    },
    ListSearchAttributes: (request: OperatorRequest<'ListSearchAttributesRequest'>) => {
      const namespace = env.namespaces.get(request.namespace || 'default');
      return {
        customAttributes: Object.fromEntries(namespace.customSearchAttributes),
        systemAttributes: { ...SYSTEM_SEARCH_ATTRIBUTES },
        storageSchema: {},
      };
    },
  };
}
