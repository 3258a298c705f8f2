import { z } from 'zod';
import {
  createApiKey,
  describe,
  findApiKey,
  listApiKeys,
  revokeApiKey,
  summarize,
} from '../../../src/accounts/keys/api-keys.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { Problem } from '../../problem.ts';
import { defineRoute, type RouteSpec } from '../../route.ts';

const apiKeySummary = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe('The start of the key, enough to recognise it; never the whole key.'),
  createdAt: z.iso.datetime(),
});
const apiKeyDetails = apiKeySummary.extend({
  environment: z.enum(['live', 'test']),
  lastUsedAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
});
const idParams = z.object({ id: z.uuid({ message: 'API key ids are UUIDs' }) });

const ROLES_NOTE =
  ' Takes an API key or OAuth access token of the company, or a person of the company: a user token or the ' +
  "console's session cookie.";
const MANAGE_NOTE = ' A person must be the company’s owner or a developer (a viewer → 403 role_forbidden).';

function notFound(id: string): Problem {
  return new Problem(404, 'api_key_not_found', `No API key ${id} in this environment.`);
}

export const apiKeyRoutes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/auth/api-keys',
    operationId: 'listApiKeys',
    summary: 'List the active API keys of the environment named by x-service-env.',
    description:
      'Each key in the spec shape (id, name, prefix, createdAt); with details=true also its environment, ' +
      `lastUsedAt and revokedAt (what the console shows).${ROLES_NOTE}`,
    tags: ['auth'],
    auth: 'apiKeyOrUser',
    query: z.object({ details: z.enum(['true', 'false']).optional() }),
    responses: {
      200: {
        description: 'Active keys, newest first.',
        schema: z.object({
          success: z.literal(true),
          apiKeys: z.union([z.array(apiKeySummary), z.array(apiKeyDetails)]),
        }),
      },
      403: { description: 'environment_mismatch.' },
    },
    handler: async (ctx: AppContext, { query }) => {
      await requireRight(ctx, 'read', 'see the API keys');
      const keys = await listApiKeys(ctx.state.em!);
      ctx.body = { success: true, apiKeys: keys.map(query.details === 'true' ? describe : summarize) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/auth/api-keys',
    operationId: 'createApiKey',
    summary: 'Create an API key in the environment named by x-service-env.',
    description: `The response carries the full key once; only a hash is stored, so it cannot be shown again.${ROLES_NOTE}${MANAGE_NOTE}`,
    tags: ['auth'],
    auth: 'apiKeyOrUser',
    body: z.object({ name: z.string().trim().min(1).max(100) }).strict(),
    responses: {
      201: {
        description: 'Created.',
        schema: z.object({ success: z.literal(true), apiKey: apiKeyDetails, key: z.string() }),
      },
      403: { description: 'environment_mismatch, or role_forbidden (a viewer).' },
    },
    handler: async (ctx: AppContext, { body }: { body: { name: string } }) => {
      await requireRight(ctx, 'manageKeys', 'create API keys');
      const { apiKey, key } = await createApiKey(ctx.state.em!, ctx.state.scope!, body.name);
      ctx.state.log.info({ createdApiKeyId: apiKey.id }, 'api key created');
      ctx.status = 201;
      ctx.set('Location', `/v1/auth/api-keys/${apiKey.id}`);
      ctx.body = { success: true, apiKey: describe(apiKey), key };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/auth/api-keys/:id',
    operationId: 'getApiKey',
    summary: 'One API key of this environment, including when it was last used or revoked.',
    tags: ['auth'],
    auth: 'apiKeyOrUser',
    params: idParams,
    responses: {
      200: { description: 'The key.', schema: z.object({ success: z.literal(true), apiKey: apiKeyDetails }) },
    },
    handler: async (ctx: AppContext, { params }: { params: { id: string } }) => {
      await requireRight(ctx, 'read', 'see the API keys');
      const key = await findApiKey(ctx.state.em!, params.id);
      if (!key) throw notFound(params.id);
      ctx.body = { success: true, apiKey: describe(key) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/auth/api-keys/:id',
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key of this environment. Requests with it fail with 401 from then on.',
    description: `Idempotent: revoking a revoked key answers 200 with the original revocation time.${ROLES_NOTE}${MANAGE_NOTE}`,
    tags: ['auth'],
    auth: 'apiKeyOrUser',
    params: idParams,
    responses: {
      200: {
        description: 'Revoked.',
        schema: z.object({ success: z.literal(true), message: z.string(), apiKey: apiKeyDetails }),
      },
      403: { description: 'environment_mismatch, or role_forbidden (a viewer).' },
    },
    handler: async (ctx: AppContext, { params }: { params: { id: string } }) => {
      await requireRight(ctx, 'manageKeys', 'revoke API keys');
      const key = await revokeApiKey(ctx.state.em!, params.id);
      if (!key) throw notFound(params.id);
      ctx.state.log.info({ revokedApiKeyId: key.id }, 'api key revoked');
      ctx.body = { success: true, message: 'API key revoked.', apiKey: describe(key) };
    },
  }),
];
