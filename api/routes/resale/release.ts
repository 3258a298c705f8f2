import { WorkflowExecutionAlreadyStartedError, type WorkflowHandle } from '@temporalio/client';
import { z } from 'zod';
import { requireWorkflows } from '../../../src/adapters/temporal/start.ts';
import {
  brandReleaseTerms,
  ownerReleaseTerms,
  releaseBody,
} from '../../../src/lifecycle/resale/release-request.ts';
import { resaleFailureToDomainError } from '../../../src/lifecycle/resale/resale-failures.ts';
import { insertResale, updateResale } from '../../../src/lifecycle/resale/resale-records.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import { RESALE_PROGRESS_QUERY, type ResaleProgress } from '../../../src/processes/resale.ts';
import type { ResaleTerms } from '../../../src/processes/resale-terms.ts';
import { searchAttributePairs } from '../../../src/processes/search-attributes.ts';
import { taskQueueFor } from '../../../src/processes/task-queues.ts';
import { workflowIds } from '../../../src/processes/workflow-ids.ts';
import type { resalePassport } from '../../../workflows/resale.ts';
import type { AppContext } from '../../context.ts';
import { IDEMPOTENCY_DOC, respondIdempotently } from '../../idempotency.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';

const releasedResponse = z.object({
  success: z.literal(true),
  txHash: z.string().describe('The authorizeClaim transaction delegating the token to the platform admin.'),
  paymentCheckoutUrl: z
    .string()
    .describe('Stripe Checkout for the buyer; it expires with the payment window.'),
  message: z.string(),
  resaleId: z.string(),
  status: z.literal('AWAITING_PAYMENT'),
  checkoutExpiresAt: z.string(),
});

export function releaseRoutes(deps: RouteDeps) {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/dpp/release',
      operationId: 'release',
      summary: 'Put a passport up for resale to one buyer: delegate it on chain and open a Stripe Checkout.',
      description:
        'Starts workflow resale:{env}:{tokenId}: authorizeClaim to the platform admin on chain, then a Stripe ' +
        'Checkout Session for buyerEmail at the price (minor units). The money is split 94/5/1 (seller / brand / ' +
        'platform) when the buyer has claimed. Waits up to MINT_WAIT_MS for the checkout: 201, or 202 with ' +
        'Location of the resale’s status. The buyer has 24 hours to pay (then the checkout expires, the delegation ' +
        'is revoked, the passport is the seller’s again) and 30 days after paying to claim by tapping the chip ' +
        '(then the payment is refunded). A passport already for sale → 409 resale_in_progress; not held by the ' +
        'company’s custodial wallet any more → 422 not_token_owner; recycled → 409 token_recycled; Stripe not ' +
        'configured for the environment → 503 payments_not_configured. The Checkout Session is opened before ' +
        'the chain step, so a release Stripe refuses sends nothing to the chain: 422 payment_provider_rejected ' +
        '(or 503 payments_misconfigured when Stripe refuses the platform’s own credentials), in our words, ' +
        `never Stripe’s.${IDEMPOTENCY_DOC}`,
      tags: ['dpp'],
      auth: 'apiKeyOrUser',
      idempotent: true,
      body: releaseBody,
      responses: {
        404: {
          description: 'token_not_found: no passport with this tokenId in this company and environment.',
        },
        409: { description: 'resale_in_progress (the token is already released) or token_recycled.' },
        422: {
          description:
            'not_token_owner (the token is no longer held by the company) or payment_provider_rejected (Stripe ' +
            'refused the checkout; nothing was sent to the chain).',
        },
        503: {
          description:
            'payments_not_configured or payments_misconfigured (Stripe refused the platform’s credentials).',
        },
        201: { description: 'For sale: send the buyer to paymentCheckoutUrl.', schema: releasedResponse },
        202: { description: 'Still setting up: poll the Location (GET /v1/dpp/resales/{tokenId}).' },
      },
      handler: async (ctx: AppContext, { body }) => {
        const em = ctx.state.em!;
        const scope = ctx.state.scope!;
        await respondIdempotently(ctx, async () => {
          const principal = ctx.state.principal!;
          const terms =
            principal.kind === 'user'
              ? await ownerReleaseTerms(deps.orm.em.fork(), scope.environment, principal, body, {
                  walletMasterSecret: deps.config.identity.walletMasterSecret,
                  publicBaseUrl: deps.config.publicBaseUrl,
                })
              : await brandReleaseTerms(em, scope, body, {
                  custodyMasterSecret: deps.config.secrets.custodyMasterSecret,
                  walletMasterSecret: deps.config.identity.walletMasterSecret,
                  publicBaseUrl: deps.config.publicBaseUrl,
                });
          deps.payments.forEnvironment(scope.environment);
          const gateway = requireWorkflows(deps.workflows);
          await insertResale(em, terms);
          const handle = await startResale(gateway, terms).catch(async (error) => {
            await updateResale(em, terms.resaleId, { status: 'FAILED' });
            if (error instanceof WorkflowExecutionAlreadyStartedError) {
              throw new DomainError(
                'conflict',
                'resale_in_progress',
                `Passport ${terms.tokenId} is already for sale.`,
              );
            }
            throw error;
          });
          const progress = await checkoutWithin(handle, deps.config.mint.waitMs);
          const statusUrl = `/v1/dpp/resales/${terms.tokenId}`;
          if (!progress?.checkoutUrl) {
            ctx.set('Location', statusUrl);
            return {
              status: 202,
              body: {
                success: true,
                status: 'PENDING',
                message: 'Setting up the resale.',
                resaleId: terms.resaleId,
                statusUrl,
              },
            };
          }
          return {
            status: 201,
            body: {
              success: true,
              txHash: progress.authorizeTxHash,
              paymentCheckoutUrl: progress.checkoutUrl,
              message: `Passport ${terms.tokenId} is for sale; the buyer pays at paymentCheckoutUrl.`,
              resaleId: terms.resaleId,
              status: 'AWAITING_PAYMENT',
              checkoutExpiresAt: progress.checkoutExpiresAt,
            },
          };
        });
      },
    }),
  ];
}

function startResale(
  gateway: ReturnType<typeof requireWorkflows>,
  terms: ResaleTerms,
): Promise<WorkflowHandle<typeof resalePassport>> {
  const environment = terms.scope.environment;
  return gateway.client.workflow.start<typeof resalePassport>('resalePassport', {
    workflowId: workflowIds.resale(environment, terms.tokenId),
    taskQueue: taskQueueFor(gateway.taskQueuePrefix, environment),
    args: [terms],
    // A token is resold again and again over its life; only one resale of it runs at a time.
    workflowIdConflictPolicy: 'FAIL',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    staticSummary: `Resale of passport ${terms.tokenId} to ${terms.buyerWallet}`,
    typedSearchAttributes: searchAttributePairs({
      environment,
      company: terms.scope.companyId,
      tokenId: terms.tokenId,
    }),
  });
}

/**
 * The progress once the checkout is open, or undefined if it is not within `ms`. A release that failed to set
 * up answers the failure as its domain error.
 */
async function checkoutWithin(
  handle: WorkflowHandle<typeof resalePassport>,
  ms: number,
): Promise<ResaleProgress | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const progress = await handle.query<ResaleProgress>(RESALE_PROGRESS_QUERY).catch(() => undefined);
    if (progress?.checkoutUrl) return progress;
    if (progress?.state === 'FAILED' || (await handle.describe()).status.name !== 'RUNNING') {
      try {
        await handle.result();
      } catch (error) {
        throw resaleFailureToDomainError(error) ?? error;
      }
    }
    if (Date.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
