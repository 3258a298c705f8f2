import type { EntityManager } from '@mikro-orm/postgresql';
import type { ContentWriter, ContentWriterRole } from '../../../src/passport/content/content-writer.ts';
import { grantedRoles } from '../../../src/passport/disclosure/grants.ts';
import type { DppRef } from '../../../src/passport/dpp-api/find-dpp.ts';
import { dppIdOf } from '../../../src/passport/record/passport-header.ts';
import { Company } from '../../../src/platform/db/entities/index.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import type { AppContext } from '../../context.ts';

/**
 * The roles in which the caller may write a passport's product-group data: `operator` for the passport's own
 * company, else `repairer` and `recycler` as the brand granted them (disclosure_grants, docs/disclosure.md);
 * empty for anyone else (other roles read, they do not write).
 */
async function writerRolesOf(ctx: AppContext, em: EntityManager, ref: DppRef): Promise<ContentWriterRole[]> {
  const caller = ctx.state.scope!.companyId;
  if (caller === ref.companyId) return ['operator'];
  const roles = await grantedRoles(em, { companyId: ref.companyId, environment: ref.environment }, caller);
  return (['repairer', 'recycler'] as const).filter((role) => roles.includes(role));
}

/**
 * The writer of a dynamic update or repurposing link, in the role its write needs: the brand as operator; a
 * company granted both repairer and recycler writes a waste declaration as recycler, anything else as repairer.
 * `allowed` are the roles the operation takes; a caller in none of them: 404, as if the passport were not theirs.
 */
export async function contentWriterOf(
  ctx: AppContext,
  em: EntityManager,
  ref: DppRef,
  allowed: readonly ContentWriterRole[],
  declaresWasteOnly = false,
): Promise<ContentWriter> {
  const held = (await writerRolesOf(ctx, em, ref)).filter((role) => allowed.includes(role));
  const role =
    held.find((r) => r === 'operator') ??
    (declaresWasteOnly ? held.find((r) => r === 'recycler') : undefined) ??
    held.find((r) => r === 'repairer') ??
    held[0];
  if (!role) throw new DomainError('not_found', 'dpp_not_found', `No passport ${dppIdOf(ref.serviceUid)}.`);
  const companyId = ctx.state.scope!.companyId;
  const company = await em.findOneOrFail(Company, { id: companyId }, { fields: ['name'] });
  return { companyId, companyName: company.name, role };
}
