import { z } from 'zod';
import type { ItemKey } from '../../../src/passport/views/item-key.ts';
import { LINKSET_CONTEXT_LINK, linksetLinkHeader } from '../../../src/passport/views/linkset.ts';
import type { PassportAnswer, PassportAsk } from '../../../src/passport/views/passport-request.ts';
import { representPassport } from '../../../src/passport/views/representation.ts';
import { hasSunParameters } from '../../../src/passport/views/tap.ts';
import type { Environment } from '../../../src/platform/config/config.ts';
import { parseLinkType } from '../../../src/standards/gs1/link-types.ts';
import type { AppContext } from '../../context.ts';
import { authenticateApiKey } from '../../middleware/api-key-auth.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import {
  allowAnyOrigin,
  PUBLIC_CACHE,
  publicEnvironment,
  sendText,
  temporaryRedirect,
  withPassedOnQuery,
} from './http.ts';
import { negotiate, type Representation } from './negotiate.ts';
import { batchParam, gtin14, gtinParam, type ResolverQuery, resolverQuery, serialParam } from './params.ts';
import { type PublicPassportDeps, publicPassportDeps } from './public-passport-deps.ts';

/** What the request asks, from its tap parameters, linkType and negotiated representation. */
function askOf(ctx: AppContext, query: ResolverQuery): { ask: PassportAsk; representation: Representation } {
  // A tap's parameters next to accessRole unlock that audience's UNTP variant (Customer) instead of the page.
  const tap = hasSunParameters(ctx.query) && query.accessRole === undefined;
  const linkType = !tap && query.linkType !== undefined ? parseLinkType(query.linkType) : undefined;
  const representation = negotiate(ctx, linkType === 'linkset' ? 'linkset' : query.format);
  if (tap) return { ask: { kind: 'tap', query: ctx.querystring }, representation };
  if (query.linkType !== undefined && linkType !== 'linkset') {
    return { ask: { kind: 'link', linkType, asked: query.linkType }, representation };
  }
  if (representation.kind === 'page') return { ask: { kind: 'page' }, representation };
  return {
    ask: { kind: 'format', format: representation.format, accessRole: query.accessRole },
    representation,
  };
}

async function resolve(ctx: AppContext, deps: PublicPassportDeps, key: ItemKey, query: ResolverQuery) {
  const environment = publicEnvironment(ctx);
  // Every answer depends on the credential: a credential that is not valid is refused on every format.
  ctx.set('Vary', 'Accept, x-service-env, Authorization');
  ctx.set('Cache-Control', 'no-store');
  if (query.format !== 'erp') allowAnyOrigin(ctx);
  const { ask, representation } = askOf(ctx, query);
  const answer = await representPassport(
    deps.views,
    { environment, item: key, ask },
    requestSide(ctx, deps, environment),
  );
  send(ctx, answer, representation);
}

/** The core's questions about the request, answered from its headers; what it tells, set as headers. */
function requestSide(ctx: AppContext, deps: PublicPassportDeps, environment: Environment) {
  return {
    found: (anchor: string) => ctx.append('Link', linksetLinkHeader(anchor)),
    apiKeyCaller: async () => {
      await authenticateApiKey(ctx, deps.orm.em, environment);
      return { companyId: ctx.state.scope!.companyId, em: ctx.state.em! };
    },
    // The router has checked the credential sent, if any (optionalCredential).
    caller: async () => ctx,
    // Every answer already varies by Authorization (resolve).
    variesByCredential: () => {},
  };
}

function send(ctx: AppContext, answer: PassportAnswer, representation: Representation): void {
  if (answer.kind === 'redirect') {
    // A tap's verdict is about that one tap: never cached.
    if (answer.to === 'tap-verdict') temporaryRedirect(ctx, answer.location, 'no-store');
    else temporaryRedirect(ctx, withPassedOnQuery(ctx, answer.location), PUBLIC_CACHE);
    return;
  }
  if (representation.kind !== 'format') throw new Error('a document answers a format');
  if (representation.format === 'linkset') ctx.append('Link', LINKSET_CONTEXT_LINK);
  const cacheControl = answer.private ? 'private, no-cache' : PUBLIC_CACHE;
  sendText(ctx, answer.body, representation.contentType, cacheControl, answer.etag);
}

const DESCRIPTION =
  'Public: no credential except for format=erp (an API key of the passport’s company: 401 without a valid ' +
  'key, 403 for another company’s or environment’s key). A credential sent on any format is checked: one ' +
  'that is not valid → 401, one of the other environment → 403 (docs/disclosure.md). Environment: x-service-env when sent, else live ' +
  '(phones cannot send headers). The GTIN may be GTIN-8/12/13/14 (normalised to 14 digits; a wrong check ' +
  'digit → 400); the serial is the token id; an unknown passport → 404. Without format a browser (Accept ' +
  'prefers text/html) gets 307 to /verify/01/{gtin}/21/{serial}; application/ld+json (or application/vc) → ' +
  'vc, application/linkset+json → linkset, application/vc+jwt → vc-jwt, anything else → public JSON; format ' +
  'wins over Accept. untp: the passport as a UNTP 0.7.0 DigitalProductPassport credential (eddsa-rdfc-2022 ' +
  'proof); vc-jwt: the same credential secured with VC-JOSE (compact JWS, typ vc+jwt, EdDSA, kid a ' +
  'verification method of the issuer’s did:web); both 404 untp_data_missing when the passport lacks what ' +
  'UNTP requires (HS code, country of production, producing facility). A URL with ' +
  'a chip’s SUN parameters (picc_data & cmac, or e & c) is a tap: it is verified (its read counter accepted ' +
  'once) and answered 307 to the verification page carrying a signed verdict (authentic, replayed, forged). ' +
  'linkType names one GS1 link type (307 to it; unknown → 404); all/linkset → the linkset. Every answer has ' +
  'Vary, Cache-Control and a Link header (rel=linkset); representations and redirects an ETag; all but erp ' +
  'open CORS. HEAD answers the same headers without a body.';

const RESPONSES = {
  200: {
    description:
      'vc: application/ld+json (W3C VC 2.0 with an eddsa-rdfc-2022 DataIntegrityProof); linkset: ' +
      'application/linkset+json (RFC 9264); untp: application/ld+json (UNTP 0.7.0 DigitalProductPassport); ' +
      'vc-jwt: application/vc+jwt; public, aas, erp: application/json.',
  },
  304: { description: 'Not modified (If-None-Match matched the ETag).' },
  307: { description: 'To the verification page (browsers, taps) or to the link of the linkType asked for.' },
  401: {
    description:
      'unauthorized: a credential was sent and is not valid (unknown, revoked, expired), on every format; ' +
      'format=erp without a valid API key.',
  },
  403: {
    description:
      'environment_mismatch: a credential of the other environment, on every format; not_passport_owner: ' +
      'format=erp with another company’s key.',
  },
  404: { description: 'passport_not_found, link_type_not_found, untp_data_missing (untp, vc-jwt).' },
};

export function resolverRoutes(routeDeps: RouteDeps) {
  const deps = publicPassportDeps(routeDeps);
  return [
    defineRoute({
      method: 'get',
      path: '/01/:gtin/21/:serial',
      operationId: 'resolveDigitalLink',
      summary: 'GS1 Digital Link resolver: a passport as vc, untp, vc-jwt, aas, public, erp or linkset.',
      description: DESCRIPTION,
      tags: ['gs1'],
      auth: 'none',
      optionalCredential: true,
      params: z.object({ gtin: gtinParam, serial: serialParam }),
      query: resolverQuery,
      responses: RESPONSES,
      handler: async (ctx: AppContext, { params, query }) =>
        resolve(ctx, deps, { ...params, gtin: gtin14(params.gtin) }, query),
    }),
    defineRoute({
      method: 'get',
      path: '/01/:gtin/10/:batch/21/:serial',
      operationId: 'resolveDigitalLinkWithBatch',
      summary: 'GS1 Digital Link with batch/lot (AI 10): as without, if the batch is the passport’s.',
      description: `${DESCRIPTION} The batch must equal the passport’s batch_number, else 404.`,
      tags: ['gs1'],
      auth: 'none',
      optionalCredential: true,
      params: z.object({ gtin: gtinParam, batch: batchParam, serial: serialParam }),
      query: resolverQuery,
      responses: RESPONSES,
      handler: async (ctx: AppContext, { params, query }) =>
        resolve(ctx, deps, { ...params, gtin: gtin14(params.gtin) }, query),
    }),
  ];
}
