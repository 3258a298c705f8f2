import { z } from 'zod';
import { releasePassport } from '../../../src/lifecycle/resale/release-passport.ts';
import { releaseBody } from '../../../src/lifecycle/resale/release-request.ts';
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
        const principal = ctx.state.principal!;
        await respondIdempotently(ctx, async () => {
          const release = await releasePassport(
            {
              em: ctx.state.em!,
              unscopedEm: () => deps.orm.em.fork(),
              config: deps.config,
              payments: deps.payments,
              workflows: deps.workflows,
            },
            {
              scope: ctx.state.scope!,
              releaser: principal.kind === 'user' ? principal : { kind: 'company' },
              request: body,
            },
          );
          const { resaleId, tokenId, opened } = release;
          if (!opened?.checkoutUrl) {
            const statusUrl = `/v1/dpp/resales/${tokenId}`;
            ctx.set('Location', statusUrl);
            return {
              status: 202,
              body: {
                success: true,
                status: 'PENDING',
                message: 'Setting up the resale.',
                resaleId,
                statusUrl,
              },
            };
          }
          return {
            status: 201,
            body: {
              success: true,
              txHash: opened.authorizeTxHash,
              paymentCheckoutUrl: opened.checkoutUrl,
              message: `Passport ${tokenId} is for sale; the buyer pays at paymentCheckoutUrl.`,
              resaleId,
              status: 'AWAITING_PAYMENT',
              checkoutExpiresAt: opened.checkoutExpiresAt,
            },
          };
        });
      },
    }),
  ];
}
