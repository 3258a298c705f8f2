import type { EntityManager } from '@mikro-orm/postgresql';
import type { DynamicWriterRole } from '../../../src/passport/content/dynamic-update.ts';
import { grantedRoles } from '../../../src/passport/disclosure/grants.ts';
import type { DppRef } from '../../../src/passport/dpp-api/find-dpp.ts';
import type { AppContext } from '../../context.ts';

/**
 * The role in which the caller writes a passport's dynamic data: `operator` for the passport's own company,
 * `repairer` for a company the brand granted that role (disclosure_grants, docs/disclosure.md); undefined for
 * anyone else (other roles read, they do not write).
 */
export async function writerRoleOf(
  ctx: AppContext,
  em: EntityManager,
  ref: DppRef,
): Promise<DynamicWriterRole | undefined> {
  const caller = ctx.state.scope!.companyId;
  if (caller === ref.companyId) return 'operator';
  const roles = await grantedRoles(em, { companyId: ref.companyId, environment: ref.environment }, caller);
  return roles.includes('repairer') ? 'repairer' : undefined;
}
