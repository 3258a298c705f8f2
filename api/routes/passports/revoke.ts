import { z } from 'zod';
import { revokePassport } from '../../../src/lifecycle/revoke/revoke.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { tokenIdField } from '../supply-chain/schemas.ts';

const revokeBody = z
  .object({
    tokenId: tokenIdField,
    reason: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .describe('Why it is revoked; public: the verification page shows it (e.g. "Withdrawn from sale").'),
  })
  .strict();

/** POST /v1/dpp/revoke; `deps.config.publicBaseUrl` names the resolver in the new version's header. */
export function revokeRoute(deps: RouteDeps) {
  return defineRoute({
    method: 'post',
    path: '/v1/dpp/revoke',
    operationId: 'revokePassport',
    summary: 'Revoke one of your passports’ verifiable credentials (sets its status list bit).',
    description:
      'The passport stays resolvable; its credential’s BitstringStatusList revocation bit is set at once (verifiers ' +
      'fetching the list see it), format=public and the verification page show status REVOKED with the reason. ' +
      'Revoking is final and idempotent: a repeat answers 200 with the first revocation (alreadyRevoked: true). ' +
      'Recycling revokes too (reason "recycled"). Only the owning company’s passports are found (else 404). No ' +
      'webhook event: the spec names none for it. API keys and OAuth clients, and the company’s owners and ' +
      'developers (user token or console session); a viewer → 403 role_forbidden.',
    tags: ['dpp'],
    auth: 'apiKeyOrUser',
    body: revokeBody,
    responses: {
      404: {
        description: 'passport_not_found: no passport with this tokenId in this company and environment.',
      },
      200: {
        description: 'Revoked (now or before).',
        schema: z.object({
          success: z.literal(true),
          tokenId: z.string(),
          revoked: z.literal(true),
          revokedAt: z.string(),
          reason: z.string(),
          alreadyRevoked: z.boolean(),
        }),
      },
    },
    handler: async (ctx: AppContext, { body }) => {
      await requireRight(ctx, 'managePassports', 'revoke passports');
      const revocation = await revokePassport(
        ctx.state.em!,
        body.tokenId,
        body.reason,
        deps.config.publicBaseUrl,
      );
      ctx.body = {
        success: true,
        tokenId: revocation.tokenId,
        revoked: true,
        revokedAt: revocation.revokedAt.toISOString(),
        reason: revocation.reason,
        alreadyRevoked: revocation.alreadyRevoked,
      };
    },
  });
}
