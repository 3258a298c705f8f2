import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { z } from 'zod';
import { verifyLogin } from '../../../src/accounts/identity/passkeys.ts';
import { redeemRecoveryCode } from '../../../src/accounts/identity/recovery-codes.ts';
import { assertSsoNotRequired } from '../../../src/accounts/sso/sso.ts';
import type { AppContext } from '../../context.ts';
import { assertSameOrigin, consoleCookieFor } from '../../middleware/console-session.ts';
import { defineRoute, type RouteSpec } from '../../route.ts';
import { authenticationResponse } from '../accounts/passkeys.ts';
import { RECOVERY_NOTE, recoveryCodeBody } from '../accounts/recovery-codes.ts';
import type { RouteDeps } from '../deps.ts';
import { sessionUser } from './session.ts';
import { startConsoleSession } from './start-session.ts';

/**
 * Passkey sign-in to the web console (the assertion of POST /v1/auth/passkey/login/verify), and its fallback for
 * a lost passkey, a recovery code; each answered with a session.
 */
export function consolePasskeySessionRoutes(deps: RouteDeps): RouteSpec[] {
  const cookie = consoleCookieFor(deps.config.publicBaseUrl);
  const rp = () => ({
    id: deps.config.identity.passkeyRpId,
    name: deps.config.identity.passkeyRpName,
    origins: [new URL(deps.config.publicBaseUrl).origin],
  });
  return [
    defineRoute({
      method: 'post',
      path: '/v1/console/session/passkey',
      operationId: 'consolePasskeySignIn',
      summary: 'Sign in to the web console with a passkey: sets the session cookie.',
      description:
        'Start with POST /v1/auth/passkey/login/challenge, then send the authenticator’s assertion here. The ' +
        'same checks as POST /v1/auth/passkey/login/verify (challenge once, origin, RP id, signature, counter; ' +
        'SSO-required domains refused); the answer is the console session cookie instead of a token. The ' +
        'request must come from the console’s origin (Origin header).',
      tags: ['console'],
      auth: 'none',
      body: authenticationResponse,
      responses: {
        200: {
          description: 'Signed in; the Set-Cookie header carries the session.',
          schema: z.object({ success: z.literal(true), user: sessionUser }),
        },
        401: { description: 'passkey_challenge_invalid or passkey_not_verified.' },
        403: { description: 'sso_required or cross_origin_refused.' },
      },
      handler: async (ctx: AppContext, { body }) => {
        assertSameOrigin(ctx, cookie);
        const em = deps.orm.em.fork();
        const userId = await verifyLogin(em, rp(), body as AuthenticationResponseJSON);
        const [owner] = await em.execute<{ email: string }[]>('select email from users where id = ?', [
          userId,
        ]);
        await assertSsoNotRequired(em, owner!.email);
        ctx.body = { success: true, user: await startConsoleSession(ctx, em, cookie, userId) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/console/session/recovery-code',
      operationId: 'consoleRecoveryCodeSignIn',
      summary:
        'Sign in to the web console with e-mail and one recovery code (a lost passkey): sets the session cookie.',
      description: `The same checks as POST /v1/auth/recovery-code/login. ${RECOVERY_NOTE}`,
      tags: ['console'],
      auth: 'none',
      body: recoveryCodeBody,
      responses: {
        200: {
          description: 'Signed in; addPasskey asks the console to lead the person to Security.',
          schema: z.object({
            success: z.literal(true),
            user: sessionUser,
            remainingRecoveryCodes: z.number().int(),
            addPasskey: z.literal(true),
            message: z.string(),
          }),
        },
        401: {
          description: 'recovery_code_invalid: unknown address, wrong or used code, or too many attempts.',
        },
        403: { description: 'sso_required or cross_origin_refused.' },
      },
      handler: async (ctx: AppContext, { body }) => {
        assertSameOrigin(ctx, cookie);
        const em = deps.orm.em.fork();
        const { userId, remaining } = await redeemRecoveryCode(em, {
          ...body,
          client: ctx.state.clientAddress,
        });
        ctx.body = {
          success: true,
          user: await startConsoleSession(ctx, em, cookie, userId),
          remainingRecoveryCodes: remaining,
          addPasskey: true,
          message: RECOVERY_NOTE,
        };
      },
    }),
  ];
}
