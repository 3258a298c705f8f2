import type { EntityManager } from '@mikro-orm/postgresql';
import type { Context, DefaultState, ParameterizedContext } from 'koa';
import type { Role } from '../src/accounts/identity/roles.ts';
import type { Environment } from '../src/platform/config/config.ts';
import type { TenantScope } from '../src/platform/db/tenant-scope.ts';
import type { Logger } from '../src/platform/logging/logger.ts';

export type Principal =
  | { kind: 'apiKey'; apiKeyId: string; companyId: string; environment: Environment }
  | {
      kind: 'user';
      userId: number;
      email: string;
      companyId: string;
      environment: Environment;
      /** Set when the console's session cookie authenticated the request (not a bearer user token). */
      sessionId?: string;
      /** The user's role, when already known (the console session reads it with the session). */
      role?: Role;
    }
  | { kind: 'oauth'; clientId: string; companyId: string; environment: Environment };

export interface AppState extends DefaultState {
  requestId: string;
  log: Logger;
  /** The client's IP address: the socket's peer, or from X-Forwarded-For when the peer is a trusted proxy. */
  clientAddress: string;
  environment?: Environment;
  /** The environment a public address names (test passports live under /test). */
  pathEnvironment?: Environment;
  principal?: Principal;
  scope?: TenantScope;
  /** Entity manager bound to `scope`: tenant-owned queries through it only see this tenant and environment. */
  em?: EntityManager;
  rawBody?: Buffer;
}

export type AppContext = ParameterizedContext<AppState, Context>;
