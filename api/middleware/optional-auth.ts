import type { Environment } from '../../src/config/config.ts';
import { userTokenKeysOf } from '../../src/identity/user-token-keys.ts';
import type { AppContext } from '../context.ts';
import type { RouteDeps } from '../routes/deps.ts';
import { authenticateApiKey } from './api-key-auth.ts';
import { authenticateUser } from './user-auth.ts';

/**
 * On a route anybody may call (auth 'none'): when the request sends `Authorization`, authenticates it like a
 * credentialed route would — an API key or OAuth access token, or a user token (a JWT) — for `environment`,
 * and refuses a credential that is not valid (401/403), so a caller never silently gets less than they asked
 * for. Without the header nothing happens (the caller is public).
 */
export async function authenticateIfPresent(
  ctx: AppContext,
  deps: RouteDeps,
  environment: Environment,
): Promise<void> {
  if (ctx.get('authorization') === '') return;
  if (/^Bearer\s+eyJ[\w-]*\.[\w-]+\.[\w-]+\s*$/i.test(ctx.get('authorization'))) {
    authenticateUser(ctx, deps.orm.em, userTokenKeysOf(deps.config), environment);
    return;
  }
  await authenticateApiKey(ctx, deps.orm.em, environment);
}
