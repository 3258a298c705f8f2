import { z } from 'zod';
import { type LevelPassport, levelDigitalLink } from '../../../src/passport/levels/levels.ts';
import { LEVEL_LIST_MAX, listLevels } from '../../../src/passport/levels/list-levels.ts';
import { dppIdOf } from '../../../src/passport/record/passport-header.ts';
import { normalizeGtin } from '../../../src/standards/gs1/gtin.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { afterCursor, gtinFilter } from './query-fields.ts';

const levelQuery = z.object({
  granularity: z.enum(['model', 'batch']).optional().describe('Only model or only batch passports.'),
  gtin: gtinFilter,
  limit: z.coerce.number().int().min(1).max(LEVEL_LIST_MAX).default(25).describe('Passports per page.'),
  after: afterCursor,
});

const levelRow = z.object({
  digitalProductPassportId: z.string(),
  granularity: z.enum(['model', 'batch']),
  gtin: z.string(),
  lot: z.string().nullable(),
  dppStatus: z.string().describe('EN 18222 status: active, suspended, archived…'),
  uniqueProductIdentifier: z.string().describe('Its GS1 Digital Link on the resolver.'),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const view = (publicBaseUrl: string, level: LevelPassport) => ({
  digitalProductPassportId: dppIdOf(level.serviceUid),
  granularity: level.granularity,
  gtin: level.gtin,
  lot: level.lot,
  dppStatus: level.dppStatus,
  uniqueProductIdentifier: levelDigitalLink(publicBaseUrl, level),
  createdAt: level.createdAt.toISOString(),
  updatedAt: level.updatedAt.toISOString(),
});

/** GET /v1/dpp/levels: the company's model and batch passports (docs/granularity.md), for the console's lists. */
export function levelListRoutes(deps: RouteDeps) {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/dpp/levels',
      operationId: 'listLevelPassports',
      summary: 'List the company’s model and batch passports, newest first.',
      description:
        'Keyset paging as GET /v1/dpp/passports (pass `nextCursor` as `after`). An item names its own model and ' +
        'batch passports in its header (modelDppId, batchDppId). API keys and OAuth clients, and the company’s people (user token or console session) in every role.',
      tags: ['dpp'],
      auth: 'apiKeyOrUser',
      query: levelQuery,
      responses: {
        200: {
          description: 'A page of model and batch passports.',
          schema: z.object({
            success: z.literal(true),
            levels: z.array(levelRow),
            nextCursor: z.string().nullable(),
          }),
        },
      },
      handler: async (ctx: AppContext, { query }) => {
        await requireRight(ctx, 'read', 'list model and batch passports');
        const page = await listLevels(deps.orm.em.fork(), ctx.state.scope!, {
          ...(query.granularity ? { granularity: query.granularity } : {}),
          ...(query.gtin ? { gtin: normalizeGtin(query.gtin)! } : {}),
          limit: query.limit,
          ...(query.after ? { after: query.after } : {}),
        });
        ctx.set('Cache-Control', 'no-store');
        ctx.body = {
          success: true,
          levels: page.levels.map((level) => view(deps.config.publicBaseUrl, level)),
          nextCursor: page.nextCursor,
        };
      },
    }),
  ];
}
