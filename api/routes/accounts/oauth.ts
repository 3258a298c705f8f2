import { z } from 'zod';
import {
  ACCESS_TOKEN_SECONDS,
  createOAuthClient,
  grantClientCredentials,
  grantRefreshToken,
  listOAuthClients,
  OAuthError,
  revokeOAuthClient,
} from '../../../src/accounts/identity/oauth.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { Problem } from '../../problem.ts';
import { defineRoute, type RouteSpec } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';

const client = z.object({
  id: z.string(),
  clientId: z.string(),
  name: z.string(),
  environment: z.enum(['live', 'test']),
  createdAt: z.iso.datetime(),
  revokedAt: z.iso.datetime().nullable(),
});
const field = z.string().max(512).optional();
const tokenRequest = z.object({
  grant_type: field,
  client_id: field,
  client_secret: field,
  refresh_token: field,
  scope: field,
});

/** RFC 6749 §5.2 error members beside our problem fields: OAuth libraries read `error`, people read `detail`. */
function oauthProblem(error: OAuthError): Problem {
  const status = error.error === 'invalid_client' ? 401 : 400;
  return new Problem(status, error.error, error.message, {
    extra: { error: error.error, error_description: error.message },
    headers: {
      'Cache-Control': 'no-store',
      ...(status === 401 ? { 'WWW-Authenticate': 'Basic realm="dpp"' } : {}),
    },
  });
}

/** client_secret_basic: `Authorization: Basic base64(urlencoded id ":" urlencoded secret)`. */
function basicCredentials(header: string): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    return {
      id: decodeURIComponent(decoded.slice(0, colon)),
      secret: decodeURIComponent(decoded.slice(colon + 1)),
    };
  } catch {
    return undefined;
  }
}

const PEOPLE_TOO =
  ' Takes an API key or OAuth access token of the company, or a person of the company (a user token or the ' +
  "console's session cookie).";
const MANAGE = ' A person must be the company’s owner or a developer (a viewer → 403 role_forbidden).';

/** OAuth 2.0 client credentials for machine clients: client management and the token endpoint. */
export function oauthRoutes(deps: RouteDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/auth/oauth/clients',
      operationId: 'createOAuthClient',
      summary: 'Create an OAuth client of the environment; its secret is shown once.',
      description: `${PEOPLE_TOO}${MANAGE}`,
      tags: ['auth'],
      auth: 'apiKeyOrUser',
      body: z.object({ name: z.string().trim().min(1).max(100) }).strict(),
      responses: {
        201: {
          description: 'Created: keep clientSecret now, only its hash is stored.',
          schema: z.object({ success: z.literal(true), client, clientSecret: z.string() }),
        },
        403: { description: 'environment_mismatch, or role_forbidden (a viewer).' },
      },
      handler: async (ctx: AppContext, { body }) => {
        await requireRight(ctx, 'manageKeys', 'create OAuth clients');
        const created = await createOAuthClient(deps.orm.em.fork(), ctx.state.scope!, body.name);
        ctx.status = 201;
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { success: true, ...created };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/auth/oauth/clients',
      operationId: 'listOAuthClients',
      summary: 'The active OAuth clients of the environment.',
      description: PEOPLE_TOO,
      tags: ['auth'],
      auth: 'apiKeyOrUser',
      responses: {
        200: {
          description: 'Newest first.',
          schema: z.object({ success: z.literal(true), clients: z.array(client) }),
        },
      },
      handler: async (ctx: AppContext) => {
        await requireRight(ctx, 'read', 'see the OAuth clients');
        ctx.body = { success: true, clients: await listOAuthClients(deps.orm.em.fork(), ctx.state.scope!) };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/auth/oauth/clients/:id',
      operationId: 'revokeOAuthClient',
      summary: 'Revoke an OAuth client and every token it was given (idempotent).',
      description: `${PEOPLE_TOO}${MANAGE}`,
      tags: ['auth'],
      auth: 'apiKeyOrUser',
      params: z.object({ id: z.uuid({ message: 'OAuth client ids are UUIDs' }) }),
      responses: {
        200: { description: 'Revoked.', schema: z.object({ success: z.literal(true), client }) },
        403: { description: 'environment_mismatch, or role_forbidden (a viewer).' },
        404: { description: 'oauth_client_not_found.' },
      },
      handler: async (ctx: AppContext, { params }) => {
        await requireRight(ctx, 'manageKeys', 'revoke OAuth clients');
        const revoked = await revokeOAuthClient(deps.orm.em.fork(), ctx.state.scope!, params.id);
        if (!revoked) {
          throw new Problem(
            404,
            'oauth_client_not_found',
            `No OAuth client ${params.id} in this environment.`,
          );
        }
        ctx.body = { success: true, client: revoked };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/oauth/token',
      operationId: 'oauthToken',
      summary: 'OAuth 2.0 token endpoint: client_credentials, and refresh_token with rotation.',
      description:
        `client_credentials → an opaque access token valid exactly ${ACCESS_TOKEN_SECONDS} s, accepted wherever ` +
        'an API key is, and a refresh token (the spec asks for one; RFC 6749 §4.4.3 would omit it). The client ' +
        'authenticates with HTTP Basic (client_secret_basic) or client_id and client_secret in the body; form ' +
        'and JSON bodies both work. refresh_token (no client credentials needed) → a new access token and a new ' +
        'refresh token (valid 30 days); the old one stops working, and presenting it again revokes every token ' +
        'of that grant (reuse detection). Errors carry RFC 6749 `error` and `error_description` beside our ' +
        'problem fields.',
      tags: ['auth'],
      auth: 'none',
      body: tokenRequest,
      bodyOptional: true,
      formBody: true,
      responses: {
        200: {
          description: 'Tokens (Cache-Control: no-store).',
          schema: z.object({
            access_token: z.string(),
            token_type: z.literal('Bearer'),
            expires_in: z.literal(ACCESS_TOKEN_SECONDS),
            refresh_token: z.string(),
          }),
        },
        400: { description: 'invalid_request, invalid_grant, unsupported_grant_type.' },
        401: { description: 'invalid_client (WWW-Authenticate: Basic).' },
      },
      handler: async (ctx: AppContext, { body }) => {
        const environment = ctx.state.environment!;
        const em = deps.orm.em.fork();
        try {
          if (body.grant_type === 'client_credentials') {
            const basic = basicCredentials(ctx.get('authorization'));
            const id = basic?.id ?? body.client_id;
            const secret = basic?.secret ?? body.client_secret;
            if (!id || !secret) {
              throw new OAuthError(
                'invalid_client',
                'Authenticate the client: HTTP Basic, or client_id and client_secret.',
              );
            }
            ctx.body = await grantClientCredentials(em, environment, id, secret);
          } else if (body.grant_type === 'refresh_token') {
            if (!body.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required.');
            ctx.body = await grantRefreshToken(em, environment, body.refresh_token);
          } else if (body.grant_type === undefined) {
            throw new OAuthError('invalid_request', 'grant_type is required.');
          } else {
            throw new OAuthError(
              'unsupported_grant_type',
              'Only client_credentials and refresh_token are supported.',
            );
          }
        } catch (error) {
          if (error instanceof OAuthError) throw oauthProblem(error);
          throw error;
        }
        ctx.set('Cache-Control', 'no-store');
        ctx.set('Pragma', 'no-cache');
      },
    }),
  ];
}
