import { z } from 'zod';
import { logIn, registerAccount } from '../../../src/identity/accounts.ts';
import { consumeConfirmationToken } from '../../../src/identity/email-tokens.ts';
import { PASSWORD_POLICY } from '../../../src/identity/passwords.ts';
import { signUserToken, USER_TOKEN_SECONDS } from '../../../src/identity/user-token.ts';
import { userTokenKeysOf } from '../../../src/identity/user-token-keys.ts';
import { smtpMailer } from '../../../src/mail/mailer.ts';
import { userWalletAddress } from '../../../src/wallets/user-wallet.ts';
import type { AppContext } from '../../context.ts';
import { Problem } from '../../problem.ts';
import { defineRoute, type RouteSpec } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';

const email = z.email().max(254);
const loginResponse = z.object({
  success: z.literal(true),
  token: z
    .string()
    .describe(
      `A JWT (EdDSA, kid in its header; keys at /.well-known/jwks.json), valid ${USER_TOKEN_SECONDS} s.`,
    ),
  user: z.object({ id: z.number().int(), email: z.string(), companyName: z.string() }),
});

/** Register, confirm, log in; the user's invisible wallet and the keys that verify user tokens. */
export function accountRoutes(deps: RouteDeps): RouteSpec[] {
  const mailer = smtpMailer(deps.config.identity.smtpUrl, deps.config.identity.mailFrom);
  const keys = () => userTokenKeysOf(deps.config);
  return [
    defineRoute({
      method: 'post',
      path: '/v1/auth/register',
      operationId: 'register',
      summary: 'Create an account (and its company); a confirmation e-mail is sent.',
      description:
        `Passwords: ${PASSWORD_POLICY}, stored as argon2id hashes. The e-mail carries a single-use link valid for ` +
        '24 hours; login is refused until it is followed. An address that already has an account → 409.',
      tags: ['auth'],
      auth: 'none',
      body: z
        .object({
          email,
          password: z.string().min(1).max(1024),
          companyName: z.string().trim().min(1).max(200),
        })
        .strict(),
      responses: {
        201: {
          description: 'Registered; confirm the e-mail address next.',
          schema: z.object({ success: z.literal(true), message: z.string(), userId: z.number().int() }),
        },
        400: { description: 'weak_password, or a field fails its schema.' },
        409: { description: 'email_already_registered.' },
      },
      handler: async (ctx: AppContext, { body }) => {
        const { userId } = await registerAccount(deps.orm.em, mailer, {
          ...body,
          confirmUrl: (token) =>
            `${deps.config.publicBaseUrl}/v1/auth/confirm?token=${encodeURIComponent(token)}`,
        });
        ctx.status = 201;
        ctx.body = {
          success: true,
          message: `We sent a confirmation link to ${body.email.trim().toLowerCase()}: follow it, then log in.`,
          userId,
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/auth/confirm',
      operationId: 'confirmEmail',
      summary: 'Confirm an e-mail address (the link from the registration e-mail).',
      description:
        'Opened from a mail client, so it takes no x-service-env. A link works once, for 24 hours.',
      tags: ['auth'],
      auth: 'none',
      environmentHeader: false,
      query: z.object({ token: z.string().min(20).max(100) }),
      responses: {
        200: {
          description: 'Confirmed.',
          schema: z.object({ success: z.literal(true), message: z.string() }),
        },
        410: { description: 'confirmation_link_invalid: unknown, already used or expired.' },
      },
      handler: async (ctx: AppContext, { query }) => {
        const userId = await consumeConfirmationToken(deps.orm.em.fork(), query.token);
        if (userId === null) {
          throw new Problem(
            410,
            'confirmation_link_invalid',
            'This confirmation link is unknown, already used or expired.',
          );
        }
        ctx.body = { success: true, message: 'Your e-mail address is confirmed: you can log in.' };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/login',
      operationId: 'login',
      summary: 'Log in with e-mail and password: a user token for the environment named by x-service-env.',
      description:
        'Wrong e-mail and wrong password get the same 401 after the same work. Five wrong passwords in a row ' +
        'lock the account for 15 minutes (429 account_locked). An unconfirmed address → 403 email_not_confirmed.',
      tags: ['auth'],
      auth: 'none',
      body: z.object({ email, password: z.string().min(1).max(1024) }).strict(),
      responses: {
        200: { description: 'Logged in.', schema: loginResponse },
        401: { description: 'invalid_credentials.' },
        403: { description: 'email_not_confirmed.' },
        429: { description: 'account_locked (or rate_limited).' },
      },
      handler: async (ctx: AppContext, { body }) => {
        const environment = ctx.state.environment!;
        const user = await logIn(deps.orm.em.fork(), body.email, body.password);
        ctx.body = {
          success: true,
          token: signUserToken(keys(), {
            userId: user.id,
            email: user.email,
            companyId: user.companyId,
            environment,
          }),
          user: { id: user.id, email: user.email, companyName: user.companyName },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/auth/wallet',
      operationId: 'userWallet',
      summary: 'The caller’s invisible wallet: the account that receives passports they buy.',
      tags: ['auth'],
      auth: 'user',
      responses: {
        200: {
          description:
            'Derived from the e-mail and the platform’s master secret; no key ever leaves the service.',
          schema: z.object({ success: z.literal(true), address: z.string() }),
        },
      },
      handler: async (ctx: AppContext) => {
        const principal = ctx.state.principal as { email: string };
        ctx.body = {
          success: true,
          address: userWalletAddress(deps.config.identity.walletMasterSecret, principal.email),
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/.well-known/jwks.json',
      operationId: 'userTokenKeys',
      summary: 'The public keys that verify user tokens (JWKS).',
      tags: ['auth'],
      auth: 'none',
      responses: {
        200: {
          description: 'One Ed25519 key per kid.',
          schema: z.object({ keys: z.array(z.record(z.string(), z.string())) }),
        },
      },
      handler: async (ctx: AppContext) => {
        ctx.set('Cache-Control', 'public, max-age=300');
        ctx.body = { keys: [keys().publicJwk] };
      },
    }),
  ];
}
