import { z } from 'zod';
import { serviceProvider } from '../../../src/accounts/sso/saml.ts';
import {
  claimDomain,
  completeOidcLogin,
  completeSamlLogin,
  discoverLogin,
  type SsoEndpoints,
  saveOidcConnection,
  saveSamlConnection,
  ssoSettings,
  verifyDomain,
} from '../../../src/accounts/sso/sso.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute, type RouteSpec } from '../../route.ts';
import { finishConsoleSso, startedFromConsole } from '../console/sso-session.ts';
import type { RouteDeps } from '../deps.ts';
import { loginAnswer, loginResponse } from './login-answer.ts';

const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    'a domain name such as acme.example',
  );
const domainParams = z.object({ domain });

/** Our side of SSO: the OIDC redirect URI, the SAML service provider's addresses, the outbound policy. */
export function ssoEndpoints(deps: RouteDeps): SsoEndpoints {
  return {
    oidcRedirectUri: `${deps.config.publicBaseUrl}/v1/auth/sso/oidc/callback`,
    saml: {
      entityId: `${deps.config.publicBaseUrl}/v1/auth/sso/saml/metadata`,
      acsUrl: `${deps.config.publicBaseUrl}/v1/auth/sso/saml/acs`,
    },
    outbound: { allowPrivate: deps.config.identity.ssoAllowPrivateUrls },
  };
}

/** Enterprise SSO over OpenID Connect: verified domains, the company's provider, discovery and the callback. */
export function ssoRoutes(deps: RouteDeps): RouteSpec[] {
  const endpoints = ssoEndpoints(deps);
  const callbackUrl = endpoints.oidcRedirectUri;
  const samlEndpoints = endpoints.saml;
  const outbound = endpoints.outbound;
  return [
    defineRoute({
      method: 'get',
      path: '/v1/auth/sso',
      operationId: 'ssoSettings',
      summary: 'The company’s SSO settings: claimed domains (with their proof) and its identity provider.',
      description:
        'The OIDC client secret and the SAML certificate are never returned. People of the company (console ' +
        'session, user token) of every role may read; only owners change (role_forbidden otherwise).',
      tags: ['auth'],
      auth: 'apiKeyOrUser',
      responses: {
        200: {
          description: 'The settings; connection null without an identity provider.',
          schema: z.object({
            success: z.literal(true),
            domains: z.array(
              z.object({
                domain: z.string(),
                verificationToken: z.string(),
                verified: z.boolean(),
                proofUrl: z.string(),
              }),
            ),
            connection: z
              .discriminatedUnion('protocol', [
                z.object({
                  protocol: z.literal('oidc'),
                  issuer: z.string(),
                  clientId: z.string(),
                  required: z.boolean(),
                }),
                z.object({
                  protocol: z.literal('saml'),
                  entityId: z.string(),
                  ssoUrl: z.string(),
                  required: z.boolean(),
                }),
              ])
              .nullable(),
            oidcRedirectUri: z.string(),
            samlMetadataUrl: z.string(),
            samlAcsUrl: z.string(),
          }),
        },
      },
      handler: async (ctx: AppContext) => {
        await requireRight(ctx, 'read', 'see the SSO settings');
        const settings = await ssoSettings(deps.orm.em.fork(), ctx.state.scope!.companyId);
        ctx.body = {
          success: true,
          domains: settings.domains.map((d) => ({
            ...d,
            proofUrl: deps.config.identity.ssoDomainProofUrl.replace('{domain}', d.domain),
          })),
          connection: settings.connection,
          oidcRedirectUri: callbackUrl,
          samlMetadataUrl: samlEndpoints.entityId,
          samlAcsUrl: samlEndpoints.acsUrl,
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/sso/domains',
      operationId: 'claimSsoDomain',
      summary: 'Claim an e-mail domain for SSO: publish the returned token at the proof URL, then verify.',
      tags: ['auth'],
      auth: 'apiKeyOrUser',
      body: z.object({ domain }).strict(),
      responses: {
        201: {
          description: 'Claimed (not verified yet).',
          schema: z.object({
            success: z.literal(true),
            domain: z.string(),
            verificationToken: z.string(),
            verified: z.boolean(),
            proofUrl: z.string(),
          }),
        },
        403: { description: 'role_forbidden: only owners change SSO settings (people).' },
        409: { description: 'domain_claimed: another company claimed it.' },
      },
      handler: async (ctx: AppContext, { body }) => {
        await requireRight(ctx, 'manageCompany', 'claim SSO domains');
        const claimed = await claimDomain(deps.orm.em.fork(), ctx.state.scope!.companyId, body.domain);
        ctx.status = 201;
        ctx.body = {
          success: true,
          ...claimed,
          proofUrl: deps.config.identity.ssoDomainProofUrl.replace('{domain}', body.domain),
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/auth/sso/domains/:domain/verify',
      operationId: 'verifySsoDomain',
      summary: 'Verify a claimed domain: its proof URL must serve the verification token.',
      tags: ['auth'],
      auth: 'apiKeyOrUser',
      params: domainParams,
      responses: {
        200: {
          description: 'Verified.',
          schema: z.object({ success: z.literal(true), domain: z.string(), verified: z.literal(true) }),
        },
        403: { description: 'role_forbidden: only owners change SSO settings (people).' },
        422: { description: 'domain_proof_missing: the proof URL does not serve the token.' },
      },
      handler: async (ctx: AppContext, { params }) => {
        await requireRight(ctx, 'manageCompany', 'verify SSO domains');
        await verifyDomain(
          deps.orm.em.fork(),
          ctx.state.scope!.companyId,
          params.domain,
          deps.config.identity.ssoDomainProofUrl,
          outbound,
        );
        ctx.body = { success: true, domain: params.domain, verified: true };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/v1/auth/sso/oidc',
      operationId: 'setOidcConnection',
      summary:
        'The company’s OpenID Connect provider; `required` makes SSO mandatory for its verified domains.',
      description:
        `Register ${callbackUrl} as the redirect URI at the provider. The client secret is stored sealed and ` +
        'never returned. The provider’s discovery document must name exactly this issuer.',
      tags: ['auth'],
      auth: 'apiKeyOrUser',
      body: z
        .object({
          issuer: z.url().max(500),
          clientId: z.string().min(1).max(200),
          clientSecret: z.string().min(1).max(500),
          required: z.boolean().default(false),
        })
        .strict(),
      responses: {
        403: { description: 'role_forbidden: only owners change SSO settings (people).' },
        422: {
          description: 'issuer_not_usable: no discovery document naming exactly this issuer could be read.',
        },
        200: {
          description: 'Saved.',
          schema: z.object({
            success: z.literal(true),
            connection: z.object({
              protocol: z.literal('oidc'),
              issuer: z.string(),
              clientId: z.string(),
              required: z.boolean(),
              redirectUri: z.string(),
            }),
          }),
        },
      },
      handler: async (ctx: AppContext, { body }) => {
        await requireRight(ctx, 'manageCompany', 'change the SSO connection');
        await saveOidcConnection(
          deps.orm.em.fork(),
          deps.secretBox,
          ctx.state.scope!.companyId,
          body,
          outbound,
        );
        ctx.body = {
          success: true,
          connection: {
            protocol: 'oidc',
            issuer: body.issuer,
            clientId: body.clientId,
            required: body.required,
            redirectUri: callbackUrl,
          },
        };
      },
    }),
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
      responses: {
        200: {
          description: 'Logged in.',
          schema: loginResponse,
        },
        303: {
          description:
            'A login started from the console (POST /v1/console/session/sso, its cookie): the console session is ' +
            'set and the browser sent to /console/, or to /console/sign-in?sso-error=<code>.',
        },
        401: { description: 'sso_state_invalid or sso_login_failed.' },
        409: { description: 'email_in_other_company.' },
      },
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
      method: 'put',
      path: '/v1/auth/sso/saml',
      operationId: 'setSamlConnection',
      summary: 'The company’s SAML 2.0 IdP; `required` makes SSO mandatory for its verified domains.',
      description:
        `Give the IdP our metadata (${samlEndpoints.entityId}): entity id and assertion consumer service ` +
        `${samlEndpoints.acsUrl} (HTTP-POST). Assertions must be signed with the certificate given here.`,
      tags: ['auth'],
      auth: 'apiKeyOrUser',
      body: z
        .object({
          entityId: z.string().min(1).max(500),
          ssoUrl: z.url().max(1000),
          certificate: z
            .string()
            .min(100)
            .max(20_000)
            .describe('The IdP’s signing certificate, PEM or base64 DER.'),
          required: z.boolean().default(false),
        })
        .strict(),
      responses: {
        403: { description: 'role_forbidden: only owners change SSO settings (people).' },
        200: {
          description: 'Saved.',
          schema: z.object({
            success: z.literal(true),
            connection: z.object({
              protocol: z.literal('saml'),
              entityId: z.string(),
              required: z.boolean(),
              acsUrl: z.string(),
            }),
          }),
        },
      },
      handler: async (ctx: AppContext, { body }) => {
        await requireRight(ctx, 'manageCompany', 'change the SSO connection');
        await saveSamlConnection(deps.orm.em.fork(), ctx.state.scope!.companyId, body);
        ctx.body = {
          success: true,
          connection: {
            protocol: 'saml',
            entityId: body.entityId,
            required: body.required,
            acsUrl: samlEndpoints.acsUrl,
          },
        };
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
      responses: {
        200: {
          description: 'Logged in.',
          schema: loginResponse,
        },
        303: {
          description:
            'A login started from the console (POST /v1/console/session/sso, its cookie): the console session is ' +
            'set and the browser sent to /console/, or to /console/sign-in?sso-error=<code>.',
        },
        401: { description: 'sso_state_invalid, sso_login_failed or saml_assertion_replayed.' },
        409: { description: 'email_in_other_company.' },
      },
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
