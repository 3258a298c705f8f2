import { z } from 'zod';
import { findPassport } from '../../../src/lifecycle/supply-chain/log-event.ts';
import { findEvent } from '../../../src/lifecycle/supply-chain/record-anchor.ts';
import { chainOfCustody } from '../../../src/passport/timeline/chain-of-custody.ts';
import { eventView } from '../../../src/passport/timeline/event-view.ts';
import { listSupplyChainEvents, tokenEvents } from '../../../src/passport/timeline/list-events.ts';
import type { AppContext } from '../../context.ts';
import { defineRoute } from '../../route.ts';
import { supplyChainEventSchema, tokenIdField } from './schemas.ts';

const listQuery = z.object({
  tokenId: tokenIdField.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  after: z.coerce.number().int().min(0).optional().describe('The nextCursor of the previous page.'),
});

export const supplyChainEventRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/iaas/events',
    operationId: 'listSupplyChainEvents',
    summary: 'Supply-chain events of the company (optionally of one token), oldest first.',
    description: 'Paged: up to `limit` events, then `nextCursor`. E-mail addresses are masked.',
    tags: ['iaas'],
    auth: 'apiKey',
    query: listQuery,
    responses: {
      200: {
        description: 'A page of events.',
        schema: z.object({
          success: z.literal(true),
          events: z.array(supplyChainEventSchema),
          nextCursor: z.string().nullable(),
        }),
      },
    },
    handler: async (ctx: AppContext, { query }) => {
      const page = await listSupplyChainEvents(ctx.state.em!, query);
      ctx.body = { success: true, events: page.items, nextCursor: page.nextCursor };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/iaas/events/:id',
    operationId: 'getSupplyChainEvent',
    summary: 'One supply-chain event; transactionHash and blockNumber are null until it is anchored.',
    tags: ['iaas'],
    auth: 'apiKey',
    params: z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) }),
    responses: {
      200: {
        description: 'The event.',
        schema: z.object({ success: z.literal(true), event: supplyChainEventSchema }),
      },
    },
    handler: async (ctx: AppContext, { params }) => {
      ctx.body = { success: true, event: eventView(await findEvent(ctx.state.em!, params.id)) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/iaas/custody/:tokenId',
    operationId: 'getChainOfCustody',
    summary: 'Chain of custody of a passport: every event and an integrity hash over them.',
    description:
      'integrityHash = SHA-256 hash chain over the events in id order (algorithm in docs/supply-chain.md); recompute it ' +
      'from `events` to check nothing was altered, left out or reordered.',
    tags: ['iaas'],
    auth: 'apiKey',
    params: z.object({ tokenId: tokenIdField }),
    responses: {
      200: {
        description: 'Chain of custody and its events.',
        schema: z.object({
          success: z.literal(true),
          chainOfCustody: z.object({
            totalEvents: z.number().int(),
            firstSeen: z.string().nullable(),
            lastSeen: z.string().nullable(),
            integrityHash: z.string(),
          }),
          events: z.array(supplyChainEventSchema),
        }),
      },
    },
    handler: async (ctx: AppContext, { params }) => {
      const em = ctx.state.em!;
      await findPassport(em, params.tokenId);
      const events = await tokenEvents(em, params.tokenId);
      ctx.body = { success: true, chainOfCustody: chainOfCustody(events), events };
    },
  }),
];
