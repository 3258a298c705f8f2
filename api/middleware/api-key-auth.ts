import type { EntityManager } from '@mikro-orm/postgresql';
import { checkAccessToken, looksLikeAccessToken } from '../../src/accounts/identity/oauth.ts';
import { checkApiKey } from '../../src/accounts/keys/api-keys.ts';
import type { Environment } from '../../src/platform/config/config.ts';
import { setLazyScope } from '../../src/platform/db/tenant-scope.ts';
import type { AppContext } from '../context.ts';
import { Problem } from '../problem.ts';

const CHALLENGE = 'Bearer realm="dpp"';

function unauthorized(detail: string, error: 'invalid_request' | 'invalid_token'): Problem {
  return new Problem(401, 'unauthorized', detail, {
    headers: { 'WWW-Authenticate': `${CHALLENGE}, error="${error}"` },
  });
}

/**
 * Authenticates `Authorization: Bearer <API key>` for the request's environment and binds the tenant scope.
 * Unknown, malformed or revoked keys → 401. A valid key of the other environment → 403, because the
 * credential is genuine but not allowed to act there (environments are strictly isolated).
 */
export async function authenticateApiKey(
  ctx: AppContext,
  em: EntityManager,
  environment: Environment,
): Promise<void> {
  const header = ctx.get('authorization');
  if (header === '') throw unauthorized('Send an API key as Authorization: Bearer <key>.', 'invalid_request');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match)
    throw unauthorized('The Authorization header must have the form Bearer <key>.', 'invalid_request');
  if (looksLikeAccessToken(match[1]!)) {
    await authenticateAccessToken(ctx, em, match[1]!, environment);
    return;
  }
  const check = await checkApiKey(em, match[1]!, environment);
  if (!check.ok) {
    if (check.reason === 'environment_mismatch') {
      throw new Problem(
        403,
        'environment_mismatch',
        `This API key belongs to the ${check.keyEnvironment} environment and cannot be used with x-service-env: ${environment}.`,
      );
    }
    if (check.reason === 'revoked') throw unauthorized('This API key has been revoked.', 'invalid_token');
    throw unauthorized('The API key is not valid.', 'invalid_token');
  }
  const scope = { companyId: check.apiKey.companyId, environment };
  ctx.state.principal = { kind: 'apiKey', apiKeyId: check.apiKey.id, ...scope };
  setLazyScope(ctx.state, em, scope);
}

/** An OAuth access token (from POST /v1/auth/oauth/token) acts for its client's company and environment. */
async function authenticateAccessToken(
  ctx: AppContext,
  em: EntityManager,
  token: string,
  environment: Environment,
): Promise<void> {
  const check = await checkAccessToken(em.fork(), token);
  if (!check.ok) throw unauthorized('The access token is unknown, expired or revoked.', 'invalid_token');
  if (check.environment !== environment) {
    throw new Problem(
      403,
      'environment_mismatch',
      `This access token belongs to the ${check.environment} environment and cannot be used with x-service-env: ${environment}.`,
    );
  }
  const scope = { companyId: check.companyId, environment };
  ctx.state.principal = { kind: 'oauth', clientId: check.clientId, ...scope };
  setLazyScope(ctx.state, em, scope);
}
