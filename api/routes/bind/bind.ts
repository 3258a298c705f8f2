import { z } from 'zod';
import { bindTwin } from '../../../src/lifecycle/bind/bind.ts';
import { bindAndMint } from '../../../src/lifecycle/bind/bind-and-mint.ts';
import { ConformityMissing } from '../../../src/lifecycle/mint/request-mint.ts';
import type { AppContext } from '../../context.ts';
import { IDEMPOTENCY_DOC, respondIdempotently } from '../../idempotency.ts';
import { defineRoute } from '../../route.ts';
import { validate } from '../../validation.ts';
import { chipUidField } from '../chips/schemas.ts';
import type { RouteDeps } from '../deps.ts';
import { conformityRequired } from '../mint/conformity.ts';

const serviceInternalId = z.string().trim().min(1).max(64);

const bindShapeA = z
  .object({ service_internal_id: serviceInternalId, hardware: z.object({ chip_uid: chipUidField }).strict() })
  .strict();
const bindShapeB = z
  .object({
    internalId: serviceInternalId,
    chipUid: chipUidField,
    signature: z
      .string()
      .trim()
      .regex(/^([0-9a-fA-F]{2}){8,160}$/, 'signature must be hex')
      .describe('Hex signature by a registered toolbox key over the UTF-8 string "<internalId>:<chipUid>".'),
  })
  .strict();

const activeMessage = (id: string) => `Product ${id} is now ACTIVE.`;

// Where a toolbox bind could bring its declaration of conformity, for the ESPR text of conformity_required.
const TWIN_CONFORMITY = {
  field: 'conformity_url bei der Bereitstellung (POST /v1/erp/provision)',
  fieldEn: 'conformity_url when provisioning the twin (POST /v1/erp/provision)',
  path: 'body.internalId',
  companyDefault: true,
};

export function bindRoutes(deps: RouteDeps) {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/factory/bind',
      operationId: 'bindChip',
      summary: 'Bind a chip to a provisioned twin (A: plain; B: toolbox-signed, then minted).',
      description:
        'The twin becomes ACTIVE and locked to the chip; a chip not yet enrolled here is enrolled on the way ' +
        '(asset.initialized). Unknown twin 404 twin_not_found; twin already bound 409 twin_already_bound; chip ' +
        'bound to another twin 409 chip_already_bound; chip enrolled by another account 409 ' +
        'chip_enrolled_elsewhere. Shape B: a signature matching no active toolbox key 422 ' +
        'invalid_toolbox_signature; without a conformity_url of the twin (provisioning) or a company ' +
        'defaultConformityUrl (PATCH /v1/company/settings) 400 ' +
        'conformity_required with the ESPR text, before anything is bound; the chip must have shown a verified ' +
        'tap (422 chip_not_verified); then the ' +
        'passport is minted (201 with tokenId, or 202 with Location /v1/dpp/mint/{chipUid}). Repeating a ' +
        `completed shape-B bind answers its token again.${IDEMPOTENCY_DOC}`,
      tags: ['factory'],
      auth: 'apiKey',
      idempotent: true,
      body: z.record(z.string(), z.unknown()),
      docBody: z.union([bindShapeA, bindShapeB]),
      responses: {
        402: { description: 'plan_required (shape B mints): a live mint needs an active subscription.' },
        404: {
          description:
            'twin_not_found or chip_not_found: the twin or chip is not in this company and environment.',
        },
        409: {
          description:
            'chip_already_bound, twin_already_bound, chip_already_registered or chip_enrolled_elsewhere.',
        },
        422: {
          description: 'invalid_toolbox_signature, sun_rejected (refused or replayed tap) or chain_rejected.',
        },
        201: {
          description: 'Bound (shape B: and minted).',
          schema: z.object({
            success: z.literal(true),
            message: z.string(),
            service_internal_id: z.string(),
            chip_uid: z.string(),
            tokenId: z.string().optional(),
          }),
        },
        202: { description: 'Bound; the mint is still running: poll the Location.' },
      },
      handler: async (ctx: AppContext, { body }) => {
        const scope = ctx.state.scope!;
        if (!('internalId' in body || 'signature' in body)) {
          const request = validate(bindShapeA, body, 'body');
          await respondIdempotently(
            ctx,
            async (tx) => {
              const { twin, chipUid } = await bindTwin(tx, scope, {
                serviceInternalId: request.service_internal_id,
                chipUid: request.hardware.chip_uid,
              });
              const id = twin.serviceInternalId;
              return {
                status: 201,
                body: {
                  success: true,
                  message: activeMessage(id),
                  service_internal_id: id,
                  chip_uid: chipUid,
                },
              };
            },
            { atomic: true },
          );
          return;
        }
        const request = validate(bindShapeB, body, 'body');
        const outcome = await bindAndMint(
          { em: ctx.state.em!, workflows: deps.workflows, waitMs: deps.config.mint.waitMs },
          { scope, internalId: request.internalId, chipUid: request.chipUid, signature: request.signature },
        ).catch((error: unknown) => {
          throw error instanceof ConformityMissing ? conformityRequired(TWIN_CONFORMITY) : error;
        });
        const answer = {
          success: true,
          message: activeMessage(request.internalId),
          service_internal_id: request.internalId,
          chip_uid: outcome.chipUid,
        };
        if ('tokenId' in outcome) {
          ctx.status = 201;
          ctx.body = { ...answer, tokenId: outcome.tokenId };
          return;
        }
        ctx.status = 202;
        ctx.set('Location', outcome.statusUrl);
        ctx.set('Retry-After', '2');
        ctx.body = { ...answer, status: 'PENDING', statusUrl: outcome.statusUrl };
      },
    }),
  ];
}
