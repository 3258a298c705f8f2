import { z } from 'zod';
import { userWalletAddress } from '../../../src/accounts/wallets/user-wallet.ts';
import {
  CLAIM_CHALLENGE_SECONDS,
  issueClaimChallenge,
} from '../../../src/lifecycle/resale/claim-challenge.ts';
import { openResaleForBuyer } from '../../../src/lifecycle/resale/claim-passport.ts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';

/** The body of a challenge request (a claim's or an owner's release's). */
export const challengeBody = z
  .object({ tokenId: z.string().regex(/^[1-9]\d{0,77}$/, 'token ids are decimal digits') })
  .strict();

/** The answer of a challenge request. */
export const issuedChallenge = {
  description: 'The challenge.',
  schema: z.object({
    success: z.literal(true),
    challengeId: z.string(),
    issuedAt: z.string(),
    expiresAt: z.string(),
  }),
};

/** The claim's first step: a challenge, so that only a tap made after it can claim. */
export function claimChallengeRoute(deps: RouteDeps) {
  return defineRoute({
    method: 'post',
    path: '/v1/dpp/claim/challenge',
    operationId: 'claimChallenge',
    summary: 'Start a claim: a challenge that only a tap made after it answers.',
    description:
      `The buyer (user token) of an open resale. Valid ${CLAIM_CHALLENGE_SECONDS / 60} minutes, used once. Then ` +
      'tap the tag: with Web NFC the page reads its URL; on a phone without it, open the tag’s URL (tap it) ' +
      'within the window and post that URL. A reading made before the challenge (a saved or copied link) ' +
      'cannot claim (docs/resale.md "A tap made now").',
    tags: ['dpp'],
    auth: 'user',
    body: challengeBody,
    responses: {
      404: { description: 'resale_not_found: no open resale of this token names the caller’s wallet.' },
      201: issuedChallenge,
    },
    handler: async (ctx: AppContext, { body }) => {
      const principal = ctx.state.principal as { email: string };
      const environment = ctx.state.environment!;
      const em = deps.orm.em.fork();
      const buyerWallet = userWalletAddress(deps.config.identity.walletMasterSecret, principal.email);
      const resale = await openResaleForBuyer(em, { environment, tokenId: body.tokenId, buyerWallet });
      const challenge = await issueClaimChallenge(em, {
        environment,
        tokenId: body.tokenId,
        companyId: resale.company_id,
        buyerEmail: principal.email,
      });
      ctx.status = 201;
      ctx.body = { success: true, ...challenge };
    },
  });
}
