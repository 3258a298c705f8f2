import type { EntityManager } from '@mikro-orm/postgresql';
import type { UserTokenKeys } from '../../src/accounts/identity/user-token.ts';
import type { AppContext } from '../context.ts';
import { publicEnvironment } from '../routes/resolver/http.ts';
import { authenticateApiKey } from './api-key-auth.ts';
import { authenticateConsoleSession, type ConsoleCookie, sessionSecretOf } from './console-session.ts';
import { ENVIRONMENT_HEADER } from './service-environment.ts';
import { authenticateUser } from './user-auth.ts';

/** What checking a reader's credential needs (the router's deps fit). */
export interface ReaderAuthDeps {
  orm: { readonly em: EntityManager };
  userTokens: UserTokenKeys;
  consoleCookie?: ConsoleCookie | undefined;
}

const checked = new WeakSet<AppContext>();

/**
 * The one credential rule of every read anybody may call (routes with auth 'none' and optionalCredential: the
 * resolver in every format, the content, EN 18222 and AAS reads; docs/disclosure.md "Who reads"). The router
 * runs it before the handler, so before any passport is looked up:
 * - no `Authorization`: the caller is public — unless the request names the environment in `x-service-env`
 *   and carries the console's session cookie (as the console's own calls do; a page a browser simply opens
 *   sends no such header and stays public);
 * - `Authorization: Bearer …`: authenticated like a credentialed route would — an API key or OAuth access
 *   token, or a user token (a JWT) — for the request's environment (the /test path, else x-service-env, else
 *   live). Unknown, malformed, revoked or expired → 401 `unauthorized`; a genuine credential of the other
 *   environment → 403 `environment_mismatch`. Never quietly public.
 * What a valid credential may read of one passport: src/passport/disclosure/caller-roles.ts (callerRoles).
 */
export async function authenticateReader(ctx: AppContext, deps: ReaderAuthDeps): Promise<void> {
  if (checked.has(ctx)) return;
  const environment = publicEnvironment(ctx);
  if (ctx.get('authorization') === '') {
    const secret =
      ctx.get(ENVIRONMENT_HEADER) !== '' && deps.consoleCookie
        ? sessionSecretOf(ctx, deps.consoleCookie)
        : undefined;
    if (secret !== undefined) {
      await authenticateConsoleSession(ctx, deps.orm.em, deps.consoleCookie!, secret, environment);
    }
  } else if (/^Bearer\s+eyJ[\w-]*\.[\w-]+\.[\w-]+\s*$/i.test(ctx.get('authorization'))) {
    authenticateUser(ctx, deps.orm.em, deps.userTokens, environment);
  } else {
    await authenticateApiKey(ctx, deps.orm.em, environment);
  }
  checked.add(ctx);
}
