import { z } from 'zod';
import { itemCompleteness, levelCompleteness } from '../../../src/passport/views/passport-completeness.ts';
import type { AppContext } from '../../context.ts';
import { requireRight } from '../../middleware/require-right.ts';
import { defineRoute } from '../../route.ts';
import type { RouteDeps } from '../deps.ts';
import { ownPassport } from './dpp-content.ts';
import { ownLevel } from './level-lifecycle.ts';

const fix = z.union([
  z.object({ kind: z.literal('content'), specificationId: z.string(), pointer: z.string() }),
  z.object({ kind: z.literal('setting'), setting: z.enum(['economicOperatorId', 'facilityId']) }),
  z.object({ kind: z.literal('metadata'), field: z.string() }),
]);

const completeness = z.object({
  digitalProductPassportId: z.string(),
  complete: z.boolean().describe('True when no section misses anything.'),
  sections: z.array(
    z.object({
      id: z.string().describe('untp, content:<specificationId>, or header.'),
      title: z.string(),
      missing: z.array(z.object({ fact: z.string(), fix })),
    }),
  ),
});

export function dppCompletenessRoutes(deps: RouteDeps) {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/dpps/:dppId/completeness',
      operationId: 'getDppCompleteness',
      summary:
        'What the passport still lacks for its UNTP credential, its product-group rules and its header.',
      description:
        'Computed by the same functions that refuse: `untp` lists what format=untp answers 404 ' +
        'untp_data_missing for; `content:<specificationId>` lists each field the pinned JSON Schema finds ' +
        'missing or wrong in the data (an item’s merged over its model and batch), by RFC 6901 pointer, the ' +
        'errors a PUT of that data answers 400 content_invalid with (every registered specification when none ' +
        'is pinned yet); `header` the EN 18223 members still null (company settings, PATCH /v1/company/settings). ' +
        'Each missing fact names where it is filled (`fix`).',
      tags: ['dpps'],
      auth: 'apiKeyOrUser',
      params: z.object({
        dppId: z.string().min(1).max(200).describe('The digitalProductPassportId (urn:uuid:…) or its UUID.'),
      }),
      responses: {
        200: { description: 'The passport’s completeness.', schema: completeness },
        404: { description: 'dpp_not_found (or another company’s).' },
      },
      handler: async (ctx: AppContext, { params }) => {
        await requireRight(ctx, 'read', 'see passports');
        const em = ctx.state.em!;
        const level = await ownLevel(ctx, params.dppId);
        ctx.body = level
          ? await levelCompleteness(em, level, deps.config.publicBaseUrl)
          : await itemCompleteness(em, await ownPassport(ctx, params.dppId), deps.config.publicBaseUrl);
      },
    }),
  ];
}
