import { z } from 'zod';
import { getSubmodel, getSubmodelElement, listSubmodels } from '../../../src/passport/aas/aas-submodels.ts';
import { submodelReference } from '../../../src/passport/aas/aas-v3.ts';
import { decodeIdentifier } from '../../../src/passport/aas/identifiers.ts';
import {
  atLevel,
  elementMetadata,
  elementReference,
  idShortPaths,
  type Level,
  pathsBelow,
  submodelAtLevel,
  submodelMetadata,
  submodelValue,
  type ViewElement,
  valueOnly,
} from '../../../src/passport/aas/submodel-views.ts';
import { DomainError } from '../../../src/platform/errors.ts';
import type { AppContext } from '../../context.ts';
import type { RouteSpec } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import {
  aasRoute,
  aasScope,
  cursorQuery,
  extentQuery,
  identifierParam,
  levelQuery,
  limitQuery,
  looseJson,
  paged,
  pagedSchema,
  sendJson,
} from './common.ts';
import { pageOf } from './shells.ts';

const listQuery = z.object({
  limit: limitQuery,
  cursor: cursorQuery,
  idShort: z.string().min(1).max(200).optional(),
  semanticId: z
    .string()
    .min(1)
    .max(4000)
    .optional()
    .describe('base64url-encoded semantic id of the submodels.'),
  level: levelQuery,
  extent: extentQuery,
});

export function submodelRepositoryRoutes(deps: RouteDeps): RouteSpec[] {
  const list = async (ctx: AppContext, query: z.infer<typeof listQuery>) =>
    listSubmodels(
      await aasScope(ctx, deps),
      { limit: query.limit ?? 100, cursor: query.cursor },
      {
        idShort: query.idShort,
        semanticId:
          query.semanticId === undefined ? undefined : decodeIdentifier(query.semanticId, 'The semanticId'),
      },
    );
  const variant = (
    suffix: string,
    operation: string,
    summary: string,
    map: (page: Awaited<ReturnType<typeof list>>, level: Level) => { result: unknown[]; cursor?: string },
  ) =>
    aasRoute({
      path: `/submodels${suffix}`,
      operationId: `aasGetAllSubmodels${operation}`,
      summary,
      query: listQuery,
      schema: pagedSchema(looseJson),
      handler: async (ctx, { query }) =>
        sendJson(ctx, paged(map(await list(ctx, query), query.level ?? 'deep'))),
    });
  return [
    variant('', '', 'AAS API: the active passports’ submodels, a page at a time.', (page, level) => ({
      ...page,
      result: page.result.map((s) => submodelAtLevel(s, level)),
    })),
    variant('/$metadata', 'Metadata', 'AAS API: the submodels without their elements.', (page) => ({
      ...page,
      result: page.result.map(submodelMetadata),
    })),
    variant('/$value', 'ValueOnly', 'AAS API: the submodels’ values (ValueOnly).', (page, level) => ({
      ...page,
      result: page.result.map((s) => submodelValue(s, level)),
    })),
    variant('/$reference', 'Reference', 'AAS API: references to the submodels.', (page) => ({
      ...page,
      result: page.result.map((s) => submodelReference(s.id)),
    })),
    // One path per submodel (its idShort, the root of its elements' idShortPaths), so a page of n submodels
    // has n entries; a submodel's own paths are at /submodels/{id}/$path.
    variant('/$path', 'Path', 'AAS API: the submodels’ paths (their idShorts).', (page) => ({
      ...page,
      result: page.result.map((s) => s.idShort),
    })),
    ...submodelRoutes(deps, 'repository'),
    ...submodelRoutes(deps, 'shell'),
  ];
}

/**
 * The operations on one submodel: in the submodel repository (`/submodels/{submodelIdentifier}`) and under
 * its shell in the AAS repository (`/shells/{aasIdentifier}/submodels/{submodelIdentifier}`).
 */
function submodelRoutes(deps: RouteDeps, under: 'repository' | 'shell'): RouteSpec[] {
  const base =
    under === 'shell'
      ? '/shells/:aasIdentifier/submodels/:submodelIdentifier'
      : '/submodels/:submodelIdentifier';
  const op = (name: string) => (under === 'shell' ? `aasShell${name}` : `aas${name}`);
  const where = under === 'shell' ? ' (of a shell)' : '';
  const params =
    under === 'shell'
      ? z.object({ aasIdentifier: identifierParam, submodelIdentifier: identifierParam })
      : z.object({ submodelIdentifier: identifierParam });
  const elementParams =
    under === 'shell'
      ? z.object({
          aasIdentifier: identifierParam,
          submodelIdentifier: identifierParam,
          idShortPath: z.string().min(1).max(1000),
        })
      : z.object({ submodelIdentifier: identifierParam, idShortPath: z.string().min(1).max(1000) });
  type Params = { aasIdentifier?: string; submodelIdentifier: string; idShortPath?: string };
  const load = async (ctx: AppContext, p: Params) =>
    getSubmodel(await aasScope(ctx, deps, { tap: true }), p.submodelIdentifier, p.aasIdentifier);
  // An element the caller's cut does not hold but the brand's does: 401/403, not 404.
  const loadElement = async (ctx: AppContext, p: Params) =>
    getSubmodelElement(
      await aasScope(ctx, deps, { tap: true }),
      p.submodelIdentifier,
      p.idShortPath!,
      p.aasIdentifier,
    );
  const levelOnly = z.object({ level: levelQuery, extent: extentQuery });
  const pageQuery = z.object({
    limit: limitQuery,
    cursor: cursorQuery,
    level: levelQuery,
    extent: extentQuery,
  });
  const route = <Q>(
    suffix: string,
    name: string,
    summary: string,
    query: z.ZodType<Q> | undefined,
    handler: (ctx: AppContext, p: Params, q: Q) => Promise<unknown>,
    elementRoute = false,
  ) =>
    aasRoute<Q, Params>({
      path: `${base}${suffix}`,
      operationId: op(name),
      summary: `AAS API: ${summary}${where}.`,
      ...(query ? { query } : {}),
      params: (elementRoute ? elementParams : params) as unknown as z.ZodType<Params>,
      schema: looseJson,
      handler: async (ctx, input) => sendJson(ctx, await handler(ctx, input.params, input.query)),
    });
  type LevelQ = z.infer<typeof levelOnly>;
  type PageQ = z.infer<typeof pageQuery>;
  return [
    route<LevelQ>('', 'GetSubmodelById', 'one submodel', levelOnly, async (ctx, p, q) =>
      submodelAtLevel(await load(ctx, p), q.level ?? 'deep'),
    ),
    route<undefined>(
      '/$metadata',
      'GetSubmodelByIdMetadata',
      'a submodel without its elements',
      undefined,
      async (ctx, p) => submodelMetadata(await load(ctx, p)),
    ),
    route<LevelQ>(
      '/$value',
      'GetSubmodelByIdValueOnly',
      'a submodel’s values (ValueOnly)',
      levelOnly,
      async (ctx, p, q) => submodelValue(await load(ctx, p), q.level ?? 'deep'),
    ),
    route<undefined>(
      '/$reference',
      'GetSubmodelByIdReference',
      'a reference to a submodel',
      undefined,
      async (ctx, p) => submodelReference((await load(ctx, p)).id),
    ),
    route<LevelQ>(
      '/$path',
      'GetSubmodelByIdPath',
      'a submodel’s idShort paths',
      levelOnly,
      async (ctx, p, q) => idShortPaths((await load(ctx, p)).submodelElements, q.level ?? 'deep'),
    ),
    route<PageQ>(
      '/submodel-elements',
      'GetAllSubmodelElements',
      'a submodel’s elements',
      pageQuery,
      async (ctx, p, q) => {
        const submodel = await load(ctx, p);
        const page = pageOf<ViewElement>(submodel.submodelElements, q.limit, q.cursor);
        return paged({ ...page, result: page.result.map((e) => atLevel(e, q.level ?? 'deep')) });
      },
    ),
    route<PageQ>(
      '/submodel-elements/$metadata',
      'GetAllSubmodelElementsMetadata',
      'a submodel’s elements without values',
      pageQuery,
      async (ctx, p, q) => {
        const page = pageOf<ViewElement>((await load(ctx, p)).submodelElements, q.limit, q.cursor);
        return paged({ ...page, result: page.result.map(elementMetadata) });
      },
    ),
    route<PageQ>(
      '/submodel-elements/$value',
      'GetAllSubmodelElementsValueOnly',
      'a submodel’s element values',
      pageQuery,
      async (ctx, p, q) => {
        const page = pageOf<ViewElement>((await load(ctx, p)).submodelElements, q.limit, q.cursor);
        return paged({
          ...page,
          result: page.result.map((e) => ({ [e.idShort ?? '']: valueOnly(e, q.level ?? 'deep') })),
        });
      },
    ),
    route<PageQ>(
      '/submodel-elements/$reference',
      'GetAllSubmodelElementsReference',
      'references to a submodel’s elements',
      pageQuery,
      async (ctx, p, q) => {
        const submodel = await load(ctx, p);
        const page = pageOf<ViewElement>(submodel.submodelElements, q.limit, q.cursor);
        return paged({
          ...page,
          result: page.result.map((e) => elementReference(submodel, e.idShort ?? '')),
        });
      },
    ),
    route<PageQ>(
      '/submodel-elements/$path',
      'GetAllSubmodelElementsPath',
      'a submodel’s element paths',
      pageQuery,
      async (ctx, p, q) => {
        const submodel = await load(ctx, p);
        const page = pageOf<ViewElement>(submodel.submodelElements, q.limit, q.cursor);
        return paged({ ...page, result: page.result.flatMap((e) => idShortPaths([e], q.level ?? 'deep')) });
      },
    ),
    route<LevelQ>(
      '/submodel-elements/:idShortPath',
      'GetSubmodelElementByPath',
      'one submodel element',
      levelOnly,
      async (ctx, p, q) => atLevel((await loadElement(ctx, p)).element, q.level ?? 'deep'),
      true,
    ),
    route<undefined>(
      '/submodel-elements/:idShortPath/$metadata',
      'GetSubmodelElementByPathMetadata',
      'one element without its value',
      undefined,
      async (ctx, p) => elementMetadata((await loadElement(ctx, p)).element),
      true,
    ),
    route<LevelQ>(
      '/submodel-elements/:idShortPath/$value',
      'GetSubmodelElementByPathValueOnly',
      'one element’s value',
      levelOnly,
      async (ctx, p, q) => {
        // ValueOnly of one element: `{idShort: value}` (a JSON object even for a Property); a list item has no
        // idShort: its value alone.
        const { element } = await loadElement(ctx, p);
        const value = valueOnly(element, q.level ?? 'deep');
        return element.idShort === undefined ? value : { [element.idShort]: value };
      },
      true,
    ),
    route<undefined>(
      '/submodel-elements/:idShortPath/$reference',
      'GetSubmodelElementByPathReference',
      'a reference to one element',
      undefined,
      async (ctx, p) => {
        const { submodel } = await loadElement(ctx, p);
        return elementReference(submodel, p.idShortPath!);
      },
      true,
    ),
    route<LevelQ>(
      '/submodel-elements/:idShortPath/$path',
      'GetSubmodelElementByPathPath',
      'the idShort paths below a collection',
      levelOnly,
      async (ctx, p, q) => {
        const { element } = await loadElement(ctx, p);
        if (
          element.modelType !== 'SubmodelElementCollection' &&
          element.modelType !== 'SubmodelElementList'
        ) {
          throw new DomainError(
            'invalid',
            'not_a_container',
            `${p.idShortPath} is a ${element.modelType}: it has no paths below it.`,
          );
        }
        // core: the direct children only.
        const below = pathsBelow(element, p.idShortPath!);
        const depth = (path: string) => path.split(/\.|(?=\[)/).length;
        const first = depth(p.idShortPath!) + 1;
        return [
          p.idShortPath!,
          ...((q.level ?? 'deep') === 'core' ? below.filter((path) => depth(path) === first) : below),
        ];
      },
      true,
    ),
    route<undefined>(
      '/submodel-elements/:idShortPath/attachment',
      'GetFileByPath',
      'a File element’s content (passports have none)',
      undefined,
      async (ctx, p) => {
        const { element } = await loadElement(ctx, p);
        throw new DomainError(
          'not_found',
          'no_attachment',
          `${p.idShortPath} is a ${element.modelType}, not a File.`,
        );
      },
      true,
    ),
  ];
}
