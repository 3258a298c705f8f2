import { z } from 'zod';
import { linksetLinkHeader, passportLinks, verifyPagePath } from '../../../src/passport/views/linkset.ts';
import {
  findPassport,
  findPassportWithHistory,
  type PassportRecord,
  passportBatch,
} from '../../../src/passport/views/lookup.ts';
import { hasSunParameters, verifyPassportTap } from '../../../src/passport/views/tap.ts';
import { signVerdict } from '../../../src/passport/views/tap-verdict.ts';
import { digitalLink } from '../../../src/standards/gs1/digital-link.ts';
import { parseLinkType } from '../../../src/standards/gs1/link-types.ts';
import type { AppContext } from '../../context.ts';
import { Problem } from '../../problem.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { sendPublic, sendStoredCredential } from './fast-paths.ts';
import {
  allowAnyOrigin,
  PUBLIC_CACHE,
  publicEnvironment,
  temporaryRedirect,
  withPassedOnQuery,
} from './http.ts';
import { type ItemKey, namesPassport, passportNotFound } from './item-key.ts';
import { negotiate } from './negotiate.ts';
import { batchParam, gtin14, gtinParam, type ResolverQuery, resolverQuery, serialParam } from './params.ts';
import { type PublicPassportDeps, publicPassportDeps } from './public-passport-deps.ts';
import { sendRepresentation } from './representations.ts';

/** The passport the Digital Link names, if its GTIN (and batch, when given) match. */
function matches(passport: PassportRecord | undefined, key: ItemKey): passport is PassportRecord {
  return (
    passport !== undefined &&
    namesPassport({ gtin: passport.gtin, batch: passportBatch(passport) ?? null }, key)
  );
}

async function resolve(ctx: AppContext, deps: PublicPassportDeps, key: ItemKey, query: ResolverQuery) {
  const environment = publicEnvironment(ctx);
  const base = deps.config.publicBaseUrl;
  ctx.set('Vary', query.format === 'erp' ? 'Accept, x-service-env, Authorization' : 'Accept, x-service-env');
  ctx.set('Cache-Control', 'no-store');
  if (query.format !== 'erp') allowAnyOrigin(ctx);
  // A tap's parameters next to accessRole unlock that audience's UNTP variant (Customer) instead of the page.
  const tap = hasSunParameters(ctx.query) && query.accessRole === undefined;
  const linkType = !tap && query.linkType !== undefined ? parseLinkType(query.linkType) : undefined;
  const representation = negotiate(ctx, linkType === 'linkset' ? 'linkset' : query.format);
  if (!tap && query.linkType === undefined && representation.kind === 'format') {
    if (representation.format === 'public') {
      await sendPublic(ctx, deps, key, environment, representation.contentType);
      return;
    }
    if (
      representation.format === 'vc' &&
      (await sendStoredCredential(ctx, deps, key, environment, representation.contentType))
    ) {
      return;
    }
  }
  const em = deps.orm.em.fork();
  const withHistory =
    !tap && linkType === undefined && representation.kind === 'format' && representation.format === 'vc';
  const found = withHistory
    ? await findPassportWithHistory(em, environment, key.serial)
    : { passport: await findPassport(em, environment, key.serial), events: [], stamp: '', cached: undefined };
  const passport = found?.passport;
  if (!found || !matches(passport, key)) throw passportNotFound(key);
  const anchor = digitalLink(base, environment, key.gtin, passport.tokenId);
  ctx.append('Link', linksetLinkHeader(anchor));

  if (tap) {
    // A tapped chip's URL: verify the tap, then show the verdict on the verification page (never cached).
    const verdict = await verifyPassportTap(em, deps.secretBox, passport, ctx.querystring);
    const token = signVerdict(deps.verdictKey, {
      verdict,
      environment,
      tokenId: passport.tokenId,
      checkedAt: Math.floor(Date.now() / 1000),
    });
    temporaryRedirect(
      ctx,
      `${verifyPagePath(environment, key.gtin, passport.tokenId)}?tap=${token}`,
      'no-store',
    );
    return;
  }
  if (query.linkType !== undefined && linkType !== 'linkset') {
    const link =
      linkType && passportLinks(passport, base).find((candidate) => candidate.linkType === linkType);
    if (!link) {
      throw new Problem(404, 'link_type_not_found', `This item has no link of type ${query.linkType}.`);
    }
    temporaryRedirect(ctx, withPassedOnQuery(ctx, link.href), PUBLIC_CACHE);
    return;
  }
  if (representation.kind === 'page') {
    temporaryRedirect(
      ctx,
      withPassedOnQuery(ctx, verifyPagePath(environment, key.gtin, passport.tokenId)),
      PUBLIC_CACHE,
    );
    return;
  }
  await sendRepresentation(ctx, deps, representation, { ...found, passport }, environment);
}

const DESCRIPTION =
  'Public: no credential except for format=erp (an API key of the passport’s company: 401 without a valid ' +
  'key, 403 for another company’s or environment’s key). Environment: x-service-env when sent, else live ' +
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
  401: { description: 'format=erp without a valid API key.' },
  403: { description: 'format=erp with a key of another company or environment.' },
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
      params: z.object({ gtin: gtinParam, batch: batchParam, serial: serialParam }),
      query: resolverQuery,
      responses: RESPONSES,
      handler: async (ctx: AppContext, { params, query }) =>
        resolve(ctx, deps, { ...params, gtin: gtin14(params.gtin) }, query),
    }),
  ];
}
