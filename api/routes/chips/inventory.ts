import { z } from 'zod';
import { INVENTORY_MAX_ITEMS, listInventory } from '../../../src/chips/inventory.ts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../route.ts';

const inventoryQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(INVENTORY_MAX_ITEMS)
    .default(INVENTORY_MAX_ITEMS)
    .describe(`Items per answer; without it, everything up to ${INVENTORY_MAX_ITEMS}.`),
  after: z.coerce.number().int().min(0).optional().describe('The nextCursor of the previous page.'),
});

export const inventoryRoute = defineRoute({
  method: 'get',
  path: '/v1/dpp/inventory',
  operationId: 'listInventory',
  summary: 'All chips and passports of the company in this environment, in enrollment order.',
  description:
    'tokenId is null for chips not minted yet; status is the passport’s, else the chip’s (ACTIVE once bound ' +
    `to a twin). Without parameters the whole inventory, up to ${INVENTORY_MAX_ITEMS} items; beyond that (or ` +
    'with `limit`) `nextCursor` is non-null: pass it as `after` for the rest.',
  tags: ['dpp'],
  auth: 'apiKey',
  query: inventoryQuery,
  responses: {
    200: {
      description: 'A page of inventory.',
      schema: z.object({
        success: z.literal(true),
        inventory: z.array(
          z.object({
            tokenId: z
              .string()
              .nullable()
              .describe(
                'The passport’s token id; null while the chip has no passport: an extension, the spec shows ' +
                  'a string (docs/api-conventions.md).',
              ),
            chipUid: z.string(),
            productId: z.string().nullable(),
            material: z.string().nullable(),
            status: z.string(),
          }),
        ),
        nextCursor: z.string().nullable(),
      }),
    },
  },
  handler: async (ctx: AppContext, { query }) => {
    const page = await listInventory(ctx.state.em!, ctx.state.scope!, query);
    ctx.body = { success: true, inventory: page.items, nextCursor: page.nextCursor };
  },
});
