import type { EntityManager } from '@mikro-orm/postgresql';
import { type UserTokenKeys, verifyUserToken } from '../../src/accounts/identity/user-token.ts';
import type { Environment } from '../../src/platform/config/config.ts';
import { setLazyScope } from '../../src/platform/db/tenant-scope.ts';
import type { AppContext } from '../context.ts';
import { Problem } from '../problem.ts';

const CHALLENGE = 'Bearer realm="dpp"';

/**
 * Authenticates `Authorization: Bearer <user token>` (from POST /v1/auth/login) for the request's environment:
 * a missing, malformed, expired or foreign token → 401; a genuine token of the other environment → 403.
 */
export function authenticateUser(
  ctx: AppContext,
  em: EntityManager,
  keys: UserTokenKeys,
  environment: Environment,
): void {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
  if (!match) {
    throw new Problem(
      401,
      'unauthorized',
      'Send the token from POST /v1/auth/login as Authorization: Bearer <token>.',
      {
        headers: { 'WWW-Authenticate': `${CHALLENGE}, error="invalid_request"` },
      },
    );
  }
  const check = verifyUserToken(keys, match[1]!);
  if (!check.ok) {
    throw new Problem(401, 'unauthorized', `The user token is not valid (${check.reason}); log in again.`, {
      headers: { 'WWW-Authenticate': `${CHALLENGE}, error="invalid_token"` },
    });
  }
  if (check.claims.environment !== environment) {
    throw new Problem(
      403,
      'environment_mismatch',
      `This token was issued for the ${check.claims.environment} environment and cannot be used with x-service-env: ${environment}.`,
    );
  }
  const scope = { companyId: check.claims.companyId, environment };
  ctx.state.principal = { kind: 'user', ...check.claims, environment };
  setLazyScope(ctx.state, em, scope);
}
