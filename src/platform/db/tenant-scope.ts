import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../config/config.ts';

/** Who is acting and in which environment. Derived from the credential and the x-service-env header. */
export interface TenantScope {
  readonly companyId: string;
  readonly environment: Environment;
}

export const TENANT_FILTER = 'tenant';

/**
 * An entity manager fork whose `tenant` filter is bound to one scope. The filter is on by default and
 * requires arguments, so a query on a tenant-owned entity through an unscoped manager throws instead of
 * reading across tenants; code that really must cross tenants disables it by name.
 */
export function scopedEntityManager(em: EntityManager, scope: TenantScope): EntityManager {
  const fork = em.fork();
  fork.setFilterParams(TENANT_FILTER, { companyId: scope.companyId, environment: scope.environment });
  return fork;
}

/** The columns every tenant-owned row carries, filled from the scope. */
export function ownedBy(scope: TenantScope): { companyId: string; environment: Environment } {
  return { companyId: scope.companyId, environment: scope.environment };
}

/**
 * Gives `state` its scope and an `em` that is a scoped fork made on first read (a fork was about 5 % of a tap's
 * CPU in the API's profile; verify-chip's raw statements name their company and environment themselves and never
 * read it).
 */
export function setLazyScope(
  state: { scope?: TenantScope; em?: EntityManager },
  em: EntityManager,
  scope: TenantScope,
): void {
  state.scope = scope;
  let fork: EntityManager | undefined;
  Object.defineProperty(state, 'em', {
    configurable: true,
    enumerable: true,
    get: () => {
      fork ??= scopedEntityManager(em, scope);
      return fork;
    },
    set: (value: EntityManager | undefined) => {
      fork = value;
    },
  });
}
