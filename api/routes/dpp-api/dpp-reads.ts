import { z } from 'zod';
import { callerRoles } from '../../../src/passport/disclosure/caller-roles.ts';
import {
  type DppRef,
  findDppById,
  findDppByProductId,
  findDppsByProductIds,
} from '../../../src/passport/dpp-api/find-dpp.ts';
import {
  listDppVersions,
  listLevelVersions,
  type Reader,
  readDpp,
  readDppAt,
  readDppElement,
  readDppVersion,
  readLevelDpp,
  readLevelElement,
  readLevelVersion,
} from '../../../src/passport/dpp-api/read-dpp.ts';
import { findLevelById, findLevelByProductId } from '../../../src/passport/levels/levels.ts';
import { dppIdOf } from '../../../src/passport/record/passport-header.ts';
import type { Environment } from '../../../src/platform/config/config.ts';
import { dateTimeField } from '../../../src/standards/time/zod-rfc3339.ts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { allowAnyOrigin, publicEnvironment } from '../resolver/http.ts';
import { dppDocument, dppIdParam, ERRORS, representation, versionSummary } from './dpp-read-schemas.ts';

// EN 18222 DPP reads (docs/en18222.md), on the paths of the Eclipse BaSyx Go DPP API. Public without a
// credential; the owning company's API key (Authorization: Bearer …) also sees the restricted content section.
// Test passports under /test/v1/… (or x-service-env: test), live ones at /v1/….

const DESCRIPTION =
  'EN 18222 read (docs/en18222.md). No credential: the public content. With the owning company’s API key: ' +
  'also the operator section (urn:dpp-service:content-specification:product-operator:1.0). Live passports ' +
  'at /v1/…, test passports at /test/v1/… (or with x-service-env: test). Product-group sections (keyed by ' +
  'their content specification id) hold only the fields the caller’s roles read (docs/disclosure.md): ' +
  'another company’s credential adds the roles granted to it, a fresh tap’s SUN parameters add customer. ' +
  'Model and batch passports (docs/granularity.md) are read the same way; an item’s product-group sections ' +
  'are merged over its model’s and batch’s, `contentSources` naming where each value comes from.';

/**
 * Who reads: anonymous, or a valid credential of this environment (API key, OAuth token, user token; owner
 * when of the passport's company), with the disclosure roles it holds for the passport (docs/disclosure.md;
 * a fresh tap's SUN parameters in the query add customer). The router has checked the credential already
 * (api/middleware/optional-auth.ts), before the passport was looked up.
 */
async function readerOf(
  ctx: AppContext,
  deps: RouteDeps,
  environment: Environment,
  ref: Pick<DppRef, 'companyId'> & { passportId?: number },
): Promise<Reader> {
  ctx.set('Vary', 'Authorization, x-service-env');
  ctx.set('Cache-Control', 'no-store');
  if (!ctx.state.principal) allowAnyOrigin(ctx);
  const caller = await callerRoles(
    ctx,
    { em: deps.orm.em.fork(), secretBox: deps.secretBox },
    { companyId: ref.companyId, environment, passportId: ref.passportId },
  );
  return { owner: caller.owner, authenticated: ctx.state.principal !== undefined, roles: caller.roles };
}

function sendJson(ctx: AppContext, value: unknown): void {
  ctx.status = 200;
  ctx.type = 'application/json';
  // A string or null element is JSON too (not text, not 204).
  ctx.body = JSON.stringify(value);
}

export function dppReadRoutes(deps: RouteDeps) {
  const base = deps.config.publicBaseUrl;
  const em = () => deps.orm.em.fork();
  const common = { tags: ['dpps'], auth: 'none' as const, environmentHeader: false as const };
  // Every read checks a credential that is sent (one that is not valid is refused); the documents answer by it.
  const reads = { ...common, optionalCredential: true as const };

  const byId = async (ctx: AppContext, dppId: string) => {
    const environment = publicEnvironment(ctx);
    const manager = em();
    const ref = await findDppById(manager, environment, dppId);
    return { manager, ref, reader: await readerOf(ctx, deps, environment, ref) };
  };

  /** The model or batch passport a dppId names, with its reader; undefined for an item (or none). */
  const levelById = async (ctx: AppContext, dppId: string) => {
    const environment = publicEnvironment(ctx);
    const manager = em();
    const level = await findLevelById(manager, environment, dppId);
    if (!level) return undefined;
    return { manager, level, reader: await readerOf(ctx, deps, environment, { companyId: level.companyId }) };
  };

  return [
    defineRoute({
      ...reads,
      method: 'get',
      path: '/v1/dpps/:dppId',
      operationId: 'readDPPById',
      summary: 'EN 18222 ReadDPPById: a passport’s current document.',
      description: DESCRIPTION,
      params: z.object({ dppId: dppIdParam }),
      query: z.object({ representation }),
      responses: { 200: { description: 'The passport document.', schema: dppDocument }, ...ERRORS },
      handler: async (ctx: AppContext, { params, query }) => {
        const level = await levelById(ctx, params.dppId);
        if (level) {
          sendJson(ctx, await readLevelDpp(level.manager, level.level, level.reader, query.representation));
          return;
        }
        const { manager, ref, reader } = await byId(ctx, params.dppId);
        sendJson(ctx, await readDpp(manager, ref, base, reader, query.representation));
      },
    }),
    defineRoute({
      ...reads,
      method: 'get',
      path: '/v1/dppsByProductId/:productId',
      operationId: 'readDPPByProductId',
      summary: 'EN 18222 ReadDPPByProductId: the document of the passport a unique product identifier names.',
      description:
        `${DESCRIPTION} productId: the header’s uniqueProductIdentifier (a GS1 Digital Link URI …/01/{gtin}/21/` +
        '{serial}; …/01/{gtin} names the model passport, …/01/{gtin}/10/{lot} the batch passport), ' +
        'percent-encoded as one path segment.',
      params: z.object({ productId: z.string().min(1).max(2000) }),
      query: z.object({ representation }),
      responses: { 200: { description: 'The passport document.', schema: dppDocument }, ...ERRORS },
      handler: async (ctx: AppContext, { params, query }) => {
        const environment = publicEnvironment(ctx);
        const manager = em();
        const level = await findLevelByProductId(manager, environment, params.productId);
        if (level) {
          const reader = await readerOf(ctx, deps, environment, { companyId: level.companyId });
          sendJson(ctx, await readLevelDpp(manager, level, reader, query.representation));
          return;
        }
        const ref = await findDppByProductId(manager, environment, params.productId);
        const reader = await readerOf(ctx, deps, environment, ref);
        sendJson(ctx, await readDpp(manager, ref, base, reader, query.representation));
      },
    }),
    ...(['/v1/dppIdsByProductIds', '/v1/dppsByProductIds'] as const).map((path) =>
      defineRoute({
        ...reads,
        method: 'post',
        path,
        operationId:
          path === '/v1/dppIdsByProductIds' ? 'readDPPIdsByProductIds' : 'readDPPIdsByProductIdsBaSyx',
        summary:
          path === '/v1/dppIdsByProductIds'
            ? 'EN 18222 ReadDPPIdsByProductIds: the passport ids of up to 100 unique product identifiers at once.'
            : 'The same as POST /v1/dppIdsByProductIds, at the path Eclipse BaSyx Go serves it.',
        description:
          'Public (ids are public; a credential sent is checked like on every read, docs/disclosure.md). `items`: the ids found, in request order; `results`: each product id of ' +
          'this page with its dppId or null. Pages by `limit` product ids from `cursor` (an offset).',
        body: z.object({ productIds: z.array(z.string().min(1).max(2000)).min(1).max(100) }).strict(),
        query: z.object({
          limit: z.coerce.number().int().min(1).max(100).default(100),
          cursor: z
            .string()
            .regex(/^\d{1,3}$/)
            .optional(),
        }),
        responses: {
          200: {
            description: 'The ids found.',
            schema: z.object({
              items: z.array(z.string()),
              results: z.array(
                z.object({ productId: z.string(), digitalProductPassportId: z.string().nullable() }),
              ),
              cursor: z.string().optional(),
            }),
          },
          400: { description: 'validation_failed: no productIds, more than 100, or a bad limit/cursor.' },
        },
        handler: async (ctx: AppContext, { body, query }) => {
          const environment = publicEnvironment(ctx);
          allowAnyOrigin(ctx);
          ctx.set('Cache-Control', 'no-store');
          const start = Number(query.cursor ?? 0);
          const page = body.productIds.slice(start, start + query.limit);
          const found = await findDppsByProductIds(em(), environment, page);
          const results = page.map((productId) => {
            const ref = found.get(productId);
            return { productId, digitalProductPassportId: ref ? dppIdOf(ref.serviceUid) : null };
          });
          const next = start + page.length;
          sendJson(ctx, {
            items: results.flatMap((result) =>
              result.digitalProductPassportId ? [result.digitalProductPassportId] : [],
            ),
            results,
            ...(next < body.productIds.length ? { cursor: String(next) } : {}),
          });
        },
      }),
    ),
    defineRoute({
      ...reads,
      method: 'get',
      path: '/v1/dpps/:dppId/versions',
      operationId: 'listDPPVersions',
      summary: 'A passport’s versions (number, time, SHA-256), oldest first.',
      description:
        `${DESCRIPTION} Every change of the published content is a version; its SHA-256 is over the RFC 8785 ` +
        'canonical JSON of the compressed document (docs/passport-versions.md).',
      params: z.object({ dppId: dppIdParam }),
      query: z.object({
        limit: z.coerce.number().int().min(1).max(1000).default(100),
        cursor: z
          .string()
          .regex(/^\d{1,9}$/)
          .optional()
          .describe('nextCursor of the previous page.'),
      }),
      responses: {
        200: {
          description: 'A page of versions.',
          schema: z.object({
            digitalProductPassportId: z.string(),
            items: z.array(versionSummary),
            nextCursor: z.string().nullable(),
          }),
        },
        ...ERRORS,
      },
      handler: async (ctx: AppContext, { params, query }) => {
        const page = {
          limit: query.limit,
          after: query.cursor === undefined ? undefined : Number(query.cursor),
        };
        const level = await levelById(ctx, params.dppId);
        if (level) {
          sendJson(ctx, await listLevelVersions(level.manager, level.level, level.reader, page));
          return;
        }
        const { manager, ref, reader } = await byId(ctx, params.dppId);
        sendJson(ctx, await listDppVersions(manager, ref, base, reader, page));
      },
    }),
    defineRoute({
      ...reads,
      method: 'get',
      path: '/v1/dpps/:dppId/versions/:number',
      operationId: 'readDPPVersion',
      summary: 'One version of a passport, exactly as it was recorded.',
      description: DESCRIPTION,
      params: z.object({ dppId: dppIdParam, number: z.coerce.number().int().min(1).max(2_147_483_647) }),
      query: z.object({ representation }),
      responses: {
        200: { description: 'The version.', schema: versionSummary.extend({ dpp: dppDocument }) },
        ...ERRORS,
      },
      handler: async (ctx: AppContext, { params, query }) => {
        const level = await levelById(ctx, params.dppId);
        if (level) {
          const { manager, reader } = level;
          sendJson(
            ctx,
            await readLevelVersion(manager, level.level, params.number, reader, query.representation),
          );
          return;
        }
        const { manager, ref, reader } = await byId(ctx, params.dppId);
        sendJson(ctx, await readDppVersion(manager, ref, params.number, reader, query.representation));
      },
    }),
    defineRoute({
      ...reads,
      method: 'get',
      path: '/v1/dppsByIdAndDate/:dppId',
      operationId: 'readDPPVersionByIdAndDate',
      summary: 'EN 18222 ReadDPPVersionByIdAndDate: the version that was current at a time.',
      description: DESCRIPTION,
      params: z.object({ dppId: dppIdParam }),
      query: z.object({ date: dateTimeField(), representation }),
      responses: {
        200: { description: 'The version.', schema: versionSummary.extend({ dpp: dppDocument }) },
        ...ERRORS,
      },
      handler: async (ctx: AppContext, { params, query }) => {
        const at = new Date(query.date);
        const level = await levelById(ctx, params.dppId);
        if (level) {
          const { manager, reader } = level;
          sendJson(ctx, await readLevelVersion(manager, level.level, at, reader, query.representation));
          return;
        }
        const { manager, ref, reader } = await byId(ctx, params.dppId);
        sendJson(ctx, await readDppAt(manager, ref, base, at, reader, query.representation));
      },
    }),
    defineRoute({
      ...reads,
      method: 'get',
      path: '/v1/dpps/:dppId/elements/:elementPath',
      operationId: 'readDataElement',
      summary: 'EN 18222 ReadDataElement: one element of a passport’s current document by its path.',
      description:
        `${DESCRIPTION} elementPath: an RFC 9535 normalized path into the compressed document, percent-encoded ` +
        "as one path segment, e.g. $['urn:dpp-service:content-specification:product:1.0']['events'][0]['action'].",
      params: z.object({ dppId: dppIdParam, elementPath: z.string().min(1).max(4000) }),
      query: z.object({ representation }),
      responses: {
        200: { description: 'The element’s value (compressed) or data element (full).', schema: z.unknown() },
        ...ERRORS,
      },
      handler: async (ctx: AppContext, { params, query }) => {
        const level = await levelById(ctx, params.dppId);
        if (level) {
          const { manager, reader } = level;
          sendJson(
            ctx,
            await readLevelElement(manager, level.level, reader, params.elementPath, query.representation),
          );
          return;
        }
        const { manager, ref, reader } = await byId(ctx, params.dppId);
        sendJson(
          ctx,
          await readDppElement(manager, ref, base, reader, params.elementPath, query.representation),
        );
      },
    }),
  ];
}
