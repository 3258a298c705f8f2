import { z } from 'zod';
import {
  claimDomain,
  type SsoEndpoints,
  saveOidcConnection,
  saveSamlConnection,
  ssoSettings,
  verifyDomain,
} from '../../../src/accounts/sso/sso.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute, type RouteSpec } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';

const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    'a domain name such as acme.example',
  );
const domainParams = z.object({ domain });

/** How a company sets SSO up: its verified e-mail domains and its identity provider (OIDC or SAML). */
export function ssoSettingsRoutes(deps: RouteDeps, endpoints: SsoEndpoints): RouteSpec[] {
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
  ];
}
