import { z } from 'zod';
import { requireWorkflows } from '../../../src/adapters/temporal/start.ts';
import { workflowStatusBody } from '../../../src/adapters/temporal/workflow-status.ts';
import { canonicalChipUid } from '../../../src/chips/enroll.ts';
import { mintFailureToDomainError } from '../../../src/lifecycle/mint/mint-failures.ts';
import {
  isShapeA,
  lacksConformity,
  mintShapeA,
  mintShapeB,
} from '../../../src/lifecycle/mint/mint-request.ts';
import { ConformityMissing, requestMint } from '../../../src/lifecycle/mint/request-mint.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import { MINT_PROGRESS_QUERY, type MintResult, type MintWorkflow } from '../../../src/processes/mint.ts';
import { workflowIds } from '../../../src/processes/workflow-ids.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute } from '../../route.ts';
import { validate } from '../../validation.ts';
import type { RouteDeps } from '../deps.ts';
import { recordAttention } from '../record-attention.ts';
import { conformityRequired } from './conformity.ts';

// Where each shape could bring its declaration of conformity (shape B also from the company default).
const SHAPE_A_CONFORMITY = {
  field: 'custom_dpp_data.conformity_url',
  path: 'body.custom_dpp_data.conformity_url',
  companyDefault: false,
};
const SHAPE_B_CONFORMITY = {
  field: 'customDppData.conformity_url',
  path: 'body.customDppData.conformity_url',
  companyDefault: true,
};

function successBody(shape: 'A' | 'B', result: MintResult) {
  return shape === 'A'
    ? {
        success: true,
        message: 'DPP minted.',
        blockchain: {
          tokenId: result.tokenId,
          transactionHash: result.transactionHash,
          ipfsUrl: result.ipfsUrl,
        },
        data: { dbId: result.dbId, status: result.status },
      }
    : { success: true, tokenId: result.tokenId, txHash: result.transactionHash, message: 'DPP minted.' };
}

const shapeAResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  blockchain: z.object({ tokenId: z.string(), transactionHash: z.string(), ipfsUrl: z.string() }),
  data: z.object({ dbId: z.number().int(), status: z.literal('ACTIVE') }),
});
const shapeBResponse = z.object({
  success: z.literal(true),
  tokenId: z.string(),
  txHash: z.string(),
  message: z.string(),
});
const pendingResponse = z.object({
  success: z.literal(true),
  status: z.literal('PENDING'),
  message: z.string(),
  workflowId: z.string(),
  statusUrl: z.string(),
});

export function mintRoutes(deps: RouteDeps) {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/dpp/mint',
      operationId: 'mint',
      summary:
        'Mint a DPP (shape A: with a SUN tap, enrolling the chip if new; shape B: ERP fields, chip verified before).',
      description:
        'Starts the mint workflow mint:{env}:{chipUid} (a repeated request of the same company joins the running ' +
        'one; a mint of the chip another company started answers 409 chip_enrolled_elsewhere) and waits up to ' +
        'MINT_WAIT_MS (default 20 s): 201 with the result, or 202 with Location of a status resource. Without ' +
        'custom_dpp_data.conformity_url shape A answers 400 with the ESPR text, and so does shape B without ' +
        'customDppData.conformity_url when the company has no defaultConformityUrl (GET/PATCH ' +
        '/v1/company/settings; shape B then records the default as its conformity_url); a chip that already holds a ' +
        'passport answers 409 "Conflict: Chip already registered."; a refused or replayed tap 422 sun_rejected. ' +
        'Shape A for a chip not enrolled yet enrols it in the same workflow once its tap verifies (asset.initialized, ' +
        'then asset.minted); a refused tap enrols nothing. Live needs SUN keys for that (409 ' +
        'chip_keys_not_configured). Shape B needs an enrolled chip (404 chip_not_found); a chip enrolled by ' +
        'another account 409 chip_enrolled_elsewhere. Input PostgreSQL cannot store is refused before anything ' +
        'reaches the chain (400). Once the token is on chain the mint is never abandoned: if recording it fails, ' +
        'the status resource stays RUNNING with step "recording" and `attention` until it is recorded.',
      tags: ['dpp'],
      auth: 'apiKey',
      body: z.record(z.string(), z.unknown()),
      docBody: z.union([mintShapeA, mintShapeB]),
      responses: {
        402: {
          description:
            'plan_required: a live mint needs an active subscription (the test environment is free).',
        },
        404: { description: 'chip_not_found: shape B names a chip that is not enrolled.' },
        409: {
          description:
            'chip_already_registered (the chip already has a passport), chip_enrolled_elsewhere, or chip_keys_not_configured (live without SUN keys).',
        },
        422: {
          description:
            'sun_rejected (a refused or replayed tap), chip_not_verified, or chain_rejected (the contract refused the mint).',
        },
        201: {
          description: 'Minted (body per request shape).',
          schema: z.union([shapeAResponse, shapeBResponse]),
        },
        202: { description: 'Still minting: poll the Location.', schema: pendingResponse },
      },
      handler: async (ctx: AppContext, { body }) => {
        const shape = isShapeA(body) ? 'A' : 'B';
        if (shape === 'A' && lacksConformity(body)) throw conformityRequired(SHAPE_A_CONFORMITY);
        const request =
          shape === 'A' ? validate(mintShapeA, body, 'body') : validate(mintShapeB, body, 'body');
        const mint = await requestMint(
          { em: ctx.state.em!, workflows: deps.workflows, waitMs: deps.config.mint.waitMs },
          { scope: ctx.state.scope!, request },
        ).catch((error: unknown) => {
          throw error instanceof ConformityMissing ? conformityRequired(SHAPE_B_CONFORMITY) : error;
        });
        if (mint.done) {
          ctx.status = 201;
          ctx.body = successBody(shape, mint.result);
          return;
        }
        const statusUrl = `/v1/dpp/mint/${mint.chipUid}`;
        ctx.status = 202;
        ctx.set('Location', statusUrl);
        ctx.set('Retry-After', '2');
        ctx.body = {
          success: true,
          status: 'PENDING',
          message: 'Minting is in progress.',
          workflowId: mint.workflowId,
          statusUrl,
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/dpp/mint/:chipUid',
      operationId: 'getMintStatus',
      summary: 'Progress and result of the mint of a chip.',
      description:
        'API keys and OAuth clients, and the company’s people (user token or console session) in every role.',
      tags: ['dpp'],
      auth: 'apiKeyOrUser',
      params: z.object({ chipUid: z.string().min(1).max(40) }),
      responses: {
        200: {
          description:
            'RUNNING with the current step, COMPLETED with the result (as the 201 of shape A), or FAILED with the error.',
          schema: z.object({
            success: z.literal(true),
            workflowId: z.string(),
            status: z.enum(['RUNNING', 'COMPLETED', 'FAILED']),
            progress: z
              .object({
                step: z.enum(['preparing', 'minting', 'recording', 'done']),
                tokenId: z.string().optional(),
                metadataUrl: z.string().optional(),
                transactionHash: z.string().optional(),
                attention: recordAttention('On chain'),
              })
              .optional(),
            result: shapeAResponse.optional(),
            error: z.object({ code: z.string(), message: z.string() }).optional(),
          }),
        },
      },
      handler: async (ctx: AppContext, { params }) => {
        await requireRight(ctx, 'read', 'see mints');
        const scope = ctx.state.scope!;
        // A mint may enrol its chip, so the chip need not be enrolled yet; the workflow's company decides.
        const chipUid = canonicalChipUid(params.chipUid);
        const workflowId = workflowIds.mint(scope.environment, chipUid);
        const handle = requireWorkflows(deps.workflows).client.workflow.getHandle<MintWorkflow>(workflowId);
        ctx.body = await workflowStatusBody(handle, {
          progressQuery: MINT_PROGRESS_QUERY,
          companyId: scope.companyId,
          notFound: () =>
            new DomainError('not_found', 'mint_not_found', `No mint was started for chip ${chipUid}.`),
          shapeResult: (result) => successBody('A', result),
          failure: mintFailureToDomainError,
        });
      },
    }),
  ];
}
