import { z } from 'zod';
import { type LevelPassport, levelDigitalLink } from '../../../src/passport/levels/levels.ts';
import type { ItemKey } from '../../../src/passport/views/item-key.ts';
import { representLevel } from '../../../src/passport/views/level-representation.ts';
import { LINKSET_CONTEXT_LINK, linksetLinkHeader } from '../../../src/passport/views/linkset.ts';
import type { PassportAnswer, PassportAsk } from '../../../src/passport/views/passport-request.ts';
import { representPassport } from '../../../src/passport/views/representation.ts';
import { hasSunParameters } from '../../../src/passport/views/tap.ts';
import type { Environment } from '../../../src/platform/config/config.ts';
import { resolverBase } from '../../../src/standards/gs1/digital-link.ts';
import {
  type DigitalLinkSyntaxError,
  gtinKeyPath,
  parseGtinPath,
} from '../../../src/standards/gs1/digital-link-path.ts';
import { parseLinkType } from '../../../src/standards/gs1/link-types.ts';
import type { AppContext } from '../../context.ts';
import { authenticateApiKey } from '../../middleware/api-key-auth.ts';
import { Problem } from '../../problem.ts';
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
import { chosenLink } from './link-choice.ts';
import { findNearestPassport, noPassportAtLevel } from './nearest-passport.ts';
import { negotiate, type Representation } from './negotiate.ts';
import {
  ai82Param,
  batchParam,
  gtinParam,
  type ResolverQuery,
  resolverQuery,
  serialParam,
} from './params.ts';
import { type PublicPassportDeps, publicPassportDeps } from './public-passport-deps.ts';

/** What the request asks, from its tap parameters, linkType and negotiated representation. */
function askOf(ctx: AppContext, query: ResolverQuery): { ask: PassportAsk; representation: Representation } {
  // A tap's parameters next to accessRole unlock that audience's UNTP variant (Customer) instead of the page.
  const tap = hasSunParameters(ctx.query) && query.accessRole === undefined;
  const linkType = !tap && query.linkType !== undefined ? parseLinkType(query.linkType) : undefined;
  const representation = negotiate(ctx, linkType === 'linkset' ? 'linkset' : query.format);
  if (tap) {
    const ask = { kind: 'tap', query: ctx.querystring, clientAddress: ctx.state.clientAddress } as const;
    return { ask, representation };
  }
  if (query.linkType !== undefined && linkType !== 'linkset') {
    return { ask: { kind: 'link', linkType, asked: query.linkType }, representation };
  }
  if (representation.kind === 'page') return { ask: { kind: 'page' }, representation };
  return {
    ask: { kind: 'format', format: representation.format, accessRole: query.accessRole },
    representation,
  };
}

/** What the resolver answers for: an item (by its key), or a model or batch passport (found). */
type Target = { level: 'item'; item: ItemKey } | { level: 'model' | 'batch'; passport: LevelPassport };

async function resolve(ctx: AppContext, deps: PublicPassportDeps, target: Target, query: ResolverQuery) {
  const environment = publicEnvironment(ctx);
  // Every answer depends on the credential: a credential that is not valid is refused on every format.
  ctx.set('Vary', 'Accept, x-service-env, Authorization');
  ctx.set('Cache-Control', 'no-store');
  if (query.format !== 'erp') allowAnyOrigin(ctx);
  const { ask, representation } = askOf(ctx, query);
  const side = requestSide(ctx, deps, environment);
  if (target.level !== 'item') {
    const answer = await representLevel(deps.views, { environment, level: target.passport, ask }, side);
    send(ctx, deps, answer, representation);
    return;
  }
  const key = target.item;
  if (ask.kind === 'link' && ask.linkType) {
    const chosen = await chosenLink(ctx, deps, { environment, item: key }, side, ask.linkType);
    if (chosen) {
      side.found(chosen.anchor);
      send(ctx, deps, { kind: 'redirect', to: 'link', location: chosen.href }, representation);
      return;
    }
  }
  const answer = await representPassport(deps.views, { environment, item: key, ask }, side);
  send(ctx, deps, answer, representation);
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

function send(
  ctx: AppContext,
  deps: PublicPassportDeps,
  answer: PassportAnswer,
  representation: Representation,
): void {
  if (answer.kind === 'redirect') {
    // A tap's verdict is about that one tap: never cached.
    if (answer.to === 'tap-verdict') temporaryRedirect(ctx, answer.location, 'no-store');
    else {
      // The default link is absolute, as in the linkset (GS1 clients compare the two).
      const location = answer.location.startsWith('/')
        ? `${deps.config.publicBaseUrl}${answer.location}`
        : answer.location;
      temporaryRedirect(ctx, withPassedOnQuery(ctx, location), PUBLIC_CACHE);
    }
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
  '(phones cannot send headers). The path is parsed as GS1 Digital Link: AI 01 then the qualifiers 22, 10, 21 ' +
  'in that order; a syntax error (wrong check digit, unknown AI, wrong order, bad characters, a trailing ' +
  'segment) → 400 naming the segment. The GTIN may be GTIN-8/12/13/14 (the same key as its 14 digits; the ' +
  'answer carries Link rel=canonical to the 14-digit address); the serial is the token id and names the item ' +
  'whatever lot or variant stands beside it (rel=canonical to /01/{gtin}/21/{serial}); an unknown serial → 404 ' +
  '(it does not walk up). Without a serial the link walks up (GS1): /10/{lot} reaches the batch passport, else ' +
  'the model passport; /01/{gtin} and /22/{cpv} the model (rel=canonical to the level reached); no level → 404. ' +
  'A model or batch passport answers its page (307), linkType and every format but erp (public, linkset, vc, ' +
  'untp, vc-jwt, aas: docs/granularity.md); format=erp (the ERP record of one item) → 400 ' +
  'format_not_available. Without format, ' +
  'linkType or an Accept naming a machine representation (no Accept, */*, text/html, a type we do not make) ' +
  'the answer is 307 to the default link, the verification page (absolute, the query string passed on); ' +
  'application/json → public JSON, application/ld+json (or application/vc) → vc, application/linkset+json → ' +
  'linkset, application/vc+jwt → vc-jwt; format wins over Accept. untp: the passport as a UNTP 0.7.0 ' +
  'DigitalProductPassport credential (eddsa-rdfc-2022 proof); vc-jwt: the same credential secured with VC-JOSE ' +
  '(compact JWS, typ vc+jwt, EdDSA, kid a verification method of the issuer’s did:web); both 404 ' +
  'untp_data_missing when the passport lacks what UNTP requires (HS code, country of production, producing ' +
  'facility). A URL with ' +
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
  307: {
    description:
      'To the default link, the verification page (no format, linkType or machine Accept; taps), or to the ' +
      'link of the linkType asked for.',
  },
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
  400: {
    description:
      'invalid_digital_link or validation_failed: the path is not a GS1 Digital Link (the segment named); ' +
      'format_not_available: format=erp asked of a model or batch passport.',
  },
  404: { description: 'passport_not_found, link_type_not_found, untp_data_missing (untp, vc-jwt).' },
};

/**
 * Every GET under /01/: the path parsed as GS1 Digital Link (a syntax error → 400 naming its segment), then the
 * nearest passport it reaches (findNearestPassport: 404 when none). An item reached by a path that is not its
 * canonical address (a lot or variant printed beside the serial, a GTIN of fewer than 14 digits) is answered
 * as at its address, with `Link: rel=canonical` to it.
 */
async function answerGtinPath(ctx: AppContext, deps: PublicPassportDeps, query: ResolverQuery) {
  const parsed = parseGtinPath(ctx.path);
  if (!parsed.ok) throw malformedDigitalLink(parsed.error);
  const environment = publicEnvironment(ctx);
  const nearest = await findNearestPassport(deps.orm.em, environment, parsed.key);
  const base = resolverBase(deps.config.publicBaseUrl, environment);
  if (nearest.level === 'none') {
    allowAnyOrigin(ctx);
    throw noPassportAtLevel(parsed.key, nearest, base);
  }
  // The address the passport reached is known by (a walk-up answers as at the level's own address).
  const canonical =
    nearest.level === 'item'
      ? `${base}${gtinKeyPath(nearest.item)}`
      : levelDigitalLink(deps.config.publicBaseUrl, nearest.passport);
  if (`${base}${ctx.path.replace(/\/$/, '')}` !== canonical)
    ctx.append('Link', `<${canonical}>; rel="canonical"`);
  await resolve(ctx, deps, nearest, query);
}

function malformedDigitalLink(error: DigitalLinkSyntaxError): Problem {
  return new Problem(400, 'invalid_digital_link', `Not a valid GS1 Digital Link: ${error.detail}.`, {
    errors: [{ path: 'path', message: `${error.segment}: ${error.detail}`, code: 'invalid_segment' }],
    extra: { segment: error.segment },
  });
}

const cpvParam = ai82Param('consumer product variant (AI 22)').describe('Consumer product variant (AI 22).');

/** The GTIN Digital Link shapes GS1 allows (qualifiers 22, 10, 21 in that order), each documented. */
const SHAPES = [
  {
    path: '/01/:gtin/21/:serial',
    operationId: 'resolveDigitalLink',
    summary: 'GS1 Digital Link resolver: a passport as vc, untp, vc-jwt, aas, public, erp or linkset.',
    params: { serial: serialParam },
  },
  {
    path: '/01/:gtin/10/:batch/21/:serial',
    operationId: 'resolveDigitalLinkWithBatch',
    summary: 'GS1 Digital Link with batch/lot (AI 10): the item its serial names, whatever the lot.',
    params: { batch: batchParam, serial: serialParam },
  },
  {
    path: '/01/:gtin/22/:cpv/21/:serial',
    operationId: 'resolveDigitalLinkWithVariant',
    summary: 'GS1 Digital Link with consumer product variant (AI 22): the item its serial names.',
    params: { cpv: cpvParam, serial: serialParam },
  },
  {
    path: '/01/:gtin/22/:cpv/10/:batch/21/:serial',
    operationId: 'resolveDigitalLinkWithVariantAndBatch',
    summary: 'GS1 Digital Link with variant and batch/lot: the item its serial names.',
    params: { cpv: cpvParam, batch: batchParam, serial: serialParam },
  },
  {
    path: '/01/:gtin',
    operationId: 'resolveProductModel',
    summary: 'GS1 Digital Link of a product (GTIN alone): its model passport (404 when none).',
    params: {},
  },
  {
    path: '/01/:gtin/10/:batch',
    operationId: 'resolveProductBatch',
    summary: 'GS1 Digital Link of a batch/lot: its batch passport, else (walk-up) the model passport.',
    params: { batch: batchParam },
  },
  {
    path: '/01/:gtin/22/:cpv',
    operationId: 'resolveProductVariant',
    summary:
      'GS1 Digital Link of a consumer product variant: no variant level; walks up to the model passport.',
    params: { cpv: cpvParam },
  },
  {
    path: '/01/:gtin/22/:cpv/10/:batch',
    operationId: 'resolveProductVariantBatch',
    summary: 'GS1 Digital Link of a variant’s batch/lot: the batch passport, else the model passport.',
    params: { cpv: cpvParam, batch: batchParam },
  },
] as const;

export function resolverRoutes(routeDeps: RouteDeps) {
  const deps = publicPassportDeps(routeDeps);
  const handler = async (ctx: AppContext, { query }: { query: ResolverQuery }) =>
    answerGtinPath(ctx, deps, query);
  return [
    ...SHAPES.map((shape) =>
      defineRoute({
        method: 'get',
        path: shape.path,
        operationId: shape.operationId,
        summary: shape.summary,
        description: DESCRIPTION,
        tags: ['gs1'],
        auth: 'none',
        optionalCredential: true,
        params: z.object({ gtin: gtinParam, ...shape.params }),
        query: resolverQuery,
        responses: RESPONSES,
        handler,
      }),
    ),
    defineRoute({
      method: 'get',
      path: '/01/:gtin/*qualifiers',
      operationId: 'resolveMalformedDigitalLink',
      summary: 'Any other path under /01/: not a GS1 Digital Link GS1 allows for a GTIN (400).',
      description:
        'AI 01 takes the key qualifiers 22, 10 and 21, in that order, each with a value of GS1 character set ' +
        '82 (1 to 20 characters). Anything else (an unknown AI, a wrong order, a segment without its value, ' +
        'a trailing segment) → 400 invalid_digital_link naming the segment at fault.',
      tags: ['gs1'],
      auth: 'none',
      optionalCredential: true,
      // The GTIN is parsed with the rest of the path, so the problem names the segment at fault.
      params: z.object({ gtin: z.string().max(100).describe('GTIN (AI 01), as written.') }),
      query: resolverQuery,
      responses: { 400: { description: 'invalid_digital_link: the segment at fault and why.' } },
      handler,
    }),
  ];
}
