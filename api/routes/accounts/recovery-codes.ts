import { z } from 'zod';
import {
  issueRecoveryCodes,
  RECOVERY_CODE_COUNT,
  redeemRecoveryCode,
  remainingRecoveryCodes,
} from '../../../src/accounts/identity/recovery-codes.ts';
import type { AppContext } from '../../context.ts';
import { defineRoute, type RouteSpec } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { loginAnswer, loginResponse } from './login-answer.ts';

/** A code as a person types it (any case, with or without dashes and spaces). */
export const recoveryCodeBody = z
  .object({ email: z.email().max(254), code: z.string().trim().min(16).max(40) })
  .strict();

export const RECOVERY_NOTE =
  'Each code works once. Signing in with one means the passkey is lost or out of reach: add a new passkey ' +
  'in Security, remove the lost one, and make a new set of codes if few are left.';

/** Recovery codes: how many are left, a new set, and logging in with one (a user token). */
export function recoveryCodeRoutes(deps: RouteDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/auth/recovery-codes',
      operationId: 'recoveryCodesLeft',
      summary: 'How many of the signed-in user’s recovery codes are still unused (never the codes).',
      tags: ['auth'],
      auth: 'user',
      responses: {
        200: {
          description: 'The count; 0 when no set was ever made.',
          schema: z.object({ success: z.literal(true), remaining: z.number().int() }),
        },
      },
      handler: async (ctx: AppContext) => {
        const principal = ctx.state.principal as { userId: number };
        ctx.body = {
          success: true,
          remaining: await remainingRecoveryCodes(deps.orm.em.fork(), principal.userId),
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/recovery-codes',
      operationId: 'newRecoveryCodes',
      summary: `Make a new set of ${RECOVERY_CODE_COUNT} recovery codes: the old set stops working.`,
      description:
        'The codes are in this answer only (the service keeps their hashes): store them somewhere safe, away ' +
        'from the device that holds your passkey. A set is also made when the first passkey is added.',
      tags: ['auth'],
      auth: 'user',
      responses: {
        201: {
          description: 'The new codes, shown once.',
          schema: z.object({ success: z.literal(true), recoveryCodes: z.array(z.string()) }),
        },
      },
      handler: async (ctx: AppContext) => {
        const principal = ctx.state.principal as { userId: number };
        ctx.status = 201;
        ctx.body = {
          success: true,
          recoveryCodes: await issueRecoveryCodes(deps.orm.em.fork(), principal.userId),
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/recovery-code/login',
      operationId: 'recoveryCodeLogin',
      summary:
        'Log in with e-mail and one recovery code (a lost passkey): a user token, as POST /v1/auth/login.',
      description: `${RECOVERY_NOTE} Throttled as password login is.`,
      tags: ['auth'],
      auth: 'none',
      body: recoveryCodeBody,
      responses: {
        200: {
          description: 'Logged in; remainingRecoveryCodes says how many codes are left.',
          schema: loginResponse.extend({ remainingRecoveryCodes: z.number().int(), message: z.string() }),
        },
        401: {
          description: 'recovery_code_invalid: unknown address, wrong or used code, or too many attempts.',
        },
        403: { description: 'sso_required.' },
      },
      handler: async (ctx: AppContext, { body }) => {
        const em = deps.orm.em.fork();
        const { userId, remaining } = await redeemRecoveryCode(em, {
          ...body,
          client: ctx.state.clientAddress,
        });
        ctx.body = {
          ...(await loginAnswer(em, deps.config, userId, ctx.state.environment!)),
          remainingRecoveryCodes: remaining,
          message: RECOVERY_NOTE,
        };
      },
    }),
  ];
}
