import { z } from 'zod';
import { getShell, listShells, type ShellFilter } from '../../../src/passport/aas/aas-shells.ts';
import { shellReference } from '../../../src/passport/aas/aas-v3.ts';
import { decodeIdentifier } from '../../../src/passport/aas/identifiers.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import type { RouteDeps } from '../deps.ts';
import {
  aasRoute,
  aasScope,
  cursorQuery,
  identifierParam,
  limitQuery,
  looseJson,
  paged,
  pagedSchema,
  sendJson,
} from './common.ts';

const listQuery = z.object({
  limit: limitQuery,
  cursor: cursorQuery,
  idShort: z.string().min(1).max(200).optional(),
  assetIds: z
    .union([z.string().max(4000), z.array(z.string().max(4000)).max(20)])
    .optional()
    .describe(
      'base64url-encoded SpecificAssetId JSON objects ({"name": …, "value": …}); names globalAssetId, SerialNumber, GTIN.',
    ),
});

/** assetIds: each a base64url-encoded JSON `{name, value}` (IDTA-01002 GetAllAssetAdministrationShells). */
function assetIdsOf(raw: string | string[] | undefined): ShellFilter['assetIds'] {
  if (raw === undefined) return undefined;
  return (Array.isArray(raw) ? raw : [raw]).map((encoded) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(decodeIdentifier(encoded, 'An assetIds entry'));
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw new DomainError(
        'invalid',
        'invalid_asset_id',
        'An assetIds entry is not a JSON SpecificAssetId.',
      );
    }
    const { name, value } = (parsed ?? {}) as { name?: unknown; value?: unknown };
    if (typeof name !== 'string' || typeof value !== 'string') {
      throw new DomainError(
        'invalid',
        'invalid_asset_id',
        'An assetIds entry needs a string name and value.',
      );
    }
    return { name, value };
  });
}

const shellParams = z.object({ aasIdentifier: identifierParam });

export function shellRoutes(deps: RouteDeps) {
  const list = async (ctx: Parameters<typeof aasScope>[0], query: z.infer<typeof listQuery>) =>
    listShells(
      await aasScope(ctx, deps),
      { limit: query.limit ?? 100, cursor: query.cursor },
      { idShort: query.idShort, assetIds: assetIdsOf(query.assetIds) },
    );
  return [
    aasRoute({
      path: '/shells',
      operationId: 'aasGetAllAssetAdministrationShells',
      summary: 'AAS API: the active passports’ shells, a page at a time.',
      query: listQuery,
      schema: pagedSchema(looseJson),
      handler: async (ctx, { query }) => sendJson(ctx, paged(await list(ctx, query))),
    }),
    aasRoute({
      path: '/shells/$reference',
      operationId: 'aasGetAllAssetAdministrationShellsReference',
      summary: 'AAS API: references to the active passports’ shells.',
      query: listQuery,
      schema: pagedSchema(looseJson),
      handler: async (ctx, { query }) => {
        const page = await list(ctx, query);
        sendJson(ctx, paged({ ...page, result: page.result.map((shell) => shellReference(shell.id)) }));
      },
    }),
    aasRoute({
      path: '/shells/:aasIdentifier',
      operationId: 'aasGetAssetAdministrationShellById',
      summary: 'AAS API: one passport’s shell.',
      params: shellParams,
      schema: looseJson,
      handler: async (ctx, { params }) =>
        sendJson(ctx, await getShell(await aasScope(ctx, deps, { tap: true }), params.aasIdentifier)),
    }),
    aasRoute({
      path: '/shells/:aasIdentifier/$reference',
      operationId: 'aasGetAssetAdministrationShellByIdReference',
      summary: 'AAS API: a reference to one passport’s shell.',
      params: shellParams,
      schema: looseJson,
      handler: async (ctx, { params }) => {
        const shell = await getShell(await aasScope(ctx, deps, { tap: true }), params.aasIdentifier);
        sendJson(ctx, shellReference(shell.id));
      },
    }),
    aasRoute({
      path: '/shells/:aasIdentifier/asset-information',
      operationId: 'aasGetAssetInformation',
      summary: 'AAS API: the asset information of one passport’s shell.',
      params: shellParams,
      schema: looseJson,
      handler: async (ctx, { params }) =>
        sendJson(
          ctx,
          (await getShell(await aasScope(ctx, deps, { tap: true }), params.aasIdentifier)).assetInformation,
        ),
    }),
    aasRoute({
      path: '/shells/:aasIdentifier/asset-information/thumbnail',
      operationId: 'aasGetThumbnail',
      summary: 'AAS API: the shell’s thumbnail (passports have none: 404).',
      params: shellParams,
      schema: looseJson,
      handler: async (_ctx, { params }) => {
        await getShell(await aasScope(_ctx, deps, { tap: true }), params.aasIdentifier);
        throw new DomainError('not_found', 'no_thumbnail', 'This shell has no thumbnail.');
      },
    }),
    aasRoute({
      path: '/shells/:aasIdentifier/submodel-refs',
      operationId: 'aasGetAllSubmodelReferences',
      summary: 'AAS API: the references to one shell’s submodels.',
      params: shellParams,
      query: z.object({ limit: limitQuery, cursor: cursorQuery }),
      schema: pagedSchema(looseJson),
      handler: async (ctx, { params, query }) => {
        const shell = await getShell(await aasScope(ctx, deps, { tap: true }), params.aasIdentifier);
        sendJson(ctx, paged(pageOf(shell.submodels, query.limit, query.cursor)));
      },
    }),
  ];
}

/** A page of a short in-memory list; the cursor is base64url of the next index. */
export function pageOf<T>(items: T[], limit = 100, cursor?: string): { result: T[]; cursor?: string } {
  let start = 0;
  if (cursor !== undefined) {
    const decoded = (() => {
      try {
        return decodeIdentifier(cursor, 'The cursor');
      } catch {
        return '';
      }
    })();
    if (!/^\d{1,4}$/.test(decoded)) {
      throw new DomainError('invalid', 'invalid_cursor', 'The cursor is not one this API handed out.');
    }
    start = Number(decoded);
  }
  const end = start + Math.min(limit, 100);
  return {
    result: items.slice(start, end),
    ...(end < items.length ? { cursor: Buffer.from(String(end)).toString('base64url') } : {}),
  };
}
