import { userTokenKeysOf } from '../../src/accounts/identity/user-token-keys.ts';
import type { Environment } from '../../src/platform/config/config.ts';
import type { AppContext } from '../context.ts';
import type { RouteDeps } from '../routes/deps.ts';
import { authenticateApiKey } from './api-key-auth.ts';
import { authenticateConsoleSession, consoleCookieFor, sessionSecretOf } from './console-session.ts';
import { ENVIRONMENT_HEADER } from './service-environment.ts';
import { authenticateUser } from './user-auth.ts';

/**
 * On a route anybody may call (auth 'none', optionalCredential): when the request sends `Authorization`,
 * authenticates it like a credentialed route would — an API key or OAuth access token, or a user token (a JWT)
 * — for `environment`, and refuses a credential that is not valid (401/403), so a caller never silently gets
 * less than they asked for. Without it, the console's session cookie counts when the request also names the
 * environment in `x-service-env` (as the console's own calls do; a page a browser simply opens sends no such
 * header and stays public). Otherwise nothing happens: the caller is public.
 */
export async function authenticateIfPresent(
  ctx: AppContext,
  deps: RouteDeps,
  environment: Environment,
): Promise<void> {
  if (ctx.get('authorization') === '') {
    if (ctx.get(ENVIRONMENT_HEADER) === '') return;
    const cookie = consoleCookieFor(deps.config.publicBaseUrl);
    const secret = sessionSecretOf(ctx, cookie);
    if (secret !== undefined) {
      await authenticateConsoleSession(ctx, deps.orm.em, cookie, secret, environment);
    }
    return;
  }
  if (/^Bearer\s+eyJ[\w-]*\.[\w-]+\.[\w-]+\s*$/i.test(ctx.get('authorization'))) {
    authenticateUser(ctx, deps.orm.em, userTokenKeysOf(deps.config), environment);
    return;
  }
  await authenticateApiKey(ctx, deps.orm.em, environment);
}
