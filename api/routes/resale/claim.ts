import { z } from 'zod';
import { claimPassport } from '../../../src/lifecycle/resale/claim-passport.ts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';

const claimBody = z
  .object({
    tokenId: z.string().regex(/^[1-9]\d{0,77}$/, 'token ids are decimal digits'),
    nfcData: z
      .string()
      .min(1)
      .max(2000)
      .describe('The URL the chip wrote (read with Web NFC), or its query: picc_data/e and cmac/c.'),
    challengeId: z
      .uuid({ message: 'challengeId is the id POST /v1/dpp/claim/challenge answered' })
      .describe('From POST /v1/dpp/claim/challenge: only a tap read after it claims (used once).'),
  })
  .strict();

/** The buyer takes ownership: a fresh tap of the passport's chip, relayed on chain to their invisible wallet. */
export function claimRoute(deps: RouteDeps) {
  return defineRoute({
    method: 'post',
    path: '/v1/dpp/claim',
    operationId: 'claim',
    summary: 'Claim a bought passport by tapping its chip: ownership moves on chain to the buyer’s wallet.',
    description:
      'The caller is the buyer (user token); the resale must be paid. First POST /v1/dpp/claim/challenge: ' +
      'only a tap read after that challenge claims (a saved or copied tag URL → 422 tap_before_challenge; ' +
      'docs/resale.md "A tap made now"). The tap is verified as verify-chip does ' +
      '(its counter accepted once) and must be the passport’s own chip; then the platform relays ' +
      'claimOwnershipFor to the buyer’s invisible wallet (buyers hold no gas). Emits asset.transferred and ' +
      'asset.resold and records CLAIM_OWNERSHIP. Nothing reaches the chain when a check fails.',
    tags: ['dpp'],
    auth: 'user',
    body: claimBody,
    responses: {
      200: {
        description: 'Claimed: the buyer’s wallet owns the token.',
        schema: z.object({
          success: z.literal(true),
          txHash: z.string(),
          ownerWallet: z.string(),
          message: z.string(),
        }),
      },
      400: { description: 'malformed_sun_payload, or a field fails its schema.' },
      404: { description: 'resale_not_found: no open resale of this token names the caller’s wallet.' },
      409: {
        description:
          'payment_pending (not paid yet), or claim_refused (the resale moved on while the claim was checked).',
      },
      422: {
        description:
          'tap_before_challenge (a reading made before the challenge: tap again now), challenge_expired ' +
          '(unknown, used or expired challenge: ask for a new one) or tap_not_authentic (not a genuine signature ' +
          'of this passport’s chip).',
      },
    },
    handler: async (ctx: AppContext, { body }) => {
      const principal = ctx.state.principal as { email: string };
      const result = await claimPassport(
        {
          em: deps.orm.em.fork(),
          box: deps.secretBox,
          workflows: deps.workflows,
          walletMasterSecret: deps.config.identity.walletMasterSecret,
        },
        { environment: ctx.state.environment!, buyerEmail: principal.email, ...body },
      );
      ctx.body = {
        success: true,
        txHash: result.txHash,
        ownerWallet: result.ownerWallet,
        message: `Passport ${body.tokenId} is yours.`,
      };
    },
  });
}
