import { z } from 'zod';
import { consumeConfirmationToken } from '../../../src/accounts/identity/email-tokens.ts';
import { requestPasswordReset, resetPassword } from '../../../src/accounts/identity/password-reset.ts';
import { PASSWORD_POLICY } from '../../../src/accounts/identity/passwords.ts';
import { registerAccount } from '../../../src/accounts/identity/registration.ts';
import { userTokenKeysOf } from '../../../src/accounts/identity/user-token-keys.ts';
import { userWalletAddress, userWalletOwnerAddress } from '../../../src/accounts/wallets/user-wallet.ts';
import { smtpMailer } from '../../../src/adapters/mail/mailer.ts';
import type { AppContext } from '../../context.ts';
import { Problem } from '../../problem.ts';
import { defineRoute, type RouteSpec } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { knownDeviceCookieFor, loginAnswer, loginResponse, passwordLogIn } from './login-answer.ts';

const email = z.email().max(254);

/** Register, confirm, log in; the user's invisible wallet and the keys that verify user tokens. */
export function accountRoutes(deps: RouteDeps): RouteSpec[] {
  const mailer = smtpMailer(deps.config.identity.smtpUrl, deps.config.identity.mailFrom);
  const keys = () => userTokenKeysOf(deps.config);
  const deviceCookie = knownDeviceCookieFor(deps.config.publicBaseUrl);
  return [
    defineRoute({
      method: 'post',
      path: '/v1/auth/register',
      operationId: 'register',
      summary: 'Create an account (and its company); a confirmation e-mail is sent.',
      description:
        `Passwords: ${PASSWORD_POLICY}, stored as argon2id hashes. The e-mail carries a single-use link valid for ` +
        '24 hours; login is refused until it is followed. An address that already has an account gets the same ' +
        'answer (its userId belongs to no account), and its owner a mail saying someone tried to register; ' +
        'nothing is changed.',
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
          description: 'Registered (or the address already has an account: the same answer); confirm next.',
          schema: z.object({ success: z.literal(true), message: z.string(), userId: z.number().int() }),
        },
        400: { description: 'weak_password, or a field fails its schema.' },
      },
      handler: async (ctx: AppContext, { body }) => {
        const { userId } = await registerAccount(deps.orm.em, mailer, {
          ...body,
          confirmUrl: (token) =>
            `${deps.config.publicBaseUrl}/v1/auth/confirm?token=${encodeURIComponent(token)}`,
          forgotUrl: `${deps.config.publicBaseUrl}/console/reset-password`,
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
        'Opened from a mail client, so it takes no x-service-env. A link works once, for 24 hours. A browser ' +
        "(Accept preferring text/html) is sent on to the web console's sign-in page, which tells the outcome.",
      tags: ['auth'],
      auth: 'none',
      environmentHeader: false,
      query: z.object({ token: z.string().min(20).max(100) }),
      responses: {
        200: {
          description: 'Confirmed.',
          schema: z.object({ success: z.literal(true), message: z.string() }),
        },
        303: {
          description:
            'A browser: to /console/sign-in?email-confirmed=true, or ?email-confirmed=false for a link that is ' +
            'unknown, used or expired.',
        },
        410: { description: 'confirmation_link_invalid: unknown, already used or expired.' },
      },
      handler: async (ctx: AppContext, { query }) => {
        const userId = await consumeConfirmationToken(deps.orm.em.fork(), query.token);
        if (ctx.accepts('json', 'html') === 'html') {
          ctx.status = 303;
          ctx.set('Cache-Control', 'no-store');
          ctx.set('Location', `/console/sign-in?email-confirmed=${userId !== null}`);
          ctx.body = '';
          return;
        }
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
        'Wrong e-mail, wrong password and an attempt that must wait get the same 401 after the same work. ' +
        'Failures slow guessing down (per address and per client: after 5 resp. 20 failures in a row, 1 s, ' +
        'doubling to at most 30 s), never lock the account; a client that logged in before keeps a known-device ' +
        'cookie (dpp_device) and waits only for its own failures. An unconfirmed address → 403 ' +
        'email_not_confirmed.',
      tags: ['auth'],
      auth: 'none',
      body: z.object({ email, password: z.string().min(1).max(1024) }).strict(),
      responses: {
        200: { description: 'Logged in; Set-Cookie renews the known-device cookie.', schema: loginResponse },
        401: { description: 'invalid_credentials: unknown address, wrong password, or too many attempts.' },
        403: { description: 'email_not_confirmed.' },
        429: { description: 'rate_limited.' },
      },
      handler: async (ctx: AppContext, { body }) => {
        const environment = ctx.state.environment!;
        const em = deps.orm.em.fork();
        const { user, deviceCookie: renewed } = await passwordLogIn(ctx, em, deviceCookie, body);
        ctx.append('Set-Cookie', renewed);
        ctx.body = await loginAnswer(em, deps.config, user.id, environment);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/password/reset-request',
      operationId: 'requestPasswordReset',
      summary: 'Mail a password-reset link (the same answer whether or not the address has an account).',
      description:
        'The mail tells the truth for each kind of account: a password account gets a link; one with passkeys ' +
        'is told they keep working beside the new password; one with passkeys and no password gets a link that ' +
        'sets one; an address whose company requires single sign-on gets no link but the way to sign in.',
      tags: ['auth'],
      auth: 'none',
      body: z.object({ email }).strict(),
      responses: {
        202: {
          description: 'If the address has an account, a link valid once for one hour is on its way.',
          schema: z.object({ success: z.literal(true), message: z.string() }),
        },
      },
      handler: async (ctx: AppContext, { body }) => {
        await requestPasswordReset(deps.orm.em.fork(), mailer, body.email, {
          // The console's page; browsers without JavaScript find a link there to GET /reset-password.
          reset: (token) =>
            `${deps.config.publicBaseUrl}/console/reset-password?token=${encodeURIComponent(token)}`,
          signIn: `${deps.config.publicBaseUrl}/console/sign-in`,
        });
        ctx.status = 202;
        ctx.body = {
          success: true,
          message:
            'If this address has an account, we sent it a link to set a new password (or, where its company ' +
            'signs in with single sign-on, how to sign in).',
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/password/reset',
      operationId: 'resetPassword',
      summary:
        'Set a new password with the token from the reset link (once; it also clears the address’s failed logins).',
      description:
        'Takes no x-service-env (accounts span both environments) and a form-encoded body too, so the page ' +
        'the reset link opens (GET /reset-password) can post it without JavaScript.',
      tags: ['auth'],
      auth: 'none',
      environmentHeader: false,
      formBody: true,
      body: z.object({ token: z.string().min(20).max(100), password: z.string().min(1).max(1024) }).strict(),
      responses: {
        200: {
          description:
            'Changed; the message says how the account signs in now (password, or password or passkey).',
          schema: z.object({ success: z.literal(true), message: z.string() }),
        },
        403: { description: 'sso_required: the company requires single sign-on (no password is used).' },
        410: { description: 'reset_link_invalid: unknown, already used or expired.' },
      },
      handler: async (ctx: AppContext, { body }) => {
        const { message } = await resetPassword(deps.orm.em.fork(), body.token, body.password);
        ctx.body = { success: true, message };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/reset-password',
      operationId: 'resetPasswordPage',
      summary: 'The page a reset link opens: a form that sets the new password (no JavaScript).',
      tags: ['auth'],
      auth: 'none',
      query: z.object({ token: z.string().min(20).max(100) }),
      responses: {
        200: { description: 'HTML.', contentType: 'text/html; charset=utf-8', schema: z.string() },
      },
      handler: async (ctx: AppContext, { query }) => {
        ctx.set(
          'Content-Security-Policy',
          "default-src 'none'; form-action 'self'; style-src 'unsafe-inline'",
        );
        ctx.set('Cache-Control', 'no-store');
        ctx.set('Referrer-Policy', 'no-referrer');
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = resetPage(query.token);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/auth/wallet',
      operationId: 'userWallet',
      summary: 'The caller’s invisible wallet: the smart account that receives passports they buy.',
      tags: ['auth'],
      auth: 'user',
      responses: {
        200: {
          description:
            'An ERC-4337 smart account (address known before it exists; its first sponsored operation deploys ' +
            'it), owned by a key derived from the e-mail and the platform’s master secret; no key ever leaves ' +
            'the service. ownerAddress is that key’s own address (which held passports bought before smart ' +
            'accounts: docs/smart-accounts.md).',
          schema: z.object({
            success: z.literal(true),
            address: z.string(),
            kind: z.literal('smart-account'),
            ownerAddress: z.string(),
          }),
        },
      },
      handler: async (ctx: AppContext) => {
        const principal = ctx.state.principal as { email: string };
        const secret = deps.config.identity.walletMasterSecret;
        ctx.body = {
          success: true,
          address: userWalletAddress(secret, principal.email),
          kind: 'smart-account',
          ownerAddress: userWalletOwnerAddress(secret, principal.email),
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

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

function resetPage(token: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Set a new password</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}
label,input,button{display:block;width:100%;margin:.5rem 0}input,button{padding:.6rem;font:inherit}</style></head>
<body><h1>Set a new password</h1>
<form method="post" action="/v1/auth/password/reset">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<label for="password">New password (${PASSWORD_POLICY})</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="12" maxlength="128" required>
<button type="submit">Set password</button>
</form></body></html>
`;
}
