import { z } from 'zod';
import { formatMinorUnits } from '../../../src/lifecycle/resale/money.ts';
import { latestResaleOfToken } from '../../../src/lifecycle/resale/resale-records.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import { RESALE_PROGRESS_QUERY, type ResaleProgress } from '../../../src/processes/resale.ts';
import { workflowIds } from '../../../src/processes/workflow-ids.ts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';

const OPEN = new Set(['AUTHORIZING', 'AWAITING_PAYMENT', 'AWAITING_CLAIM']);

export function resaleStatusRoute(deps: RouteDeps) {
  return defineRoute({
    method: 'get',
    path: '/v1/dpp/resales/:tokenId',
    operationId: 'resaleStatus',
    summary: 'The latest resale of a passport: its state, price, checkout and transactions.',
    description:
      'States: AUTHORIZING, AWAITING_PAYMENT (checkout open), AWAITING_CLAIM (paid, buyer authorized on chain), ' +
      'CLAIMED, EXPIRED (not paid in time: delegation revoked), CLAIM_EXPIRED (not claimed in time: refunded, ' +
      'authorization revoked), FAILED (could not be set up). Open resales add the workflow’s live progress.',
    tags: ['dpp'],
    auth: 'apiKey',
    params: z.object({ tokenId: z.string().regex(/^[1-9]\d{0,77}$/) }),
    responses: {
      200: {
        description: 'The resale.',
        schema: z.object({
          success: z.literal(true),
          resaleId: z.string(),
          tokenId: z.string(),
          status: z.string(),
          price: z.object({ amount: z.number().int(), currency: z.string(), decimal: z.string() }),
          buyerWallet: z.string(),
          progress: z.record(z.string(), z.unknown()).optional(),
        }),
      },
    },
    handler: async (ctx: AppContext, { params }) => {
      const scope = ctx.state.scope!;
      const row = await latestResaleOfToken(ctx.state.em!, scope, params.tokenId);
      if (!row)
        throw new DomainError(
          'not_found',
          'resale_not_found',
          `Passport ${params.tokenId} was never released.`,
        );
      let progress: ResaleProgress | undefined;
      if (OPEN.has(row.status) && deps.workflows) {
        progress = await deps.workflows.client.workflow
          .getHandle(workflowIds.resale(scope.environment, params.tokenId))
          .query<ResaleProgress>(RESALE_PROGRESS_QUERY)
          .catch(() => undefined);
      }
      const amount = Number(row.amount);
      ctx.body = {
        success: true,
        resaleId: row.id,
        tokenId: row.token_id,
        status: row.status,
        price: { amount, currency: row.currency, decimal: formatMinorUnits(amount, row.currency) },
        buyerWallet: row.buyer_wallet,
        ...(progress ? { progress } : {}),
      };
    },
  });
}
