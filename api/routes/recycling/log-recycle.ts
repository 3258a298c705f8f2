import { z } from 'zod';
import { requireWorkflows } from '../../../src/adapters/temporal/start.ts';
import { workflowStatusBody } from '../../../src/adapters/temporal/workflow-status.ts';
import { formatDeposit } from '../../../src/lifecycle/recycling/deposit.ts';
import { logRecycle } from '../../../src/lifecycle/recycling/log-recycle.ts';
import {
  logRecycleBody,
  recycleFailureToDomainError,
  tokenIdSchema,
} from '../../../src/lifecycle/recycling/recycle-request.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import {
  RECYCLE_PROGRESS_QUERY,
  type RecycleResult,
  type RecycleWorkflow,
} from '../../../src/processes/recycle.ts';
import { workflowIds } from '../../../src/processes/workflow-ids.ts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { recordAttention } from '../record-attention.ts';

function successBody(result: RecycleResult) {
  return {
    success: true,
    recycled: true,
    releasedDeposit: formatDeposit(result.releasedWei),
    message: `Passport ${result.tokenId} recycled; deposit released to ${result.rewardReceiver}.`,
    tokenId: result.tokenId,
    rewardReceiver: result.rewardReceiver,
    transactionHash: result.transactionHash,
  };
}

const recycledResponse = z.object({
  success: z.literal(true),
  recycled: z.literal(true),
  releasedDeposit: z.string().describe('Decimal amount and currency code, e.g. "0.001 ETH".'),
  message: z.string(),
  tokenId: z.string(),
  rewardReceiver: z.string(),
  transactionHash: z.string(),
});

export function logRecycleRoutes(deps: RouteDeps) {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/iaas/log-recycle',
      operationId: 'logRecycle',
      summary: 'Mark a passport recycled and release its circular deposit.',
      description:
        'Starts workflow recycle:{env}:{tokenId} (a repeated request joins the running one): the contract pays the ' +
        'deposit to rewardReceiver (default: the recycling company’s custodial wallet), then a RECYCLE_TRANSFER ' +
        'event, status RECYCLED and asset.recycled are recorded together. Waits up to MINT_WAIT_MS: 201 with the ' +
        'result, or 202 with Location of a status resource. Already recycled → 409 already_recycled.',
      tags: ['iaas'],
      auth: 'apiKey',
      body: logRecycleBody,
      responses: {
        404: {
          description: 'passport_not_found: no passport with this tokenId in this company and environment.',
        },
        409: { description: 'already_recycled: the passport is recycled already.' },
        422: { description: 'chain_rejected: the contract refused the recycling.' },
        201: { description: 'Recycled; the deposit was released.', schema: recycledResponse },
        202: {
          description: 'Still recycling: poll the Location.',
          schema: z.object({
            success: z.literal(true),
            status: z.literal('PENDING'),
            message: z.string(),
            workflowId: z.string(),
            statusUrl: z.string(),
          }),
        },
      },
      handler: async (ctx: AppContext, { body }) => {
        const recycle = await logRecycle(
          {
            em: ctx.state.em!,
            workflows: deps.workflows,
            custodyMasterSecret: deps.config.secrets.custodyMasterSecret,
            waitMs: deps.config.mint.waitMs,
          },
          { scope: ctx.state.scope!, request: body },
        );
        if (recycle.done) {
          ctx.status = 201;
          ctx.body = successBody(recycle.result);
          return;
        }
        const statusUrl = `/v1/iaas/log-recycle/${recycle.tokenId}`;
        ctx.status = 202;
        ctx.set('Location', statusUrl);
        ctx.set('Retry-After', '2');
        ctx.body = {
          success: true,
          status: 'PENDING',
          message: 'Recycling is in progress.',
          workflowId: recycle.workflowId,
          statusUrl,
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/iaas/log-recycle/:tokenId',
      operationId: 'getRecycleStatus',
      summary: 'Progress and result of the recycle of a passport.',
      tags: ['iaas'],
      auth: 'apiKey',
      params: z.object({ tokenId: tokenIdSchema }),
      responses: {
        200: {
          description:
            'RUNNING with the step, COMPLETED with the result (as the 201), or FAILED with the error.',
          schema: z.object({
            success: z.literal(true),
            workflowId: z.string(),
            status: z.enum(['RUNNING', 'COMPLETED', 'FAILED']),
            progress: z
              .object({
                step: z.string(),
                transactionHash: z.string().optional(),
                attention: recordAttention('Released on chain'),
              })
              .optional(),
            result: recycledResponse.optional(),
            error: z.object({ code: z.string(), message: z.string() }).optional(),
          }),
        },
      },
      handler: async (ctx: AppContext, { params }) => {
        const scope = ctx.state.scope!;
        const workflowId = workflowIds.recycle(scope.environment, params.tokenId);
        const notFound = new DomainError(
          'not_found',
          'recycle_not_found',
          `No recycle was started for token ${params.tokenId}.`,
        );
        const handle = requireWorkflows(deps.workflows).client.workflow.getHandle<RecycleWorkflow>(
          workflowId,
        );
        ctx.body = await workflowStatusBody(handle, {
          progressQuery: RECYCLE_PROGRESS_QUERY,
          companyId: scope.companyId,
          notFound: () => notFound,
          shapeResult: successBody,
          failure: (error) => recycleFailureToDomainError(error, params.tokenId),
        });
      },
    }),
  ];
}
