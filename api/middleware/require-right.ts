import { assertRight, type Right, roleOf } from '../../src/accounts/identity/roles.ts';
import type { AppContext } from '../context.ts';

/**
 * API keys and OAuth clients act with the company's full rights; a person (user token or console session)
 * acts with their current role: 403 `role_forbidden` without the right.
 */
export async function requireRight(ctx: AppContext, right: Right, action: string): Promise<void> {
  const principal = ctx.state.principal!;
  if (principal.kind !== 'user') return;
  const role = principal.role ?? (await roleOf(ctx.state.em!, principal.userId, principal.companyId));
  assertRight(role, right, action);
}
