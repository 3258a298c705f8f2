import { z } from 'zod';
import {
  CLAIM_CHALLENGE_SECONDS,
  issueClaimChallenge,
} from '../../../src/lifecycle/resale/claim-challenge.ts';
import { releasePassport } from '../../../src/lifecycle/resale/release-passport.ts';
import { ownedPassport, releaseBody } from '../../../src/lifecycle/resale/release-request.ts';
import type { AppContext } from '../../context.ts';
import { IDEMPOTENCY_DOC, respondIdempotently } from '../../idempotency.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { challengeBody, issuedChallenge } from './claim-challenge.ts';

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

/** An owner's release starts with a challenge, so that only a tap made after it can release. */
function releaseChallengeRoute(deps: RouteDeps) {
  return defineRoute({
    method: 'post',
    path: '/v1/dpp/release/challenge',
    operationId: 'releaseChallenge',
    summary: 'Start an owner’s release for resale: a challenge that only a tap made after it answers.',
    description:
      `The passport’s owner (user token). Valid ${CLAIM_CHALLENGE_SECONDS / 60} minutes, used once, for a release ` +
      'only. Then tap the tag (or, on a phone without Web NFC, open the tag’s URL within the window) and post ' +
      'POST /v1/dpp/release with that URL as nfcData and the challengeId (docs/resale.md "A tap made now").',
    tags: ['dpp'],
    auth: 'user',
    body: challengeBody,
    responses: {
      404: { description: 'token_not_found: the caller’s wallet holds no passport with this tokenId.' },
      409: { description: 'token_recycled.' },
      201: issuedChallenge,
    },
    handler: async (ctx: AppContext, { body }) => {
      const principal = ctx.state.principal as { email: string };
      const environment = ctx.state.environment!;
      const em = deps.orm.em.fork();
      const walletMasterSecret = deps.config.identity.walletMasterSecret;
      const passport = await ownedPassport(
        em,
        environment,
        principal.email,
        body.tokenId,
        walletMasterSecret,
      );
      const challenge = await issueClaimChallenge(em, {
        environment,
        tokenId: body.tokenId,
        companyId: passport.company_id,
        buyerEmail: principal.email,
        purpose: 'release',
      });
      ctx.status = 201;
      ctx.body = { success: true, ...challenge };
    },
  });
}

export function releaseRoutes(deps: RouteDeps) {
  return [
    releaseChallengeRoute(deps),
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
        'never Stripe’s. An owner (user token: their invisible wallet holds the passport) releases with a tap ' +
        'made now, as a claim does: first POST /v1/dpp/release/challenge, then send the tag’s URL read after it ' +
        'as nfcData with the challengeId (none → 400 tap_required; a saved or copied tag URL → 422 ' +
        'tap_before_challenge; an unknown, used or expired challenge → 422 challenge_expired; docs/resale.md ' +
        `"A tap made now"). A brand (API key) releases from its custody without a tap.${IDEMPOTENCY_DOC}`,
      tags: ['dpp'],
      auth: 'apiKeyOrUser',
      idempotent: true,
      body: releaseBody,
      responses: {
        404: {
          description: 'token_not_found: no passport with this tokenId in this company and environment.',
        },
        409: { description: 'resale_in_progress (the token is already released) or token_recycled.' },
        400: { description: 'tap_required: an owner’s release names no challengeId and nfcData.' },
        422: {
          description:
            'not_token_owner (the token is no longer held by the company), payment_provider_rejected (Stripe ' +
            'refused the checkout; nothing was sent to the chain), or for an owner’s release challenge_expired, ' +
            'tap_before_challenge or tap_not_authentic (nothing happened).',
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
              box: deps.secretBox,
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
