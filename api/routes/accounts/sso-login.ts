import { z } from 'zod';
import { serviceProvider } from '../../../src/accounts/sso/saml.ts';
import {
  completeOidcLogin,
  completeSamlLogin,
  discoverLogin,
  type SsoEndpoints,
} from '../../../src/accounts/sso/sso.ts';
import type { AppContext } from '../../context.ts';
import { defineRoute, type RouteSpec } from '../../route.ts';
import { finishConsoleSso, startedFromConsole } from '../console/sso-session.ts';
import type { RouteDeps } from '../deps.ts';
import { loginAnswer, loginResponse } from './login-answer.ts';

/** What the provider's return to us answers (OIDC callback, SAML ACS); `refused` lists the 401 codes. */
function loggedInResponses(refused: string) {
  return {
    200: { description: 'Logged in.', schema: loginResponse },
    303: {
      description:
        'A login started from the console (POST /v1/console/session/sso, its cookie): the console session is ' +
        'set and the browser sent to /console/, or to /console/sign-in?sso-error=<code>.',
    },
    401: { description: refused },
    409: { description: 'email_in_other_company.' },
  };
}

/** How a person logs in with SSO: discovery, then the OIDC callback or the SAML assertion consumer. */
export function ssoLoginRoutes(deps: RouteDeps, endpoints: SsoEndpoints): RouteSpec[] {
  const callbackUrl = endpoints.oidcRedirectUri;
  const samlEndpoints = endpoints.saml;
  const outbound = endpoints.outbound;
  return [
    defineRoute({
      method: 'post',
      path: '/v1/auth/sso/discover',
      operationId: 'discoverSso',
      summary: 'Where an e-mail logs in: its company’s identity provider, or password/passkey here.',
      tags: ['auth'],
      auth: 'none',
      body: z.object({ email: z.email().max(254) }).strict(),
      responses: {
        200: {
          description:
            'method sso with the provider’s authorization URL (state, nonce, PKCE), or password_or_passkey.',
          schema: z.object({
            success: z.literal(true),
            method: z.enum(['sso', 'password_or_passkey']),
            protocol: z.enum(['oidc', 'saml']).optional(),
            authorizationUrl: z.string().optional(),
          }),
        },
      },
      handler: async (ctx: AppContext, { body }) => {
        const found = await discoverLogin(deps.orm.em.fork(), body.email, ctx.state.environment!, endpoints);
        ctx.body = { success: true, ...found };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/auth/sso/oidc/callback',
      operationId: 'oidcCallback',
      summary:
        'The provider sends the browser back here: the login answer (as POST /v1/auth/login gives it).',
      description:
        'Takes no x-service-env: the environment is the one discovery was called with. Users are found by the ' +
        'provider’s (issuer, subject), or provisioned just in time into the domain’s company.',
      tags: ['auth'],
      auth: 'none',
      environmentHeader: false,
      query: z.object({ code: z.string().min(1).max(2000), state: z.string().min(1).max(200) }),
      responses: loggedInResponses('sso_state_invalid or sso_login_failed.'),
      handler: async (ctx: AppContext, { query }) => {
        const em = deps.orm.em.fork();
        const complete = () =>
          completeOidcLogin(em, deps.secretBox, { ...query, redirectUri: callbackUrl }, outbound);
        if (startedFromConsole(ctx, deps.config.publicBaseUrl, query.state)) {
          return finishConsoleSso(ctx, em, deps.config.publicBaseUrl, complete);
        }
        const { userId, environment } = await complete();
        ctx.set('Cache-Control', 'no-store');
        ctx.body = await loginAnswer(em, deps.config, userId, environment);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/auth/sso/saml/metadata',
      operationId: 'samlMetadata',
      summary: 'Our SAML 2.0 service provider metadata (entity id, assertion consumer service).',
      tags: ['auth'],
      auth: 'none',
      environmentHeader: false,
      responses: {
        200: { description: 'XML.', contentType: 'application/samlmetadata+xml', schema: z.string() },
      },
      handler: async (ctx: AppContext) => {
        ctx.type = 'application/samlmetadata+xml';
        ctx.body = serviceProvider(deps.orm.em.fork(), samlEndpoints).generateServiceProviderMetadata(
          null,
          null,
        );
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/sso/saml/acs',
      operationId: 'samlAssertionConsumer',
      summary: 'The IdP posts its signed response here (HTTP-POST binding): the login answer.',
      description:
        'Signed assertions only; audience, recipient, InResponseTo (the request we sent), validity window (60 s ' +
        'of skew) checked; an assertion is accepted once (a replay → 401 saml_assertion_replayed).',
      tags: ['auth'],
      auth: 'none',
      environmentHeader: false,
      formBody: true,
      bodyLimitBytes: 1024 * 1024,
      body: z.object({ SAMLResponse: z.string().min(1), RelayState: z.string().min(1).max(200) }),
      responses: loggedInResponses('sso_state_invalid, sso_login_failed or saml_assertion_replayed.'),
      handler: async (ctx: AppContext, { body }) => {
        const em = deps.orm.em.fork();
        const complete = () =>
          completeSamlLogin(em, samlEndpoints, {
            samlResponse: body.SAMLResponse,
            relayState: body.RelayState,
          });
        if (startedFromConsole(ctx, deps.config.publicBaseUrl, body.RelayState)) {
          return finishConsoleSso(ctx, em, deps.config.publicBaseUrl, complete);
        }
        const { userId, environment } = await complete();
        ctx.set('Cache-Control', 'no-store');
        ctx.body = await loginAnswer(em, deps.config, userId, environment);
      },
    }),
  ];
}
