import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { z } from 'zod';
import {
  listPasskeys,
  loginChallenge,
  type RelyingParty,
  registrationChallenge,
  removePasskey,
  verifyLogin,
  verifyRegistration,
} from '../../../src/accounts/identity/passkeys.ts';
import { issueRecoveryCodes, remainingRecoveryCodes } from '../../../src/accounts/identity/recovery-codes.ts';
import { assertSsoNotRequired } from '../../../src/accounts/sso/sso.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import type { AppContext } from '../../context.ts';
import { defineRoute, type RouteSpec } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { loginAnswer, loginResponse } from './login-answer.ts';
import { PASSKEY_PAGE, PASSKEY_SCRIPT } from './passkey-page.ts';
import { recoveryCodeRoutes } from './recovery-codes.ts';

const b64url = z
  .string()
  .regex(/^[A-Za-z0-9_-]+$/, 'base64url')
  .max(4096);
const registrationResponse = z.object({
  id: b64url,
  rawId: b64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url,
    attestationObject: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/)
      .max(16_384),
    transports: z.array(z.string().max(20)).max(10).optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).optional(),
  authenticatorAttachment: z.string().max(30).optional(),
});
/** A WebAuthn assertion as @simplewebauthn/browser (or PublicKeyCredential.toJSON) sends it. */
export const authenticationResponse = z.object({
  id: b64url,
  rawId: b64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url,
    authenticatorData: b64url,
    signature: b64url,
    userHandle: b64url.optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).optional(),
  authenticatorAttachment: z.string().max(30).optional(),
});

/** The four WebAuthn endpoints of the spec, and a small page that runs the ceremonies in a browser. */
export function passkeyRoutes(deps: RouteDeps): RouteSpec[] {
  const rp = (): RelyingParty => ({
    id: deps.config.identity.passkeyRpId,
    name: deps.config.identity.passkeyRpName,
    origins: [new URL(deps.config.publicBaseUrl).origin],
  });
  const decoySecret =
    deps.config.secrets.dataEncryptionKey ?? Buffer.from('dpp-development-only-passkey-decoys');
  return [
    ...recoveryCodeRoutes(deps),
    defineRoute({
      method: 'post',
      path: '/v1/auth/passkey/register/challenge',
      operationId: 'passkeyRegisterChallenge',
      summary: 'Start registering a passkey for the signed-in user (the e-mail must be theirs).',
      description:
        'Needs the user’s token: nobody registers a passkey for someone else’s account. The challenge works ' +
        'once, for five minutes. rp.id is the apex domain passkeys are bound to (PASSKEY_RP_ID).',
      tags: ['auth'],
      auth: 'user',
      body: z.object({ email: z.email().max(254) }).strict(),
      responses: {
        200: {
          description: 'PublicKeyCredentialCreationOptions (the spec’s members and the rest WebAuthn uses).',
          schema: z.looseObject({
            challenge: z.string(),
            rp: z.object({ name: z.string(), id: z.string() }),
            user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
            pubKeyCredParams: z.array(z.object({ type: z.literal('public-key'), alg: z.number().int() })),
          }),
        },
        403: { description: 'email_mismatch: the e-mail is not the signed-in user’s.' },
      },
      handler: async (ctx: AppContext, { body }) => {
        const principal = ctx.state.principal as { userId: number; email: string };
        if (body.email.trim().toLowerCase() !== principal.email) {
          throw new DomainError(
            'forbidden',
            'email_mismatch',
            'A passkey can only be added to your own account.',
          );
        }
        ctx.body = await registrationChallenge(deps.orm.em.fork(), rp(), {
          id: principal.userId,
          email: principal.email,
        });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/passkey/register/verify',
      operationId: 'passkeyRegisterVerify',
      summary: 'Finish registering: the attestation is verified and the passkey stored.',
      description:
        'The passkey is a second way in: the password, if the account has one, keeps working. When the user has ' +
        'no unused recovery code (their first passkey), a set of recovery codes comes with the answer, once.',
      tags: ['auth'],
      auth: 'user',
      body: registrationResponse,
      responses: {
        200: {
          description: 'Registered.',
          schema: z.object({
            success: z.literal(true),
            message: z.string(),
            recoveryCodes: z
              .array(z.string())
              .optional()
              .describe('Only when the user had no unused code: shown this once, stored hashed.'),
          }),
        },
        401: { description: 'passkey_challenge_invalid or passkey_not_verified.' },
      },
      handler: async (ctx: AppContext, { body }) => {
        const principal = ctx.state.principal as { userId: number };
        const em = deps.orm.em.fork();
        await verifyRegistration(em, rp(), principal.userId, body as RegistrationResponseJSON);
        const recoveryCodes =
          (await remainingRecoveryCodes(em, principal.userId)) === 0
            ? await issueRecoveryCodes(em, principal.userId)
            : undefined;
        ctx.body = {
          success: true,
          message: 'Passkey registered: sign in with it or with your password, as you like.',
          ...(recoveryCodes ? { recoveryCodes } : {}),
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/passkey/login/challenge',
      operationId: 'passkeyLoginChallenge',
      summary: 'Start a passkey login for an e-mail address.',
      description: 'The same shape for every address, with or without passkeys (no enumeration).',
      tags: ['auth'],
      auth: 'none',
      body: z.object({ email: z.email().max(254) }).strict(),
      responses: {
        200: {
          description: 'PublicKeyCredentialRequestOptions.',
          schema: z.looseObject({
            challenge: z.string(),
            allowCredentials: z.array(z.looseObject({ type: z.literal('public-key'), id: z.string() })),
          }),
        },
      },
      handler: async (ctx: AppContext, { body }) => {
        ctx.body = await loginChallenge(deps.orm.em.fork(), rp(), body.email, decoySecret);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/passkey/login/verify',
      operationId: 'passkeyLoginVerify',
      summary: 'Finish a passkey login: a user token for the environment named by x-service-env.',
      tags: ['auth'],
      auth: 'none',
      body: authenticationResponse,
      responses: {
        200: {
          description: 'Logged in (the same answer as POST /v1/auth/login).',
          schema: loginResponse,
        },
        401: { description: 'passkey_challenge_invalid or passkey_not_verified.' },
      },
      handler: async (ctx: AppContext, { body }) => {
        const em = deps.orm.em.fork();
        const userId = await verifyLogin(em, rp(), body as AuthenticationResponseJSON);
        const [owner] = await em.execute<{ email: string }[]>('select email from users where id = ?', [
          userId,
        ]);
        await assertSsoNotRequired(em, owner!.email);
        ctx.body = await loginAnswer(em, deps.config, userId, ctx.state.environment!);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/auth/passkeys',
      operationId: 'listPasskeys',
      summary: 'The signed-in user’s own passkeys (ids, kind, created, last used; no key material).',
      tags: ['auth'],
      auth: 'user',
      responses: {
        200: {
          description: 'Newest first.',
          schema: z.object({
            success: z.literal(true),
            passkeys: z.array(
              z.object({
                id: z.string(),
                deviceType: z.string().describe('singleDevice or multiDevice (synced).'),
                backedUp: z.boolean(),
                createdAt: z.iso.datetime(),
                lastUsedAt: z.iso.datetime().nullable(),
              }),
            ),
          }),
        },
      },
      handler: async (ctx: AppContext) => {
        const principal = ctx.state.principal as { userId: number };
        ctx.body = { success: true, passkeys: await listPasskeys(deps.orm.em.fork(), principal.userId) };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/auth/passkeys/:id',
      operationId: 'removePasskey',
      summary: 'Remove one of the signed-in user’s passkeys.',
      description: 'The password (if the account has one) and the recovery codes keep working.',
      tags: ['auth'],
      auth: 'user',
      params: z.object({ id: b64url }),
      responses: {
        200: {
          description: 'Removed.',
          schema: z.object({ success: z.literal(true), message: z.string() }),
        },
        404: { description: 'passkey_not_found: not one of your passkeys.' },
      },
      handler: async (ctx: AppContext, { params }) => {
        const principal = ctx.state.principal as { userId: number };
        await removePasskey(deps.orm.em.fork(), principal.userId, params.id);
        ctx.body = { success: true, message: 'Passkey removed.' };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/passkeys',
      operationId: 'passkeyPage',
      summary: 'A small page that registers a passkey and logs in with one (WebAuthn in the browser).',
      tags: ['auth'],
      auth: 'none',
      responses: {
        200: { description: 'HTML.', contentType: 'text/html; charset=utf-8', schema: z.string() },
      },
      handler: async (ctx: AppContext) => {
        ctx.set(
          'Content-Security-Policy',
          "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'",
        );
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = PASSKEY_PAGE;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/passkeys/passkeys.js',
      operationId: 'passkeyPageScript',
      summary: 'The passkey page’s script.',
      tags: ['auth'],
      auth: 'none',
      responses: {
        200: {
          description: 'JavaScript.',
          contentType: 'text/javascript; charset=utf-8',
          schema: z.string(),
        },
      },
      handler: async (ctx: AppContext) => {
        ctx.type = 'text/javascript; charset=utf-8';
        ctx.body = PASSKEY_SCRIPT;
      },
    }),
  ];
}
